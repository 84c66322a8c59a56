/* checks: a user's async function named rip_*, declared only in the user's header before it is called, is ripped and called like any other */
#include <stdio.h>
#include "async_function_named_rip_prefix_declared_in_header.h"

static void root(void *arg)
{
    (void)arg;
    printf("twice %d\n", rip_twice(21));
}

int rip_twice(int v)
{
    rip_yield();
    return 2 * v;
}

int main(void) { return rip_run(root, NULL); }

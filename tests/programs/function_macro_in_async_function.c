/* checks: __FUNCTION__ and __PRETTY_FUNCTION__ in an async function name the function itself */
#include <stdio.h>
#include <rip.h>

static void root(void *arg)
{
    (void)arg;
    rip_yield();
    printf("%s\n", __FUNCTION__);
    printf("%s\n", __PRETTY_FUNCTION__);
}

int main(void) { return rip_run(root, NULL); }

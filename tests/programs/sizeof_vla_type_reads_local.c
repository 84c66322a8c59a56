/* checks: sizeof of a variably modified type evaluates its size expression: a local read only there survives the suspension before it */
#include <stdio.h>
#include <rip.h>

static void root(void *arg)
{
    int n = (int)(long)arg + 6;   /* read only inside sizeof */
    rip_yield();
    printf("sizeof(int[n]) %zu\n", sizeof(int[n]));
}

int main(void) { return rip_run(root, NULL); }

/* checks: sizeof of an async call neither calls nor declares it (review regression) */
#include <stdio.h>
#include <rip.h>
static double f(void) { rip_yield(); return 1.5; }
static void root(void *arg)
{
    (void)arg;
    rip_yield();
    printf("%zu\n", sizeof f());
}
int main(void) { return rip_run(root, NULL); }

/* checks: __typeof__ of a local names the local, not a global of the same name (review regression) */
#include <stdio.h>
#include <rip.h>
static char v = 'c';
static void root(void *arg)
{
    long v = 1L << 40;
    __typeof__(v) w = v;
    (void)arg;
    rip_yield();
    printf("%ld\n", (long)w);
}
int main(void) { (void)v; return rip_run(root, NULL); }

/* error: local register variable */
#include <stdio.h>
#include <rip.h>
static void root(void *arg)
{
    register long pinned __asm__("r12") = 5;
    (void)arg;
    rip_yield();
    __asm__ volatile("" : "+r"(pinned));
    printf("%ld\n", pinned);
}
int main(void) { return rip_run(root, NULL); }

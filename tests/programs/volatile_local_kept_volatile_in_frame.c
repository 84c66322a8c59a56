/* checks: a volatile local kept across a suspension stays volatile in the frame (its type says so) */
#include <stdio.h>
#include <rip.h>
static void root(void *arg)
{
    volatile int ticks = 0;
    int *volatile where = NULL;
    (void)arg;
    for (int i = 0; i < 3; i++) {
        ticks++;
        rip_yield();
    }
    where = (int *)&ticks;
    printf("%d %d %d\n", ticks, where != NULL,
           __builtin_types_compatible_p(__typeof__(&ticks), volatile int *));
}
int main(void) { return rip_run(root, NULL); }

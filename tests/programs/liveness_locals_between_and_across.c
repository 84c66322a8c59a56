/* checks: liveness: locals used only between suspensions stay C locals and keep their values, locals carried around a loop's back edge across a suspension are kept, and a struct type declared inside the async function is usable between suspensions */
/* threads: sorted */
#include <stdio.h>
#include <string.h>
#include <rip.h>

static void noise(void *arg)
{
    char junk[256];
    (void)arg;
    for (int k = 0; k < 6; k++) {
        memset(junk, 0x5a + k, sizeof junk);   /* scribbles over the C stack between resumes */
        printf("  noise %d %d\n", k, junk[k]);
        rip_yield();
    }
}

static void root(void *arg)
{
    int prev = -1;          /* written after a suspension, read after the next one: kept */
    long acc = 1;           /* carried round the loop */
    (void)arg;
    rip_spawn(noise, NULL);
    for (int i = 0; i < 5; i++) {
        int sq = i * i;                     /* used only before the suspension */
        printf("i=%d sq=%d\n", i, sq);
        rip_yield();
        printf("  after yield: prev=%d acc=%ld\n", prev, acc);
        int tmp = prev + 100;               /* used only after it */
        prev = i * 10;
        acc = acc * 3 + tmp;
    }
    printf("prev=%d acc=%ld\n", prev, acc);

    for (int j = 0; j < 2; j++) {
        struct local_pair {
            int lo, hi;
        } pr = { j, j + 40 };
        enum { SMALL = 1, LARGE = 1000 } e = j ? LARGE : SMALL;
        printf("pair lo=%d hi=%d sum=%d e=%d\n", pr.lo, pr.hi, pr.lo + pr.hi, (int)e);
        rip_yield();
        struct local_pair swapped = { 7 * j, -j };
        printf("after yield swapped=%d,%d\n", swapped.lo, swapped.hi);
    }
}

int main(void)
{
    return rip_run(root, NULL);
}

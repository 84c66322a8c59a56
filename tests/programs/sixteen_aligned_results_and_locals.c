/* checks: 16-aligned results (long double, __int128, an aligned struct) come back from
 * async callees whatever their frames' layout, and 16-aligned locals keep their
 * alignment in the frame across suspensions, also in a frame allocated right after
 * an 8-byte-multiple one */
#include <stdint.h>
#include <stdio.h>
#include "rip.h"

struct wide { long double x; char tag; };

RIP_ASYNC static long double third(long double v) {
    rip_yield();
    return v / 3;
}

RIP_ASYNC static void nap(void) {   /* a 24-byte frame */
    rip_yield();
}

RIP_ASYNC static __int128 big(int shift) {
    struct wide k = { 0.5L, 'k' };
    rip_yield();
    if ((uintptr_t)&k % 16)
        printf("misaligned %c\n", k.tag);
    return (__int128)1 << shift;
}

RIP_ASYNC static struct wide make(char tag) {
    struct wide w = { 2.5L, tag };
    rip_yield();
    return w;
}

static void task(void *arg) {
    struct wide local = { 1.0L, 'l' };
    (void)arg;
    nap();
    long double t = third(9.0L);
    nap();
    __int128 b = big(100);
    struct wide w = make('w');
    rip_yield();
    printf("%.1Lf %s %.1Lf %c\n", t, b == ((__int128)1 << 100) ? "2^100" : "wrong", w.x, w.tag);
    printf("local %s %.1Lf %c\n", (uintptr_t)&local % 16 == 0 ? "aligned" : "misaligned",
           local.x, local.tag);
}

int main(void) {
    return rip_run(task, NULL);
}

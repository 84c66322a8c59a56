/* callcost.c -- what a call to an async function costs when it completes
 * without suspending (ripped: a frame from the pool, one resume, no trip
 * through the scheduler), beside a plain C call.  Prints ns per call. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "rip.h"

static long calls = 20000000;
static volatile int never;          /* keeps the suspension possible */

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

RIP_ASYNC __attribute__((noinline)) static long add_async(long a, long b) {
    if (never)
        rip_yield();
    return a + b;
}

__attribute__((noinline)) static long add_plain(long a, long b) {
    if (never)
        puts("never");
    return a + b;
}

static void task(void *arg) {
    long sum = 0;
    (void)arg;
    double t0 = now_s();
    for (long i = 0; i < calls; i++)
        sum = add_async(sum, i);
    double t1 = now_s();
    for (long i = 0; i < calls; i++)
        sum = add_plain(sum, i);
    double t2 = now_s();
    printf("async-call %.2f ns/call\nplain-call %.2f ns/call\n(sum %ld)\n",
           (t1 - t0) * 1e9 / calls, (t2 - t1) * 1e9 / calls, sum);
}

int main(int argc, char **argv) {
    if (argc > 1)
        calls = atol(argv[1]);
    return rip_run(task, NULL);
}

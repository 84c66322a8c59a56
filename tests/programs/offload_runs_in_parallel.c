/* checks: rip_offload runs blocking functions while their callers wait: four at the same time, other tasks keep running meanwhile, and each caller gets its function's result */
#include <stdio.h>
#include <unistd.h>
#include "rip.h"

#define N 4                         /* offloads at once (the default pool has 4 threads) */

static int inside;                  /* offloaded functions started so far */
static int ticks;                   /* the ticker's sleeps so far */
static int all_back;                /* every offload has returned */
static long results[N];
static rip_wg *wg;

/* Blocks in usleep until all N are inside at once and the ticker has run
 * twice since this one began: proof of both without timing.  Gives up
 * after about 10 s and returns -1. */
static void *blocking(void *arg) {
    int ticks_then = __atomic_load_n(&ticks, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&inside, 1, __ATOMIC_SEQ_CST);
    for (int i = 0; i < 10000; i++) {
        if (__atomic_load_n(&inside, __ATOMIC_SEQ_CST) == N &&
            __atomic_load_n(&ticks, __ATOMIC_SEQ_CST) >= ticks_then + 2)
            return (void *)((long)arg * 10);
        usleep(1000);
    }
    return (void *)-1L;
}

static void caller(void *arg) {
    long i = (long)arg;
    results[i] = (long)rip_offload(blocking, (void *)(i + 1));
    rip_wg_done(wg);
}

static void ticker(void *arg) {
    (void)arg;
    while (!__atomic_load_n(&all_back, __ATOMIC_SEQ_CST)) {
        rip_sleep_ms(2);
        __atomic_add_fetch(&ticks, 1, __ATOMIC_SEQ_CST);
    }
}

static void *nothing(void *arg) {
    return arg;
}

static void start(void *arg) {
    (void)arg;
    rip_offload(nothing, NULL);     /* a warm pool: one idle thread must not serve all four */
    wg = rip_wg_new();
    rip_wg_add(wg, N);
    rip_spawn(ticker, NULL);
    for (long i = 0; i < N; i++)
        rip_spawn(caller, (void *)i);
    rip_wg_wait(wg);
    __atomic_store_n(&all_back, 1, __ATOMIC_SEQ_CST);
    for (int i = 0; i < N; i++)
        printf("offload %d returned %ld\n", i, results[i]);
    rip_wg_free(wg);
}

int main(void) {
    return rip_run(start, NULL);
}

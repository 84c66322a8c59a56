/* backends: rip ucontext (threads run every job at once, on the task's own thread) */
/* checks: a job still queued behind a busy offload pool when its task's deadline comes is dropped: rip_offload returns NULL and ETIMEDOUT at the deadline and fn never runs, while the jobs that run finish and return their results */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "rip.h"

static int ran;
static rip_wg *busy;

static void *slow(void *arg) {
    struct timespec ts = { 0, 150 * 1000000L };
    nanosleep(&ts, NULL);
    __atomic_add_fetch(&ran, 1, __ATOMIC_SEQ_CST);
    return arg;
}

static void *marker(void *arg) {
    __atomic_add_fetch(&ran, 100, __ATOMIC_SEQ_CST);
    return arg;
}

static void occupy(void *arg) {
    void *r = rip_offload(slow, arg);
    if (r != arg)
        printf("a running job lost its result\n");
    rip_wg_done(busy);
}

static void task(void *arg) {
    (void)arg;
    static int value = 5;
    for (int i = 0; i < 2; i++) {           /* RIP_OFFLOAD_THREADS=2: the pool is busy */
        rip_wg_add(busy, 1);
        rip_spawn(occupy, &value);
    }
    rip_yield();
    int64_t start = rip_now_ms();
    rip_set_deadline(start + 40);
    errno = 0;
    void *r = rip_offload(marker, &value);
    int64_t waited = rip_now_ms() - start;
    printf("queued: %s %s\n", r ? "result" : "NULL", errno == ETIMEDOUT ? "ETIMEDOUT" : "other");
    printf("at the deadline: %s\n", waited >= 40 && waited < 140 ? "yes" : "no");
    rip_set_deadline(-1);
    rip_wg_wait(busy);
    printf("ran: %d\n", __atomic_load_n(&ran, __ATOMIC_SEQ_CST));
}

int main(void) {
    setenv("RIP_OFFLOAD_THREADS", "2", 1);
    busy = rip_wg_new();
    int r = rip_run(task, NULL);
    rip_wg_free(busy);
    return r;
}

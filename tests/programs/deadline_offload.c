/* checks: rip_offload under a deadline already passed returns NULL and ETIMEDOUT without running fn; a job that runs past its task's deadline is waited for, its result returned (a running job cannot be stopped, and its result is the caller's) */
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include "rip.h"

static int ran;

static void *slow(void *arg) {
    struct timespec ts = { 0, 80 * 1000000L };
    nanosleep(&ts, NULL);
    __atomic_add_fetch(&ran, 1, __ATOMIC_SEQ_CST);
    return arg;
}

static void task(void *arg) {
    (void)arg;
    static int value = 5;
    rip_set_deadline(rip_now_ms() - 1);
    errno = 0;
    void *r = rip_offload(slow, &value);
    printf("passed: %s %s, ran %d\n", r ? "result" : "NULL", errno == ETIMEDOUT ? "ETIMEDOUT" : "other",
           __atomic_load_n(&ran, __ATOMIC_SEQ_CST));
    rip_set_deadline(rip_now_ms() + 20);
    r = rip_offload(slow, &value);
    printf("running past it: %d, ran %d\n", r ? *(int *)r : -1, __atomic_load_n(&ran, __ATOMIC_SEQ_CST));
}

int main(void) {
    return rip_run(task, NULL);
}

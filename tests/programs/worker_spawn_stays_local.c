/* checks: tasks spawned on a worker, and the tasks they spawn, run on that worker, and rip_run_workers waits for all of them */
#include <stdio.h>
#include "rip.h"

#define N 3                         /* workers */
#define KIDS 5                      /* children per worker, one grandchild each */

static int at_home[N];              /* descendants that ran on their worker */
static int strays;                  /* descendants that ran elsewhere */

static void check(long home) {
    rip_yield();
    if (rip_worker_id() == home)
        __atomic_add_fetch(&at_home[home], 1, __ATOMIC_SEQ_CST);
    else
        __atomic_add_fetch(&strays, 1, __ATOMIC_SEQ_CST);
}

static void grandchild(void *arg) {
    rip_sleep_ms(1);
    check((long)arg);
}

static void child(void *arg) {
    rip_spawn(grandchild, arg);
    check((long)arg);
}

static void work(void *arg) {
    long id = rip_worker_id();
    (void)arg;
    for (int i = 0; i < KIDS; i++)
        rip_spawn(child, (void *)id);
}

int main(void) {
    int r = rip_run_workers(N, work, NULL);
    printf("rip_run_workers returned %d\n", r);
    for (int i = 0; i < N; i++)
        printf("worker %d: %d descendants ran on it\n", i, at_home[i]);
    printf("ran elsewhere: %d\n", strays);
    return r;
}

/* checks: rip_run_workers(4, fn, arg) runs fn(arg) once on each worker, ids 0..3, all at the same time, and returns 0 when all have finished */
#include <stdio.h>
#include "rip.h"

#define N 4

static int arrived;                 /* workers that have started */
static int runs[N];                 /* fn's runs on each worker */
static int seen[N];                 /* workers each one saw running at once */

/* Waits (about 10 s at most) until all N have started: only workers
 * running in parallel get there. */
static void work(void *arg) {
    int id = rip_worker_id();
    if (id < 0 || id >= N || arg != (void *)runs)
        return;
    runs[id]++;
    __atomic_add_fetch(&arrived, 1, __ATOMIC_SEQ_CST);
    int64_t give_up = rip_now_ms() + 10000;
    while (__atomic_load_n(&arrived, __ATOMIC_SEQ_CST) < N && rip_now_ms() < give_up)
        rip_sleep_ms(1);
    seen[id] = __atomic_load_n(&arrived, __ATOMIC_SEQ_CST);
}

int main(void) {
    int r = rip_run_workers(N, work, runs);
    printf("rip_run_workers returned %d\n", r);
    for (int i = 0; i < N; i++)
        printf("worker %d: ran %d time(s), saw %d workers running\n", i, runs[i], seen[i]);
    return r;
}

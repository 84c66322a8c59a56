/* exit: 3 */
/* checks: a worker whose tasks all block forever is reported while the other workers run to their end; rip_run_workers then returns -1 */
#include <stdio.h>
#include "rip.h"

#define N 3

static int finished[N];             /* fn returned on that worker */

static void stuck(void *arg) {
    int v;
    rip_chan_recv(arg, &v);         /* nobody sends */
}

static void work(void *arg) {
    int id = rip_worker_id();
    (void)arg;
    if (id == 1) {                  /* two tasks wait on a channel of their own worker */
        rip_chan *never = rip_chan_new(sizeof(int), 0);
        rip_spawn(stuck, never);
        stuck(never);
        return;
    }
    rip_sleep_ms(100);              /* still running when worker 1 deadlocks */
    finished[id] = 1;
}

int main(void) {
    int r = rip_run_workers(N, work, NULL);
    for (int i = 0; i < N; i++)
        printf("worker %d %s\n", i, finished[i] ? "finished" : "did not finish");
    printf("rip_run_workers returned %d\n", r);
    return r == -1 ? 3 : 0;
}

/* checks: 100,000 tasks alive at once, each suspended, all finish (ucontext: past the guard-page mapping limit) */
/* backends: rip ucontext (threads: 100,000 live threads exceed kernel.pid_max, 32768 by default) */
#include <stdio.h>
#include "rip.h"

#define N 100000

static rip_wg *started, *finished;
static rip_chan *go;
static long sum;

static void task(void *arg) {
    long id = (long)arg;
    int token;
    rip_wg_done(started);
    rip_chan_recv(go, &token);      /* every task waits here at once */
    sum += id;
    rip_wg_done(finished);
}

static void start(void *arg) {
    int token = 1;
    (void)arg;
    started = rip_wg_new();
    finished = rip_wg_new();
    go = rip_chan_new(sizeof(int), N);
    rip_wg_add(started, N);
    rip_wg_add(finished, N);
    for (long i = 0; i < N; i++)
        rip_spawn(task, (void *)i);
    rip_wg_wait(started);
    printf("%d tasks waiting\n", N);
    for (int i = 0; i < N; i++)
        rip_chan_send(go, &token);
    rip_wg_wait(finished);
    printf("all finished, sum of ids %ld\n", sum);
    rip_chan_free(go);
    rip_wg_free(started);
    rip_wg_free(finished);
}

int main(void) {
    return rip_run(start, NULL);
}

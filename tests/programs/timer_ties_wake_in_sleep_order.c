/* checks: 200 timers wake in deadline order, ties in the order the sleeps began (the timer heap) */
/* threads: sorted */
#include <stdio.h>
#include "rip.h"

#define N 200

static rip_chan *woke;
static rip_wg *all;

static void sleeper(void *arg) {
    int id = (int)(long)arg;
    /* Multiples of 50 ms: the time between the first and the last sleep
     * starting (slow under ASan on a busy machine) cannot reorder them. */
    rip_sleep_ms((id * 7 % 5) * 50);
    rip_chan_send(woke, &id);
    rip_wg_done(all);
}

static void start(void *arg) {
    int id;
    (void)arg;
    woke = rip_chan_new(sizeof(int), N);
    all = rip_wg_new();
    rip_wg_add(all, N);
    for (long i = 0; i < N; i++)
        rip_spawn(sleeper, (void *)i);
    rip_wg_wait(all);
    for (int i = 0; i < N; i++) {
        rip_chan_recv(woke, &id);
        printf("%d\n", id);
    }
    rip_chan_free(woke);
    rip_wg_free(all);
}

int main(void) {
    return rip_run(start, NULL);
}

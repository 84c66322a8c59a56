/* checks: selects over two channels with timeouts, racing plain senders with deadlines on both, never lose or duplicate a value: every send that returned 0 was received by exactly one select, every other call timed out (on threads wakers, timeouts and selects queueing race for each select) */
#include <errno.h>
#include <stdio.h>
#include "rip.h"

#define N 300

static rip_chan *c[2];
static rip_wg *all;
static int sent, received, timeouts, other;
static long sum_sent, sum_received;

static void selector(void *arg) {
    int v = 0, w = 0;
    rip_chan_case k[2] = { { c[0], 0, &v, 0 }, { c[1], 0, &w, 0 } };
    int i = rip_chan_select(k, 2, (int)((long)arg % 7));
    if (i >= 0 && k[i].result == 1) {
        __atomic_add_fetch(&received, 1, __ATOMIC_SEQ_CST);
        __atomic_add_fetch(&sum_received, i ? w : v, __ATOMIC_SEQ_CST);
    } else if (i == -1 && errno == EAGAIN) {
        __atomic_add_fetch(&timeouts, 1, __ATOMIC_SEQ_CST);
    } else {
        __atomic_add_fetch(&other, 1, __ATOMIC_SEQ_CST);
    }
    rip_wg_done(all);
}

static void sender(void *arg) {
    int v = (int)(long)arg + 1;
    rip_set_deadline(rip_now_ms() + (long)arg % 5);
    int r = rip_chan_send(c[(long)arg % 2], &v);
    if (r == 0) {
        __atomic_add_fetch(&sent, 1, __ATOMIC_SEQ_CST);
        __atomic_add_fetch(&sum_sent, v, __ATOMIC_SEQ_CST);
    } else if (r == -1 && errno == ETIMEDOUT) {
        __atomic_add_fetch(&timeouts, 1, __ATOMIC_SEQ_CST);
    } else {
        __atomic_add_fetch(&other, 1, __ATOMIC_SEQ_CST);
    }
    rip_wg_done(all);
}

static void task(void *arg) {
    (void)arg;
    for (long i = 0; i < N; i++) {
        rip_wg_add(all, 2);
        rip_spawn(selector, (void *)i);
        rip_spawn(sender, (void *)(N - i));
        if (i % 10 == 0)
            rip_sleep_ms(1);
    }
    rip_wg_wait(all);
    printf("every call ended: %s\n", sent + received + timeouts == 2 * N ? "yes" : "no");
    printf("sent = received: %s\n", sent == received && sum_sent == sum_received ? "yes" : "no");
    printf("some handed over: %s\n", sent > 0 ? "yes" : "no");
    printf("other results: %d\n", other);
}

int main(void) {
    c[0] = rip_chan_new(sizeof(int), 0);
    c[1] = rip_chan_new(sizeof(int), 0);
    all = rip_wg_new();
    int r = rip_run(task, NULL);
    rip_chan_free(c[0]);
    rip_chan_free(c[1]);
    rip_wg_free(all);
    return r;
}

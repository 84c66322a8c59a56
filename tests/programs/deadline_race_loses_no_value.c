/* checks: receivers and senders whose deadlines come while values change hands never lose or duplicate one: every send that returned 0 was received exactly once, and every other call timed out (on threads the deadline and a waker race for each waiter) */
#include <errno.h>
#include <stdio.h>
#include "rip.h"

#define N 300

static rip_chan *c;
static rip_wg *all;
static int sent, received, send_timeouts, recv_timeouts, other;
static long sum_sent, sum_received;

static void receiver(void *arg) {
    int v;
    rip_set_deadline(rip_now_ms() + (long)arg % 7);
    int r = rip_chan_recv(c, &v);
    if (r == 1) {
        __atomic_add_fetch(&received, 1, __ATOMIC_SEQ_CST);
        __atomic_add_fetch(&sum_received, v, __ATOMIC_SEQ_CST);
    } else if (r == -1 && errno == ETIMEDOUT) {
        __atomic_add_fetch(&recv_timeouts, 1, __ATOMIC_SEQ_CST);
    } else {
        __atomic_add_fetch(&other, 1, __ATOMIC_SEQ_CST);
    }
    rip_wg_done(all);
}

static void sender(void *arg) {
    int v = (int)(long)arg + 1;
    rip_set_deadline(rip_now_ms() + (long)arg % 5);
    int r = rip_chan_send(c, &v);
    if (r == 0) {
        __atomic_add_fetch(&sent, 1, __ATOMIC_SEQ_CST);
        __atomic_add_fetch(&sum_sent, v, __ATOMIC_SEQ_CST);
    } else if (r == -1 && errno == ETIMEDOUT) {
        __atomic_add_fetch(&send_timeouts, 1, __ATOMIC_SEQ_CST);
    } else {
        __atomic_add_fetch(&other, 1, __ATOMIC_SEQ_CST);
    }
    rip_wg_done(all);
}

static void task(void *arg) {
    (void)arg;
    for (long i = 0; i < N; i++) {
        rip_wg_add(all, 2);
        rip_spawn(receiver, (void *)i);
        rip_spawn(sender, (void *)(N - i));
        if (i % 10 == 0)
            rip_sleep_ms(1);
    }
    rip_wg_wait(all);
    printf("every call ended: %s\n", sent + send_timeouts == N && received + recv_timeouts == N ? "yes" : "no");
    printf("sent = received: %s\n", sent == received && sum_sent == sum_received ? "yes" : "no");
    printf("some handed over: %s\n", sent > 0 ? "yes" : "no");
    printf("some receives timed out: %s\n", recv_timeouts > 0 ? "yes" : "no");
    printf("other results: %d\n", other);
}

int main(void) {
    c = rip_chan_new(sizeof(int), 0);
    all = rip_wg_new();
    int r = rip_run(task, NULL);
    rip_chan_free(c);
    rip_wg_free(all);
    return r;
}

/* threads: sorted */
/* checks: rip_chan_try_send/try_recv never wait (EAGAIN, EPIPE, 0 for closed); rip_chan_select does one case: at once when one can be done, else the first channel that can do its case, and the select's other waits are taken off (a later try finds no waiter); a send case hands its value to a waiting receiver; two selects meet on one channel; a closed channel's case is done with its result; timeout 0 never waits, a timeout is -1 EAGAIN, the deadline first -1 ETIMEDOUT; ready cases are chosen in turn (none starves) */
#include <errno.h>
#include <stdio.h>
#include "rip.h"

static rip_chan *a, *b, *c, *x, *y;

static void send_b_later(void *arg) {
    int v = 7;
    (void)arg;
    rip_sleep_ms(10);
    rip_chan_send(b, &v);
}

static void receive_c(void *arg) {
    int v = 0;
    (void)arg;
    int r = rip_chan_recv(c, &v);
    printf("receiver of c: %d %d\n", r, v);
}

static void select_send_c(void *arg) {
    int v = 9;
    rip_chan_case k[1] = { { c, 1, &v, 0 } };
    (void)arg;
    int i = rip_chan_select(k, 1, -1);
    printf("select sending on c: %d %d\n", i, k[0].result);
}

static void task(void *arg) {
    int v = 0, w = 0, one = 1;
    (void)arg;
    errno = 0;
    int r = rip_chan_try_recv(a, &v);
    printf("try_recv empty: %d %s\n", r, errno == EAGAIN ? "EAGAIN" : "other");
    errno = 0;
    r = rip_chan_try_send(a, &one);
    printf("try_send, no receiver: %d %s\n", r, errno == EAGAIN ? "EAGAIN" : "other");

    rip_chan_case k[2] = { { a, 0, &v, 0 }, { b, 0, &w, 0 } };
    errno = 0;
    r = rip_chan_select(k, 2, 0);
    printf("select, timeout 0: %d %s\n", r, errno == EAGAIN ? "EAGAIN" : "other");
    rip_spawn(send_b_later, NULL);
    int i = rip_chan_select(k, 2, -1);
    printf("select woken by b: %d %d %d\n", i, k[i].result, w);
    errno = 0;
    r = rip_chan_try_send(a, &one);
    printf("its wait on a is gone: %d %s\n", r, errno == EAGAIN ? "EAGAIN" : "other");

    rip_spawn(receive_c, NULL);
    rip_sleep_ms(10);
    int nine = 9;
    rip_chan_case s[2] = { { a, 0, &v, 0 }, { c, 1, &nine, 0 } };
    i = rip_chan_select(s, 2, -1);
    printf("send case to a waiting receiver: %d %d\n", i, s[i].result);
    rip_sleep_ms(10);

    rip_spawn(select_send_c, NULL);
    rip_sleep_ms(10);
    rip_chan_case r1[2] = { { NULL, 0, NULL, 0 }, { c, 0, &v, 0 } };
    i = rip_chan_select(r1, 2, -1);
    printf("two selects meet: %d %d %d\n", i, r1[i].result, v);
    rip_sleep_ms(10);

    int64_t start = rip_now_ms();
    errno = 0;
    i = rip_chan_select(k, 2, 20);
    printf("timeout: %d %s, waited at least 20 ms: %s\n", i, errno == EAGAIN ? "EAGAIN" : "other",
           rip_now_ms() - start >= 20 ? "yes" : "no");
    rip_set_deadline(rip_now_ms() + 10);
    errno = 0;
    i = rip_chan_select(k, 2, 1000);
    printf("deadline first: %d %s\n", i, errno == ETIMEDOUT ? "ETIMEDOUT" : "other");
    rip_set_deadline(-1);

    int taken[2] = { 0, 0 };
    for (int n = 0; n < 50; n++) {
        rip_chan_try_send(x, &n);
        rip_chan_try_send(y, &n);
    }
    rip_chan_case xy[2] = { { x, 0, &v, 0 }, { y, 0, &v, 0 } };
    for (int n = 0; n < 50; n++)
        taken[rip_chan_select(xy, 2, 0)]++;
    printf("both ready, each chosen often: %s\n", taken[0] > 10 && taken[1] > 10 ? "yes" : "no");

    rip_chan_close(a);
    i = rip_chan_select(k, 2, -1);
    printf("closed channel's case: %d %d\n", i, k[i].result);
    printf("try_recv closed: %d\n", rip_chan_try_recv(a, &v));
    errno = 0;
    r = rip_chan_try_send(a, &one);
    printf("try_send closed: %d %s\n", r, errno == EPIPE ? "EPIPE" : "other");
}

int main(void) {
    a = rip_chan_new(sizeof(int), 0);
    b = rip_chan_new(sizeof(int), 0);
    c = rip_chan_new(sizeof(int), 0);
    x = rip_chan_new(sizeof(int), 50);
    y = rip_chan_new(sizeof(int), 50);
    int r = rip_run(task, NULL);
    rip_chan_free(a);
    rip_chan_free(b);
    rip_chan_free(c);
    rip_chan_free(x);
    rip_chan_free(y);
    return r;
}

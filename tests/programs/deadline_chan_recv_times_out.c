/* threads: sorted */
/* checks: a channel receive that waits past its task's deadline fails with -1 and ETIMEDOUT, no sooner than the deadline; the receiver is off the channel after (a later send goes to the next receiver); one that can finish at once still does; one that gets its value in time returns 1 and is not timed out later */
#include <errno.h>
#include <stdio.h>
#include "rip.h"

static rip_chan *c, *buffered;

static void late_receiver(void *arg) {
    int v = 0;
    (void)arg;
    int r = rip_chan_recv(c, &v);           /* no deadline: waits for the send */
    printf("late receiver: %d %d\n", r, v);
}

static void sender(void *arg) {
    int v = 42;
    (void)arg;
    rip_sleep_ms(20);
    printf("send: %d\n", rip_chan_send(c, &v));
}

static void task(void *arg) {
    int v = 0;
    (void)arg;
    int64_t start = rip_now_ms();
    rip_set_deadline(start + 50);
    errno = 0;
    int r = rip_chan_recv(c, &v);           /* nobody sends yet */
    int err = errno;
    printf("recv: %d %s\n", r, err == ETIMEDOUT ? "ETIMEDOUT" : "other");
    printf("waited at least 50 ms: %s\n", rip_now_ms() - start >= 50 ? "yes" : "no");

    rip_set_deadline(rip_now_ms() - 1);     /* passed: an element waiting is still taken */
    int one = 7;
    rip_chan_send(buffered, &one);
    r = rip_chan_recv(buffered, &v);
    printf("passed deadline, buffered: %d %d\n", r, v);
    errno = 0;
    r = rip_chan_recv(buffered, &v);
    printf("passed deadline, empty: %d %s\n", r, errno == ETIMEDOUT ? "ETIMEDOUT" : "other");

    rip_set_deadline(-1);
    rip_spawn(late_receiver, NULL);         /* the timed-out receiver must not take its value */
    rip_spawn(sender, NULL);
    rip_sleep_ms(40);

    rip_set_deadline(rip_now_ms() + 30);    /* a value in time: 1, and no timeout after */
    rip_spawn(sender, NULL);
    r = rip_chan_recv(c, &v);
    printf("in time: %d %d\n", r, v);
    rip_set_deadline(-1);
    rip_sleep_ms(60);                       /* past where the deadline was */
    rip_spawn(sender, NULL);
    r = rip_chan_recv(c, &v);
    printf("after: %d %d\n", r, v);
}

int main(void) {
    c = rip_chan_new(sizeof(int), 0);
    buffered = rip_chan_new(sizeof(int), 1);
    int r = rip_run(task, NULL);
    rip_chan_free(c);
    rip_chan_free(buffered);
    return r;
}

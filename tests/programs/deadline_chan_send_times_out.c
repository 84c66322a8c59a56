/* threads: sorted */
/* checks: a channel send that waits past its task's deadline fails with -1 and ETIMEDOUT, no sooner than the deadline, and its value is never received after; a send to a closed channel is -1 and EPIPE; one that can finish at once (a waiting receiver, room in the buffer) still does under a passed deadline */
#include <errno.h>
#include <stdio.h>
#include "rip.h"

static rip_chan *c, *buffered;

static void receiver(void *arg) {
    int v = 0;
    (void)arg;
    int r = rip_chan_recv(c, &v);
    printf("receiver: %d %d\n", r, v);
}

static void task(void *arg) {
    (void)arg;
    int v = 1;
    int64_t start = rip_now_ms();
    rip_set_deadline(start + 50);
    errno = 0;
    int r = rip_chan_send(c, &v);           /* nobody receives */
    printf("send: %d %s\n", r, errno == ETIMEDOUT ? "ETIMEDOUT" : "other");
    printf("waited at least 50 ms: %s\n", rip_now_ms() - start >= 50 ? "yes" : "no");

    rip_set_deadline(rip_now_ms() - 1);     /* passed */
    rip_spawn(receiver, NULL);
    rip_sleep_ms(20);                       /* the receiver waits now */
    v = 2;
    printf("passed deadline, receiver waiting: %d\n", rip_chan_send(c, &v));
    rip_yield();
    printf("passed deadline, room: %d\n", rip_chan_send(buffered, &v));
    errno = 0;
    r = rip_chan_send(buffered, &v);
    printf("passed deadline, full: %d %s\n", r, errno == ETIMEDOUT ? "ETIMEDOUT" : "other");

    rip_set_deadline(-1);
    rip_chan_close(c);
    errno = 0;
    r = rip_chan_send(c, &v);
    printf("closed: %d %s\n", r, errno == EPIPE ? "EPIPE" : "other");
}

int main(void) {
    c = rip_chan_new(sizeof(int), 0);
    buffered = rip_chan_new(sizeof(int), 1);
    int r = rip_run(task, NULL);
    rip_chan_free(c);
    rip_chan_free(buffered);
    return r;
}

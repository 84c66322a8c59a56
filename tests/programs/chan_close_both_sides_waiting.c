/* checks: closing wakes the waiters on whichever side waits (receivers of an empty rendezvous channel get 0, senders on a full buffered one -1 and EPIPE), and afterwards both sides fail at once: sends -1, receives 0 once the buffer is drained */
/* threads: sorted */
#include <errno.h>
#include <stdio.h>
#include "rip.h"

static rip_chan *empty;             /* rendezvous, receivers wait on it */
static rip_chan *full;              /* capacity 1 holding a value, senders wait on it */
static rip_wg *wg;

static void receiver(void *arg) {
    int v;
    int r = rip_chan_recv(empty, &v);
    printf("receiver %ld: %d\n", (long)arg, r);
    rip_wg_done(wg);
}

static void sender(void *arg) {
    int v = (int)(long)arg;
    int r = rip_chan_send(full, &v);
    printf("sender %d: %d %s\n", v, r, r == -1 && errno == EPIPE ? "EPIPE" : "");
    rip_wg_done(wg);
}

static void start(void *arg) {
    int v = 9;
    (void)arg;
    empty = rip_chan_new(sizeof(int), 0);
    full = rip_chan_new(sizeof(int), 1);
    wg = rip_wg_new();
    rip_chan_send(full, &v);
    rip_wg_add(wg, 4);
    rip_spawn(receiver, (void *)1L);
    rip_spawn(receiver, (void *)2L);
    rip_spawn(sender, (void *)3L);
    rip_spawn(sender, (void *)4L);
    rip_sleep_ms(20);               /* all four are waiting now */
    rip_chan_close(empty);
    rip_chan_close(full);
    rip_wg_wait(wg);
    int r = rip_chan_send(empty, &v);
    printf("after close: send %d %s\n", r, r == -1 && errno == EPIPE ? "EPIPE" : "");
    printf("after close: receive %d\n", rip_chan_recv(empty, &v));
    r = rip_chan_recv(full, &v);
    printf("after close: receive from the buffer %d (%d)\n", r, v);
    printf("after close: then receive %d\n", rip_chan_recv(full, &v));
    rip_chan_free(empty);
    rip_chan_free(full);
    rip_wg_free(wg);
}

int main(void) {
    return rip_run(start, NULL);
}

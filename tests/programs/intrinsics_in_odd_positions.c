/* checks: rip_yield, rip_chan_send/recv and rip_wg_wait, which ripper inlines into the
 * caller (intrinsics), keep their meaning and order wherever they stand: a for condition,
 * an argument, && and ?:, an initializer, a return, a discarded send's errno; and the same
 * primitives through a function pointer and a macro (frame constructors) interleave with
 * them in the same FIFO order */
/* threads: sorted */
#include <errno.h>
#include <stdio.h>
#include "rip.h"

typedef RIP_ASYNC_FN(int, recv_fn, (rip_chan *c, void *elem));
typedef RIP_ASYNC_FN(void, yield_fn, (void));
#define YIELD_BY_MACRO rip_yield()

static rip_chan *ch, *closed;
static rip_wg *wg;
static recv_fn *recv_ptr = rip_chan_recv;

static int twice(int x) { return 2 * x; }

/* A result returned straight from the intrinsic. */
static int take(rip_chan *c) {
    int v;
    return rip_chan_recv(c, &v) ? v : -1;
}

static void counter(void *arg) {
    const char *name = arg;
    int i;
    for (i = 0; (rip_yield(), i < 3); i++)          /* yield in a for condition */
        printf("%s %d\n", name, i);
    YIELD_BY_MACRO;
    printf("%s done\n", name);
    rip_wg_done(wg);
}

static void producer(void *arg) {
    int v;
    (void)arg;
    for (v = 1; v <= 6; v++)
        if (!(v % 2 ? rip_chan_send(ch, &v) == 0 : (rip_chan_send(ch, &v), 1)))
            printf("send failed\n");
    rip_chan_close(ch);
    rip_wg_done(wg);
}

static void consumer(void *arg) {
    int v, got = 0;
    yield_fn *y = rip_yield;
    (void)arg;
    printf("recv as argument: %d\n", twice(rip_chan_recv(ch, &v)) + v);
    int ok = rip_chan_recv(ch, &v);                 /* initializer */
    printf("initializer: %d %d\n", ok, v);
    y();                                            /* rip_yield through a pointer */
    if (recv_ptr(ch, &v) && rip_chan_recv(ch, &got))  /* a pointer, then && */
        printf("pointer and &&: %d %d\n", v, got);
    printf("take: %d\n", take(ch));
    printf("take after close: %d\n", take(ch));
    rip_wg_done(wg);
}

static void blocked_sender(void *arg) {
    int v = 7;
    (void)arg;
    errno = 0;
    rip_chan_send(closed, &v);                      /* woken by close, result discarded */
    printf("discarded send: %s\n", errno == EPIPE ? "EPIPE" : "no errno");
    rip_wg_done(wg);
}

static void start(void *arg) {
    (void)arg;
    ch = rip_chan_new(sizeof(int), 0);
    closed = rip_chan_new(sizeof(int), 0);
    wg = rip_wg_new();
    rip_wg_add(wg, 5);
    rip_spawn(counter, "a");
    rip_spawn(counter, "b");
    rip_spawn(producer, NULL);
    rip_spawn(consumer, NULL);
    rip_spawn(blocked_sender, NULL);
    rip_yield();
    rip_chan_close(closed);
    if ((rip_wg_wait(wg), 1))                       /* a wait in a condition */
        printf("all done\n");
    rip_chan_free(ch);
    rip_chan_free(closed);
    rip_wg_free(wg);
}

int main(void) {
    return rip_run(start, NULL);
}

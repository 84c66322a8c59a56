/* workload.c -- every kind of runtime call once or more, for the fault
 * tests: tasks, a rendezvous and a buffered channel, a wait group, sleeps,
 * rip_offload, 256 KiB through a pipe and back through a socket pair.
 * Prints one line per part; a call that fails prints what failed and the
 * program exits 1 (the documented error reached the caller). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "rip.h"

#define BYTES (256 * 1024)

static int failed;

static void fail(const char *what) {
    printf("%s failed: %s\n", what, strerror(errno));
    failed = 1;
}

struct pair { rip_chan *c; int n; rip_wg *wg; };

static void producer(void *arg) {
    struct pair *p = arg;
    for (int i = 1; i <= p->n; i++)
        if (rip_chan_send(p->c, &i) == -1)
            fail("rip_chan_send");
    rip_chan_close(p->c);
    rip_wg_done(p->wg);
}

static void channels(size_t capacity) {
    rip_chan *c = rip_chan_new(sizeof(int), capacity);
    rip_wg *wg = rip_wg_new();
    if (!c || !wg) {
        fail(!c ? "rip_chan_new" : "rip_wg_new");
        rip_chan_free(c);
        rip_wg_free(wg);
        return;
    }
    struct pair p = { c, 100, wg };
    rip_wg_add(wg, 1);
    rip_spawn(producer, &p);
    long sum = 0;
    int v;
    while (rip_chan_recv(c, &v) == 1)
        sum += v;
    rip_wg_wait(wg);
    printf("channel of %zu: sum %ld\n", capacity, sum);
    rip_chan_free(c);
    rip_wg_free(wg);
}

static void *square(void *arg) {
    long n = (long)arg;
    return (void *)(n * n);
}

struct stream { int fd; const unsigned char *data; int done; };

static void stream_writer(void *arg) {
    struct stream *s = arg;
    if (rip_write(s->fd, s->data, BYTES) != BYTES)
        fail("rip_write");
    rip_close(s->fd);
    __atomic_store_n(&s->done, 1, __ATOMIC_RELEASE);
}

/* BYTES through a writer task and back, to the end of the stream; 1 if
 * they arrived intact. */
static int through(int rfd, int wfd, const unsigned char *data) {
    static unsigned char got[BYTES + 1];        /* room to see the end, not a 0-byte read */
    struct stream s = { wfd, data, 0 };
    size_t have = 0;
    rip_spawn(stream_writer, &s);
    for (;;) {
        ssize_t n = rip_read(rfd, got + have, sizeof got - have);
        if (n < 0) {
            fail("rip_read");
            break;
        }
        if (n == 0)
            break;
        have += (size_t)n;
    }
    rip_close(rfd);
    while (!__atomic_load_n(&s.done, __ATOMIC_ACQUIRE))  /* s is the writer's until then */
        rip_sleep_ms(1);
    return have == BYTES && memcmp(got, data, BYTES) == 0;
}

static void task(void *arg) {
    (void)arg;
    channels(0);
    channels(4);
    int64_t start = rip_now_ms();
    rip_sleep_ms(5);
    printf("slept: %d\n", rip_now_ms() - start >= 5);
    printf("offload: %ld\n", (long)rip_offload(square, (void *)12L));
    unsigned char *data = malloc(BYTES);
    if (!data) {
        fail("malloc");
        return;
    }
    for (size_t i = 0; i < BYTES; i++)
        data[i] = (unsigned char)(i * 7 + i / 251);
    int p[2], s[2];
    if (pipe(p) == -1)
        fail("pipe");
    else
        printf("pipe: %s\n", through(p[0], p[1], data) ? "intact" : "DAMAGED");
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, s) == -1)
        fail("socketpair");
    else
        printf("socket: %s\n", through(s[0], s[1], data) ? "intact" : "DAMAGED");
    free(data);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);       /* a pipe whose reader failed: EPIPE, as servers have it */
    int rc = rip_run(task, NULL);
    return rc ? 2 : failed;
}

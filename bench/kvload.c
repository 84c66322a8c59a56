/* kvload.c -- a load generator for examples/kvd.c: N connections on one
 * epoll loop (one thread), each with one GET or SET in flight at a time.
 *
 *   kvload [-c CONNECTIONS] [-d SECONDS] [-k KEYS] PORT
 *
 * First it opens every connection (at most 256 connecting at once, each
 * answering one SET before it counts as open) and prints
 *   open N failed F setup_seconds S
 * then waits for a line on stdin (so its caller can read the server's
 * memory with every connection open), then sends requests for SECONDS (one
 * SET for every three GETs, keys drawn from KEYS) and prints
 *   requests R errors E seconds S client_cpu C
 * C is this process's own CPU seconds during the load: near S means the
 * client, not the server, was the bottleneck.  Connections close with a
 * reset (SO_LINGER 0), so runs leave no TIME_WAIT behind. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAX_CONNECTING 256          /* connections being set up at once */
#define SETUP_STALL_S 5.0           /* no connection opened for this long: give up on the rest */

enum state { IDLE, CONNECTING, SETUP, READY, DEAD };

/* One connection. */
struct conn {
    int fd;                         /* its socket, or -1 */
    enum state state;               /* where it is */
    unsigned sent;                  /* requests sent on it (every fourth a SET) */
    size_t have;                    /* bytes of the answer in buf */
    char buf[256];                  /* the answer being read */
};

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_s(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_stime.tv_sec + (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

static unsigned long rng = 88172645463325252UL;
static unsigned long next_random(void) {    /* xorshift64: cheap, and the same every run */
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static int keys = 1000;

/* Send c's next request (whole: it is short and nothing else is queued). */
static int send_request(struct conn *c) {
    char line[64];
    unsigned long k = next_random() % (unsigned long)keys;
    int n = c->sent++ % 4 == 0 ? snprintf(line, sizeof line, "SET key%lu value%u\n", k, c->sent)
                               : snprintf(line, sizeof line, "GET key%lu\n", k);
    return write(c->fd, line, (size_t)n) == n ? 0 : -1;
}

/* Read what c's server sent: 1 a whole answer (an error answer is -1),
 * 0 not yet, -1 closed or failed. */
static int read_answer(struct conn *c) {
    ssize_t n = read(c->fd, c->buf + c->have, sizeof c->buf - c->have);
    if (n < 0 && (errno == EAGAIN || errno == EINTR))
        return 0;
    if (n <= 0)
        return -1;
    c->have += (size_t)n;
    if (!memchr(c->buf, '\n', c->have))
        return c->have == sizeof c->buf ? -1 : 0;
    int ok = c->buf[0] == 'O' || c->buf[0] == 'V' || c->buf[0] == 'N';  /* OK, VALUE, NOT_FOUND */
    c->have = 0;
    return ok ? 1 : -1;
}

static void drop(struct conn *c) {
    if (c->fd >= 0)
        close(c->fd);
    c->fd = -1;
    c->state = DEAD;
}

static int start_connect(struct conn *c, int ep, const struct sockaddr_in *to) {
    int one = 1;
    c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c->fd < 0)
        return -1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (connect(c->fd, (const struct sockaddr *)to, sizeof *to) < 0 && errno != EINPROGRESS)
        return -1;
    struct epoll_event ev = { .events = EPOLLOUT | EPOLLIN, .data.ptr = c };
    if (epoll_ctl(ep, EPOLL_CTL_ADD, c->fd, &ev) < 0)
        return -1;
    c->state = CONNECTING;
    return 0;
}

int main(int argc, char **argv) {
    int nconns = 50, opt;
    double seconds = 5;
    while ((opt = getopt(argc, argv, "c:d:k:")) != -1) {
        if (opt == 'c')
            nconns = atoi(optarg);
        else if (opt == 'd')
            seconds = atof(optarg);
        else if (opt == 'k')
            keys = atoi(optarg);
        else
            goto usage;
    }
    if (optind != argc - 1 || nconns < 1 || seconds <= 0 || keys < 1) {
usage:
        fputs("usage: kvload [-c CONNECTIONS] [-d SECONDS] [-k KEYS] PORT\n", stderr);
        return 2;
    }
    struct sockaddr_in to = { .sin_family = AF_INET, .sin_port = htons((unsigned short)atoi(argv[optind])),
                              .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    struct conn *conns = calloc((size_t)nconns, sizeof *conns);
    struct epoll_event evs[1024];
    int ep = epoll_create1(EPOLL_CLOEXEC);
    if (!conns || ep < 0) {
        perror("kvload");
        return 1;
    }
    for (int i = 0; i < nconns; i++)
        conns[i].fd = -1;

    /* Open every connection: each answers one SET before it counts. */
    int started = 0, connecting = 0, opened = 0, failed = 0;
    double t0 = now_s(), last_progress = t0;
    while (opened + failed < nconns) {
        while (connecting < MAX_CONNECTING && started < nconns) {
            struct conn *c = &conns[started++];
            if (start_connect(c, ep, &to) < 0) {
                drop(c);
                failed++;
            } else {
                connecting++;
            }
        }
        if (now_s() - last_progress > SETUP_STALL_S)
            break;                  /* the server takes no more: the rest count as failed */
        int n = epoll_wait(ep, evs, 1024, 100);
        for (int i = 0; i < n; i++) {
            struct conn *c = evs[i].data.ptr;
            int r = 0;
            if (c->state == CONNECTING && (evs[i].events & (EPOLLOUT | EPOLLERR | EPOLLHUP))) {
                int err = 0;
                socklen_t len = sizeof err;
                struct epoll_event ev = { .events = EPOLLIN, .data.ptr = c };
                if (getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &err, &len) < 0 || err ||
                    send_request(c) < 0 || epoll_ctl(ep, EPOLL_CTL_MOD, c->fd, &ev) < 0)
                    r = -1;
                else
                    c->state = SETUP;
            } else if (c->state == SETUP) {
                r = read_answer(c);
                if (r > 0) {
                    c->state = READY;
                    opened++;
                    connecting--;
                    last_progress = now_s();
                }
            }
            if (r < 0) {
                drop(c);
                failed++;
                connecting--;
            }
        }
    }
    for (int i = 0; i < nconns; i++)
        if (conns[i].state != READY && conns[i].state != DEAD) {
            drop(&conns[i]);
            failed++;
        }
    failed += nconns - started;
    printf("open %d failed %d setup_seconds %.3f\n", opened, failed, now_s() - t0);
    fflush(stdout);
    char go[16];
    if (!fgets(go, sizeof go, stdin))
        return 0;                   /* the caller wanted only the connections */

    /* The load: every open connection asks, waits for its answer, asks again. */
    long requests = 0, errors = 0;
    for (int i = 0; i < nconns; i++)
        if (conns[i].state == READY && send_request(&conns[i]) < 0) {
            drop(&conns[i]);
            errors++;
        }
    double start = now_s(), end = start + seconds, cpu0 = cpu_s(), t;
    while ((t = now_s()) < end) {
        int timeout_ms = (int)((end - t) * 1000) + 1;
        int n = epoll_wait(ep, evs, 1024, timeout_ms < 100 ? timeout_ms : 100);
        for (int i = 0; i < n; i++) {
            struct conn *c = evs[i].data.ptr;
            if (c->state != READY)
                continue;
            int r = read_answer(c);
            if (r > 0) {
                requests++;
                r = send_request(c) < 0 ? -1 : 1;
            }
            if (r < 0) {
                drop(c);
                errors++;
            }
        }
    }
    double elapsed = now_s() - start, cpu = cpu_s() - cpu0;
    printf("requests %ld errors %ld seconds %.3f client_cpu %.3f\n", requests, errors, elapsed, cpu);
    fflush(stdout);
    struct linger reset = { 1, 0 };
    for (int i = 0; i < nconns; i++)
        if (conns[i].fd >= 0) {
            setsockopt(conns[i].fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
            close(conns[i].fd);
        }
    free(conns);
    return 0;
}

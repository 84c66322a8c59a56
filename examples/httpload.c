/* httpload.c -- an HTTP/1.1 load generator in plain blocking style: one
 * task per keep-alive connection, each sending a GET and reading the whole
 * response, again and again, until the time is up.
 *
 *   httpload [-c CONNECTIONS] [-d SECONDS] [-w WORKERS] http://IP:PORT/PATH
 *
 * Prints requests per second, errors and latency percentiles. */
#define _GNU_SOURCE                 /* memmem */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "rip.h"

#define MAX_WORKERS 64

static struct sockaddr_in server;   /* where to connect */
static char request[1024];          /* the GET, sent again and again */
static size_t request_len;
static int connections = 50, workers = 1;
static int64_t end_ms;              /* when to stop */

/* What one connection saw: written by its task only (on the threads
 * backend the tasks of one worker run at once, so nothing is shared). */
static struct stats {
    long requests;                  /* complete responses */
    long errors;                    /* failed connections, bad or cut responses */
    uint32_t *latency_us;           /* one per response */
    size_t nlat, cap;
} *stats;                           /* one per connection */

static int64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void record(struct stats *st, int64_t us) {
    if (st->nlat == st->cap) {
        st->cap = st->cap ? 2 * st->cap : 256;
        st->latency_us = realloc(st->latency_us, st->cap * sizeof *st->latency_us);
        if (!st->latency_us) {
            perror("httpload");
            exit(1);
        }
    }
    st->latency_us[st->nlat++] = (uint32_t)us;
    st->requests++;
}

/* Read one response into buf: 0, or -1 (closed, malformed, timed out). */
static int read_response(int fd, char *buf, size_t cap, size_t *have) {
    size_t head = 0, body = 0;
    for (;;) {
        char *end = *have ? memmem(buf, *have, "\r\n\r\n", 4) : NULL;
        if (end) {
            head = (size_t)(end - buf) + 4;
            char *cl = memmem(buf, head, "\r\nContent-Length:", 17);
            if (!cl)
                cl = memmem(buf, head, "\r\ncontent-length:", 17);
            if (!cl || strncmp(buf, "HTTP/1.1 200", 12) != 0)
                return -1;
            body = strtoul(cl + 17, NULL, 10);
            break;
        }
        if (*have == cap)
            return -1;
        ssize_t n = rip_read(fd, buf + *have, cap - *have);
        if (n <= 0)
            return -1;
        *have += (size_t)n;
    }
    size_t total = head + body;
    if (*have >= total) {
        memmove(buf, buf + total, *have - total);  /* keep any bytes of the next */
        *have -= total;
        return 0;
    }
    size_t left = total - *have;    /* a big body passes through buf in pieces */
    for (;;) {
        ssize_t n = rip_read(fd, buf, cap);
        if (n <= 0)
            return -1;
        if ((size_t)n >= left) {
            memmove(buf, buf + left, (size_t)n - left);
            *have = (size_t)n - left;
            return 0;
        }
        left -= (size_t)n;
    }
}

static void client(void *arg) {
    struct stats *st = arg;
    char buf[16384];
    size_t have = 0;
    int one = 1;
    rip_set_deadline(end_ms);
    while (rip_now_ms() < end_ms) {
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        if (fd >= 0)
            setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (fd < 0 || rip_connect(fd, (struct sockaddr *)&server, sizeof server) < 0) {
            st->errors++;
            if (fd >= 0)
                rip_close(fd);
            rip_sleep_ms(10);
            continue;
        }
        have = 0;
        for (;;) {
            int64_t t0 = now_us();
            if (rip_write(fd, request, request_len) < 0 ||
                read_response(fd, buf, sizeof buf, &have) < 0) {
                if (rip_now_ms() < end_ms)
                    st->errors++;   /* not just the clock running out */
                break;
            }
            record(st, now_us() - t0);
        }
        rip_close(fd);
    }
}

static void worker(void *arg) {
    int id = rip_worker_id();
    (void)arg;
    for (int i = id; i < connections; i += workers)
        rip_spawn(client, &stats[i]);
}

static int by_value(const void *a, const void *b) {
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

static void usage(void) {
    fputs("usage: httpload [-c CONNECTIONS] [-d SECONDS] [-w WORKERS] http://IP:PORT/PATH\n",
          stderr);
    exit(2);
}

int main(int argc, char **argv) {
    double seconds = 5;
    const char *url = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-c") && i + 1 < argc) connections = atoi(argv[++i]);
        else if (!strcmp(argv[i], "-d") && i + 1 < argc) seconds = atof(argv[++i]);
        else if (!strcmp(argv[i], "-w") && i + 1 < argc) workers = atoi(argv[++i]);
        else if (!url && argv[i][0] != '-') url = argv[i];
        else usage();
    }
    char host[64], path[512] = "/";
    int port = 80;
    if (!url || connections < 1 || seconds <= 0 || workers < 1 || workers > MAX_WORKERS ||
        sscanf(url, "http://%63[0-9.]:%d%511s", host, &port, path) < 2 ||
        inet_pton(AF_INET, host, &server.sin_addr) != 1)
        usage();
    server.sin_family = AF_INET;
    server.sin_port = htons((uint16_t)port);
    request_len = (size_t)snprintf(request, sizeof request,
                                   "GET %s HTTP/1.1\r\nHost: %s:%d\r\n\r\n", path, host, port);
    if (!(stats = calloc((size_t)connections, sizeof *stats))) {
        perror("httpload");
        return 1;
    }
    int64_t start = rip_now_ms();
    end_ms = start + (int64_t)(seconds * 1000);
    if (rip_run_workers(workers, worker, NULL) != 0)
        return 1;
    double elapsed = (rip_now_ms() - start) / 1000.0;

    struct stats all = { 0 };
    for (int c = 0; c < connections; c++) {
        all.errors += stats[c].errors;
        for (size_t i = 0; i < stats[c].nlat; i++)
            record(&all, stats[c].latency_us[i]);   /* counts all.requests too */
        free(stats[c].latency_us);
    }
    free(stats);
    qsort(all.latency_us, all.nlat, sizeof *all.latency_us, by_value);
    printf("%ld requests in %.2f s: %.0f requests/s, %ld errors\n",
           all.requests, elapsed, all.requests / elapsed, all.errors);
    if (all.nlat)
        printf("latency p50 %.3f ms, p99 %.3f ms, max %.3f ms\n",
               all.latency_us[all.nlat / 2] / 1000.0,
               all.latency_us[all.nlat * 99 / 100] / 1000.0,
               all.latency_us[all.nlat - 1] / 1000.0);
    free(all.latency_us);
    return 0;
}

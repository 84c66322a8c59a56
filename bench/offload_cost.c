/* offload_cost.c -- what decides which file writes POSIX mode sends to
 * the offload pool (RIP_PX_DISK_MIN, runtime/src/core/pxcall.h): the time
 * of an offload round trip (rip_offload of a no-op) beside a direct write
 * and read of N bytes to and from a cached file (and a read with
 * RWF_NOWAIT, the cache-miss test).  Plain rip.h: the calls here are the
 * library's, on purpose (-Wno-blocking).
 *     ripcc -O2 -Wno-blocking bench/offload_cost.c -o oc && ./oc [file] */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include "rip.h"

static const char *path = "offload_cost.tmp";

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static void *noop(void *arg) {
    return arg;
}

static void measure(void *arg) {
    (void)arg;
    int rounds = 2000;
    double t0 = now_us();
    for (int i = 0; i < rounds; i++)
        rip_offload(noop, NULL);
    printf("offload round trip: %.1f us\n", (now_us() - t0) / rounds);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
    char *buf = malloc(1 << 20);
    if (fd < 0 || !buf) {
        perror(path);
        return;
    }
    memset(buf, 'x', 1 << 20);
    for (size_t n = 4096; n <= (1 << 20); n *= 4) {
        int k = 200;
        double t = now_us();
        for (int i = 0; i < k; i++)
            pwrite(fd, buf, n, 0);
        double w = (now_us() - t) / k;
        t = now_us();
        for (int i = 0; i < k; i++)
            pread(fd, buf, n, 0);
        double r = (now_us() - t) / k;
        struct iovec v = { buf, n };
        t = now_us();
        for (int i = 0; i < k; i++)
            preadv2(fd, &v, 1, 0, RWF_NOWAIT);
        printf("%7zu bytes: write %.1f us, read %.1f us, read RWF_NOWAIT %.1f us\n", n, w, r,
               (now_us() - t) / k);
    }
    close(fd);
    unlink(path);
    free(buf);
}

int main(int argc, char **argv) {
    if (argc > 1)
        path = argv[1];
    return rip_run(measure, NULL);
}

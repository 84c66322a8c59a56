/* blocked.c -- N tasks spawned and blocked on one event, then released:
 * memory per blocked task and the time to spawn and to release them.
 *
 *   blocked [N]   -> "blocked 1000000 tasks: 35 bytes/task, spawn 40.1 ns/task, release 30.2 ms" */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "rip.h"

static long n = 1000000;
static rip_wg *gate, *started, *finished;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static long rss_bytes(void) {
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (f) {
        if (fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        fclose(f);
    }
    return resident * sysconf(_SC_PAGESIZE);
}

static void waiter(void *arg) {
    (void)arg;
    rip_wg_done(started);
    rip_wg_wait(gate);
    rip_wg_done(finished);
}

static void start(void *arg) {
    (void)arg;
    gate = rip_wg_new();
    started = rip_wg_new();
    finished = rip_wg_new();
    rip_wg_add(gate, 1);
    rip_wg_add(started, (int)n);
    rip_wg_add(finished, (int)n);
    long before = rss_bytes();
    double t0 = now_ms();
    for (long i = 0; i < n; i++)
        rip_spawn(waiter, NULL);
    rip_wg_wait(started);
    double t1 = now_ms();
    long after = rss_bytes();
    rip_wg_done(gate);
    rip_wg_wait(finished);
    double t2 = now_ms();
    printf("blocked %ld tasks: %.0f bytes/task, spawn %.1f ns/task, release %.1f ms\n", n,
           (double)(after - before) / n, (t1 - t0) * 1e6 / n, t2 - t1);
    rip_wg_free(gate);
    rip_wg_free(started);
    rip_wg_free(finished);
}

int main(int argc, char **argv) {
    if (argc > 1)
        n = atol(argv[1]);
    return rip_run(start, NULL);
}

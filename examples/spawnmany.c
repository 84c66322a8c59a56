/* spawnmany.c -- N tasks that all block on one wait group: how much memory
 * a blocked task costs and how long a spawn takes.
 *
 *   spawnmany [N]            (default 100000) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>
#include "rip.h"

static long n = 100000;
static rip_wg *started, *gate, *finished;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* Resident bytes of this process, from /proc/self/statm. */
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
    rip_wg_wait(gate);              /* blocked here, all n of them */
    rip_wg_done(finished);
}

static void start(void *arg) {
    (void)arg;
    started = rip_wg_new();
    gate = rip_wg_new();
    finished = rip_wg_new();
    rip_wg_add(started, (int)n);
    rip_wg_add(gate, 1);
    rip_wg_add(finished, (int)n);
    long before = rss_bytes();
    double t0 = now_s();
    for (long i = 0; i < n; i++)
        rip_spawn(waiter, NULL);
    double t1 = now_s();
    rip_wg_wait(started);
    long after = rss_bytes();
    printf("%ld tasks: spawn %.1f ns/task, %.0f bytes per blocked task\n",
           n, (t1 - t0) * 1e9 / n, (double)(after - before) / n);
    rip_wg_done(gate);
    rip_wg_wait(finished);
    rip_wg_free(started);
    rip_wg_free(gate);
    rip_wg_free(finished);
}

int main(int argc, char **argv) {
    if (argc > 1 && (n = atol(argv[1])) <= 0) {
        fprintf(stderr, "usage: spawnmany [N]\n");
        return 2;
    }
    return rip_run(start, NULL) == 0 ? 0 : 1;
}

/* sleep.c -- sleep, usleep and nanosleep, as plain POSIX: return values
 * (sleep's unslept seconds are 0, nanosleep's rem untouched), at least the
 * time asked, EINVAL for a bad timespec.  The output must be the same
 * built plainly and ripped (tests/test_posix.py). */
#include <errno.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static long ms_since(const struct timespec *t0) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

int main(void) {
    struct timespec t0, req, rem = { 7, 7 };
    clock_gettime(CLOCK_MONOTONIC, &t0);
    printf("sleep(0): %u\n", sleep(0));
    clock_gettime(CLOCK_MONOTONIC, &t0);
    printf("sleep(1): %u\n", sleep(1));
    printf("slept at least 1 s: %d\n", ms_since(&t0) >= 1000);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    printf("usleep(30000): %d\n", usleep(30000));
    printf("slept at least 30 ms: %d\n", ms_since(&t0) >= 30);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    req.tv_sec = 0;
    req.tv_nsec = 40 * 1000000;
    printf("nanosleep(40 ms): %d, rem untouched: %d\n", nanosleep(&req, &rem),
           rem.tv_sec == 7 && rem.tv_nsec == 7);
    printf("slept at least 40 ms: %d\n", ms_since(&t0) >= 40);
    req.tv_nsec = 1000000000;
    int r = nanosleep(&req, NULL);
    printf("nanosleep(tv_nsec 1e9): %d %s\n", r, r < 0 && errno == EINVAL ? "EINVAL" : "?");
    req.tv_sec = -1;
    req.tv_nsec = 0;
    r = nanosleep(&req, NULL);
    printf("nanosleep(tv_sec -1): %d %s\n", r, r < 0 && errno == EINVAL ? "EINVAL" : "?");
    req.tv_sec = 0;
    req.tv_nsec = 1;
    printf("nanosleep(1 ns): %d\n", nanosleep(&req, NULL));
    return 0;
}

/* oscheck.c -- a program whose context switches are known, to check the
 * OS's accounting that the benchmark suite reports: N sleeps are N
 * voluntary switches; spinning for S seconds on a CPU shared with another
 * spinner costs involuntary ones.
 *
 *   oscheck sleeps N | oscheck spin SECONDS */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc == 3 && !strcmp(argv[1], "sleeps")) {
        for (long i = atol(argv[2]); i > 0; i--)
            usleep(100);
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "spin")) {
        struct timespec t0, t;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        do
            clock_gettime(CLOCK_MONOTONIC, &t);
        while (t.tv_sec - t0.tv_sec + (t.tv_nsec - t0.tv_nsec) / 1e9 < atof(argv[2]));
        return 0;
    }
    fputs("usage: oscheck sleeps N | oscheck spin SECONDS\n", stderr);
    return 2;
}

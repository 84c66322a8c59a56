/* checks: rip_offload still returns fn's result when no fd is left for
 * the pool's wakeup (it runs fn in place) */
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>
#include "rip.h"

static void *twice(void *arg) {
    static long result;
    result = 2 * (long)arg;
    return &result;
}

static void task(void *arg) {
    int spare[64], n = 0;
    (void)arg;
    struct rlimit lim;
    getrlimit(RLIMIT_NOFILE, &lim);
    lim.rlim_cur = 64;
    setrlimit(RLIMIT_NOFILE, &lim);
    while (n < 64 && (spare[n] = dup(0)) >= 0)
        n++;
    printf("fds used up: %s\n", n < 64 ? "yes" : "no");
    long *r = rip_offload(twice, (void *)21L);
    printf("offload: %ld\n", *r);
    while (n > 0)
        close(spare[--n]);
}

int main(void) {
    return rip_run(task, NULL);
}

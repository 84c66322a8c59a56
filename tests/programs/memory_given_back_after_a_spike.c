/* A spike of 2,000 tasks, each holding 12 KiB from malloc while they all
 * live, one of them keeping a small block for good (it pins glibc's heap
 * above the freed ones).  Once they end and the loop idles, the freed
 * pages go back to the system: RSS returns near where it was (on rip;
 * ucontext gives back the heap too but keeps 1,024 finished stacks warm,
 * some 6 MiB here). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rip.h"

#define TASKS 2000
#define BYTES (12 * 1024)

static void *kept;

static long rss_kib(void) {
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f || fscanf(f, "%ld %ld", &pages, &resident) != 2)
        abort();
    fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static void holder(void *arg) {
    char *buf = malloc(BYTES);
    memset(buf, 1, BYTES);
    if ((long)arg == TASKS - 1)
        kept = malloc(64);
    rip_sleep_ms(50);
    free(buf);
}

static void first(void *arg) {
    (void)arg;
    long before = rss_kib();
    for (long i = 0; i < TASKS; i++)
        rip_spawn(holder, (void *)i);
    rip_sleep_ms(20);
    long peak = rss_kib();
    rip_sleep_ms(1300);             /* the loop gives memory back at most once a second */
    long after = rss_kib();
    printf("spike: %s\n", peak - before > 16 * 1024 ? "grew RSS by more than 16 MiB" : "too small");
    printf("after: %s\n", after - before < 4 * 1024 ? "back within 4 MiB" : "kept");
    free(kept);
}

int main(void) {
    return rip_run(first, NULL) == 0 ? 0 : 1;
}

/* checks: worker threads that end give their task stacks back: twenty
 * rounds of four workers, each spawning 200 tasks, leave the process
 * with about as many memory mappings as it had before (the leak was
 * 24,000; glibc keeps a bounded cache of exited threads' stacks) */
#include <stdio.h>
#include "rip.h"

static void nop(void *arg) {
    (void)arg;
    rip_yield();
}

static void work(void *arg) {
    (void)arg;
    for (int i = 0; i < 200; i++)
        rip_spawn(nop, NULL);
}

static int mappings(void) {
    FILE *f = fopen("/proc/self/maps", "r");
    int n = 0, c;
    while (f && (c = fgetc(f)) != EOF)
        n += c == '\n';
    if (f)
        fclose(f);
    return n;
}

int main(void) {
    rip_run_workers(4, work, NULL);             /* first round: libraries' own mappings */
    int before = mappings();
    for (int round = 0; round < 20; round++)
        rip_run_workers(4, work, NULL);
    int grown = mappings() - before;
    printf("mappings grew by less than 1000: %s\n", grown < 1000 ? "yes" : "no");
    if (grown >= 1000)
        printf("(grew by %d)\n", grown);
    return 0;
}

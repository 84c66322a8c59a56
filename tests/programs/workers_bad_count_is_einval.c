/* checks: rip_run_workers with fewer than one worker runs nothing and returns -1 with errno EINVAL */
#include <errno.h>
#include <stdio.h>
#include "rip.h"

static int ran;

static void work(void *arg) {
    (void)arg;
    ran++;
}

int main(void) {
    int n[] = { 0, -1 };
    for (int i = 0; i < 2; i++) {
        errno = 0;
        int r = rip_run_workers(n[i], work, NULL);
        printf("%d workers: %d %s\n", n[i], r, errno == EINVAL ? "EINVAL" : "no EINVAL");
    }
    printf("fn ran %d times\n", ran);
    return 0;
}

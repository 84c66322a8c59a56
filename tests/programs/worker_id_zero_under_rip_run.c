/* checks: under rip_run every task is on worker 0, spawned ones too, and so is code outside tasks */
#include <stdio.h>
#include "rip.h"

static void child(void *arg) {
    (void)arg;
    printf("child: worker %d\n", rip_worker_id());
}

static void start(void *arg) {
    (void)arg;
    printf("first task: worker %d\n", rip_worker_id());
    rip_spawn(child, NULL);
}

int main(void) {
    printf("main: worker %d\n", rip_worker_id());
    return rip_run(start, NULL);
}

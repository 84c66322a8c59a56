#include <stdio.h>
#include "counter.h"

static void task(void *arg) {
    (void)arg;
    printf("sum %d, root %.1f\n", count_to(10), root(81.0));
}

int main(void) { return rip_run(task, 0); }

/* A local whose address escapes (here into a global another task writes
 * through) keeps that address across suspensions, though the task never
 * names it again: it lives in the frame.  While this task is suspended the
 * other runs on the same stack, and would overwrite a C local there. */
#include <stdio.h>
#include "rip.h"

static int *shared;

static int scribble(int seed) {
    volatile int junk[64];
    int sum = 0;
    for (int i = 0; i < 64; i++)
        junk[i] = seed + i;
    for (int i = 0; i < 64; i++)
        sum += junk[i];
    return sum;
}

static void other(void *arg) {
    rip_wg *done = arg;
    int sum = scribble(7000);
    *shared += 10;
    rip_yield();
    scribble(9000);
    rip_wg_done(done);
    (void)sum;
}

static void task(void *arg) {
    (void)arg;
    int x = 1;
    rip_wg *done = rip_wg_new();
    shared = &x;
    rip_wg_add(done, 1);
    rip_spawn(other, done);
    rip_wg_wait(done);
    rip_wg_free(done);
    printf("through the pointer %d\n", *shared + scribble(0) * 0);
}

int main(void) { return rip_run(task, NULL); }

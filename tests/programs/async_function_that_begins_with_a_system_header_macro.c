/* exit: 3 */
/* An async function whose definition begins with a system header's macro
 * (`noreturn`, <stdnoreturn.h>'s): the user's function all the same,
 * ripped (it was taken for the C library's and failed to link). */
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include "rip.h"

static rip_wg *other_done;

/* (the wait: async on every backend, and the order the same on threads) */
noreturn static void finish(int code) {
    rip_wg_wait(other_done);
    printf("finish %d\n", code);
    fflush(stdout);
    exit(code);
}

static void other(void *arg) {
    (void)arg;
    printf("other runs while finish waits\n");
    fflush(stdout);
    rip_wg_done(other_done);
}

static void task(void *arg) {
    (void)arg;
    other_done = rip_wg_new();
    rip_wg_add(other_done, 1);
    rip_spawn(other, NULL);
    finish(3);
}

int main(void) { return rip_run(task, NULL); }

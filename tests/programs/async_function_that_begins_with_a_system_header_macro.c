/* exit: 3 */
/* An async function whose definition begins with a system header's macro
 * (`noreturn`, <stdnoreturn.h>'s): the user's function all the same,
 * ripped (it was taken for the C library's and failed to link). */
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include "rip.h"

noreturn static void finish(int code) {
    rip_sleep_ms(1);
    printf("finish %d\n", code);
    fflush(stdout);
    exit(code);
}

static void other(void *arg) {
    (void)arg;
    printf("other runs while finish sleeps\n");
}

static void task(void *arg) {
    (void)arg;
    rip_spawn(other, NULL);
    finish(3);
}

int main(void) { return rip_run(task, NULL); }

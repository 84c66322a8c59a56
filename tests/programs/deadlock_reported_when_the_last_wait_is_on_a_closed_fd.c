/* exit: 3 */
/* backends: rip ucontext (on threads a waiter keeps read(2)'s meaning: close(2) does not wake it) */
/* Every task is blocked forever, one of them on an fd closed with
 * close(2) (no event will ever come for it): the fd wait fails with
 * EBADF, and when the task then waits where nothing can wake it, rip_run
 * reports the deadlock ("rip: deadlock: ..." on stderr) and returns -1,
 * instead of waiting on the closed fd forever. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include "rip.h"

static int p[2];
static rip_wg *never;               /* counted up, never done */

static void waiter(void *arg) {
    char c;
    (void)arg;
    ssize_t n = rip_read(p[0], &c, 1);
    printf("waiter: %zd %s\n", n, n < 0 && errno == EBADF ? "EBADF" : "?");
    rip_wg_wait(never);
}

static void task(void *arg) {
    (void)arg;
    rip_spawn(waiter, NULL);
    rip_yield();
    close(p[0]);                    /* behind the runtime's back */
    rip_wg_wait(never);
}

int main(void) {
    if (pipe(p))
        return 1;
    never = rip_wg_new();
    rip_wg_add(never, 1);
    int r = rip_run(task, NULL);
    printf("rip_run returned %d\n", r);
    return r == -1 ? 3 : 0;
}

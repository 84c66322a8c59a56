/* Worker 0 waits to read a pipe; worker 1 closes the pipe with rip_close.
 * Worker 1's runtime has never seen the fd, so only worker 0's own check
 * can tell its waiter: it fails with EBADF (within a second or so on rip
 * and ucontext, at once on threads), and rip_run_workers returns. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include "rip.h"

static int p[2];

static void work(void *arg) {
    char c;
    (void)arg;
    if (rip_worker_id() == 1) {
        rip_sleep_ms(50);           /* worker 0 waits by now */
        rip_close(p[0]);
        return;
    }
    int64_t began = rip_now_ms();
    ssize_t n = rip_read(p[0], &c, 1);
    printf("worker 0's reader: %zd %s, in time: %s\n", n, n < 0 && errno == EBADF ? "EBADF" : "?",
           rip_now_ms() - began < 3000 ? "yes" : "no");
}

int main(void) {
    if (pipe(p))
        return 1;
    int r = rip_run_workers(2, work, NULL);
    printf("rip_run_workers returned %d\n", r);
    close(p[1]);
    return 0;
}

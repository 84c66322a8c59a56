/* backends: rip ucontext (on threads a waiter keeps read(2)'s meaning: close(2) does not wake it) */
/* A task waits on an fd; another closes it with close(2), or dup2s a new
 * file over its number, and nothing of the runtime's ever sees that
 * number again.  epoll drops a closed file from its set without an event,
 * so only the runtime's own check can end the wait: the waiter fails with
 * EBADF within a bounded time (a second or so), reader or writer, instead
 * of waiting forever (and rip_run with it). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "rip.h"

#define BOUND_MS 3000               /* the runtime promises about 1 s */

struct wait { int fd; int write; const char *what; };
static rip_wg *waiting;             /* the waiters not yet given up */

static void waiter(void *arg) {
    struct wait *w = arg;
    char buf[4096];
    memset(buf, 'x', sizeof buf);
    int64_t began = rip_now_ms();
    ssize_t n = w->write ? rip_write(w->fd, buf, sizeof buf) : rip_read(w->fd, buf, 1);
    int64_t took = rip_now_ms() - began;
    printf("%s: %zd %s, in time: %s\n", w->what, n, n < 0 && errno == EBADF ? "EBADF" : "?",
           took < BOUND_MS ? "yes" : "no");
    rip_wg_done(waiting);
}

static void task(void *arg) {
    int p[2], q[2], s[2];
    (void)arg;
    if (pipe(p) || pipe(q) || socketpair(AF_UNIX, SOCK_STREAM, 0, s))
        return;
    /* Fill s[0] until a write would wait. */
    char fill[4096] = { 0 };
    while (send(s[0], fill, sizeof fill, MSG_DONTWAIT) > 0)
        ;
    struct wait closed = { p[0], 0, "reader of a number closed" };
    struct wait replaced = { q[0], 0, "reader of a number dup2'd over" };
    struct wait full = { s[0], 1, "writer of a socket closed" };
    waiting = rip_wg_new();
    rip_wg_add(waiting, 3);
    rip_spawn(waiter, &closed);
    rip_spawn(waiter, &replaced);
    rip_spawn(waiter, &full);
    rip_yield();                    /* all three wait now */
    close(p[0]);                    /* behind the runtime's back */
    dup2(p[1], q[0]);               /* q[0] now names the first pipe's write end */
    close(s[0]);
    rip_wg_wait(waiting);           /* (before: forever) */
    rip_wg_free(waiting);
    close(p[1]);
    close(q[0]);
    close(q[1]);
    close(s[1]);
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    int r = rip_run(task, NULL);
    printf("rip_run returned %d\n", r);
    return 0;
}

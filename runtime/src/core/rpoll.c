/* rpoll.c -- rip_poll for the rip and ucontext backends: poll(2)'s
 * meaning, the task waiting instead of the thread.  Each step asks poll(2)
 * itself with no timeout (so revents, POLLNVAL, POLLHUP and the count are
 * the system's); when nothing is ready it queues one waiter per fd and
 * direction, all of one group (the first wake readies the task, poll.c),
 * and arms one timer at the earlier of poll's own timeout and the task's
 * deadline, whose cancel hook takes every waiter off.  Woken, it takes the
 * rest off and asks poll(2) again.  An fd rip_close'd while polled wakes
 * its waiters (EBADF), and poll(2) then says POLLNVAL for it.  POSIX
 * mode's poll (op->posix) may be ended by a handled signal (psignal.c):
 * EINTR, as poll(2). */
#include <errno.h>
#include <poll.h>
#include "core.h"
#include "../shared/sys.h"

static int finish(rip_pollop *op, int result, int err) {
    op->result = result;
    op->err = err;
    return 1;
}

static void cancel_waits(rip_pollop *op) {
    for (size_t i = 0; i < op->nwaits; i++)
        rip__fd_cancel(&op->waits[i].w, NULL, op->waits[i].key); /* 0 for the woken: harmless */
    free(op->waits);
    op->waits = NULL;
    op->nwaits = 0;
}

/* The timer came first: every fd wait off, the task to be woken (1). */
static int timer_cancel(rip_waiter *w, void *on, int key) {
    rip_pollop *op = on;
    (void)w, (void)key;
    if (op->group.woken)
        return 0;                   /* an fd woke it already */
    op->group.woken = 1;
    cancel_waits(op);
    return 1;
}

static int queue(rip_pollop *op, int fd, int dir) {
    rip_poll_wait *pw = &op->waits[op->nwaits];
    if (rip__fd_wait(fd, dir, &pw->w, &op->group) == -1)
        return errno == EPERM ? 0 : -1; /* epoll cannot watch it: it never has an event */
    pw->key = fd << 1 | dir;
    op->nwaits++;
    return 0;
}

/* Queue the task on every fd, and the timer at `at` (-1: none): 0, or -1
 * and errno. */
static int wait_all(rip_pollop *op, int64_t at) {
    op->waits = malloc((op->n ? op->n : 1) * 2 * sizeof *op->waits);
    if (!op->waits)
        return -1;
    op->nwaits = 0;
    op->group.woken = 0;
    for (nfds_t i = 0; i < op->n; i++) {
        int fd = op->fds[i].fd;
        short ev = op->fds[i].events;
        if (fd < 0)
            continue;               /* poll(2) ignores it */
        int r = 0;
        if ((ev & ~POLLOUT) || !(ev & POLLOUT))
            r = queue(op, fd, RIP_FD_READ); /* hangups and errors come to readers too */
        if (r == 0 && (ev & POLLOUT))
            r = queue(op, fd, RIP_FD_WRITE);
        if (r == -1) {
            int err = errno;
            cancel_waits(op);
            errno = err;
            return -1;
        }
    }
    op->timeout.status = 0;
    op->timer.w = NULL;
    if (at >= 0) {
        op->timer.w = &op->timeout;
        op->timer.cancel = timer_cancel;
        op->timer.on = op;
        op->timer.key = 0;
        rip__timer_start(&op->timer, at);
    }
    if (op->posix)                  /* a handled signal ends it: timer_cancel, then EINTR */
        rip__intr_begin(&op->intr, &op->timeout, timer_cancel, op, 0, 0, NULL, op->sigmask);
    op->waiting = 1;
    return 0;
}

int rip__poll_step(rip_pollop *op) {
    int64_t now;
    if (!op->started) {
        op->started = 1;
        op->until = op->timeout_ms >= 0 ? rip_now_ms() + op->timeout_ms : -1;
    }
    if (op->waiting) {
        op->waiting = 0;
        if (op->posix)
            rip__intr_end(&op->intr);
        cancel_waits(op);
        if (op->timer.w)            /* woken before the timer */
            rip__timer_cancel(&op->timer);
        if (op->timeout.status == EINTR) {  /* a signal's handler ran: EINTR, unless fds are ready (as Linux) */
            int n = rip__sys_poll_now(op->fds, op->n);
            return n > 0 ? finish(op, n, 0) : finish(op, -1, EINTR);
        }
        if (op->timeout.status == ETIMEDOUT) {
            int n = rip__sys_poll_now(op->fds, op->n); /* ready at the last moment still counts */
            if (n != 0)
                return finish(op, n, n < 0 ? errno : 0);
            return op->by_deadline ? finish(op, -1, ETIMEDOUT) : finish(op, 0, 0);
        }
    }
    for (;;) {
        int n = rip__sys_poll_now(op->fds, op->n);
        if (n == -1 && errno == EINTR)
            continue;
        if (n != 0 || op->timeout_ms == 0)
            return finish(op, n, n < 0 ? errno : 0);
        now = rip_now_ms();
        int64_t deadline = rip__deadline(rip__current());
        if (op->until >= 0 && now >= op->until)
            return finish(op, 0, 0);
        if (deadline >= 0 && now >= deadline)
            return finish(op, -1, ETIMEDOUT);
        op->by_deadline = deadline >= 0 && (op->until < 0 || deadline < op->until);
        if (wait_all(op, op->by_deadline ? deadline : op->until) == -1)
            return finish(op, -1, errno);
        return 0;
    }
}

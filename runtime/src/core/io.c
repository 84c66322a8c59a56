/* io.c -- fd calls of the rip and ucontext backends, in the libtask shape:
 * try the system call; on EAGAIN queue the task on the fd and wait for the
 * event loop (poll.c) to wake it; retry.  One attempt is a step, so the rip
 * backend drives it from a frame and ucontext from a loop.  A try never
 * blocks the scheduler thread, whatever the fd's flags (shared/nonblock.h). */
#include <errno.h>
#include <unistd.h>
#include "core.h"
#include "../shared/sys.h"
#include "../shared/nonblock.h"

static ssize_t attempt(rip_io *op) {
    switch (op->kind) {
    case RIP_IO_READ:
        return rip__try_read(op->fd, op->buf, op->len);
    case RIP_IO_WRITE:
        return rip__try_write(op->fd, (const char *)op->buf + op->done, op->len - op->done);
    case RIP_IO_ACCEPT:
        return rip__try_accept(op->fd, op->addr, op->addrlen);
    case RIP_IO_CONNECT:
        if (op->done) {             /* in progress: the outcome is in SO_ERROR */
            int err = 0;
            socklen_t len = sizeof err;
            if (getsockopt(op->fd, SOL_SOCKET, SO_ERROR, &err, &len) == -1)
                return -1;
            if (err == EINPROGRESS || err == EALREADY)
                err = EAGAIN;
            errno = err;
            return err ? -1 : 0;
        }
        op->done = 1;
        if (rip__try_connect(op->fd, op->caddr, op->caddrlen) == 0)
            return 0;
        if (errno == EINPROGRESS)
            errno = EAGAIN;         /* wait until writable, then read SO_ERROR */
        else if (errno == EAGAIN)
            errno = ECONNREFUSED;   /* a Unix socket's full backlog: not in progress */
        return -1;
    }
    errno = EINVAL;
    return -1;
}

/* Remember that fd can't do it now.  Only an fd in the epoll set: the
 * event that clears the mark must be able to come. */
static void mark_not_ready(int fd, unsigned flag) {
    if (rip__fd_flags(fd) & RIP_FD_REGISTERED)
        rip__fd_set_flags(fd, flag);
}

static void finish(rip_io *op, ssize_t result, int err) {
    op->result = result;
    op->err = err;
}

/* The fd won't do it now: wait for an event, unless the task's deadline
 * has passed.  1 when the call is finished (timed out), 0 when w waits,
 * -1 to try again now: epoll cannot watch the file (a regular file or a
 * directory, always ready), so a flag that said wait was about the file
 * that had the number before. */
static int wait_ready(rip_io *op, int dir, rip_waiter *w) {
    if (rip__deadline_passed()) {
        finish(op, -1, ETIMEDOUT);
        return 1;
    }
    if (rip__fd_wait(op->fd, dir, w, NULL) == -1) {
        if (errno == EPERM) {
            rip__fd_renew(op->fd);
            return -1;
        }
        finish(op, -1, errno);
        return 1;
    }
    rip__wait_limit(w, rip__fd_cancel, NULL, op->fd << 1 | dir);
    op->waited = 1;
    return 0;
}

int rip__io_step(rip_io *op, rip_waiter *w) {
    int dir = op->kind == RIP_IO_READ || op->kind == RIP_IO_ACCEPT ? RIP_FD_READ : RIP_FD_WRITE;
    unsigned not_ready = dir == RIP_FD_READ ? RIP_FD_RDEMPTY : RIP_FD_WRFULL;
    if (op->waited) {
        rip__wait_ended(w);
        op->waited = 0;
        if (w->status) {            /* closed while we waited, or timed out */
            finish(op, -1, w->status);
            return 1;
        }
    }
    for (;;) {
        int waits;
        if ((rip__fd_flags(op->fd) & not_ready) && !rip__deadline_passed()) {
            if ((waits = wait_ready(op, dir, w)) >= 0)  /* no event since EAGAIN: no use trying */
                return waits;
            continue;
        }
        ssize_t n = attempt(op);
        if (n == -1 && errno == EINTR)
            continue;
        if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            mark_not_ready(op->fd, not_ready);
            if ((waits = wait_ready(op, dir, w)) >= 0)
                return waits;
            continue;
        }
        if (n == -1) {
            finish(op, -1, errno);
            return 1;
        }
        if (op->kind == RIP_IO_ACCEPT)
            rip__fd_renew((int)n);  /* forget whatever had this number before */
        if (op->kind == RIP_IO_WRITE) {
            op->done += (size_t)n;
            if (op->done < op->len)
                continue;           /* a short write: the next try says EAGAIN if it is full */
            n = (ssize_t)op->len;
        }
        finish(op, n, 0);
        return 1;
    }
}

int rip_close(int fd) {
    rip__fd_forget(fd);
    return rip__sys_close(fd);
}

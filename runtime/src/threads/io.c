/* io.c -- file descriptor calls and their deadlines for the `threads`
 * backend.
 *
 * The libtask shape, as on the other backends: an fd is made non-blocking
 * on first use; try the system call; on EAGAIN wait in poll(); retry.
 * EINTR is retried.  Several tasks may wait on one fd: all wake, one wins,
 * the others find EAGAIN and wait again.  poll() waits in short slices, so
 * that a waiter notices rip_close of its fd by the fd's close generation
 * (it fails with EBADF, as on the other backends: close(2) does not wake a
 * thread in poll(2)), and never past the task's deadline (then it fails
 * with ETIMEDOUT).  While waiting the task counts as busy, so rip_run does
 * not call a wait for I/O a deadlock.
 *
 * Known shortcut, as in the core: the non-blocking and not-a-socket flags
 * are cached per fd number and dropped by rip_close and rip_accept; an fd
 * closed with close(2) and reused keeps the old flags. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <unistd.h>

#include "threads.h"

#define FD_SLOTS 65536              /* fds with a close generation and flags (higher: none) */
#define POLL_SLICE_MS 100           /* how soon a waiter notices a close */
#define FD_NONBLOCK 1u              /* O_NONBLOCK set (by us or already) */
#define FD_NOTSOCK 2u               /* send() said ENOTSOCK: use write() */

static _Atomic unsigned close_gen[FD_SLOTS];     /* bumped by rip_close(fd) */
static _Atomic unsigned char fd_flags[FD_SLOTS]; /* FD_* of each fd */
static __thread int64_t deadline = -1; /* the task's rip_set_deadline, -1 for none */

int64_t rip_set_deadline(int64_t at_ms) {
    int64_t previous = deadline;
    deadline = at_ms < 0 ? -1 : at_ms;
    return previous;
}

/* ---- per-fd state ---------------------------------------------------- */

static int tracked(int fd) {
    return fd >= 0 && fd < FD_SLOTS;
}

static unsigned generation(int fd) {
    return tracked(fd) ? atomic_load(&close_gen[fd]) : 0;
}

static unsigned flags(int fd) {
    return tracked(fd) ? atomic_load(&fd_flags[fd]) : 0;
}

static void set_flag(int fd, unsigned flag) {
    if (tracked(fd))
        atomic_fetch_or(&fd_flags[fd], (unsigned char)flag);
}

/* fd is a new open file (or no longer one): forget what was cached. */
static void forget(int fd) {
    if (tracked(fd))
        atomic_store(&fd_flags[fd], 0);
}

static int make_nonblocking(int fd) {
    if (flags(fd) & FD_NONBLOCK)
        return 0;
    int fl = fcntl(fd, F_GETFL);
    if (fl == -1)
        return -1;
    if (!(fl & O_NONBLOCK) && fcntl(fd, F_SETFL, fl | O_NONBLOCK) == -1)
        return -1;
    set_flag(fd, FD_NONBLOCK);
    return 0;
}

/* ---- waiting --------------------------------------------------------- */

/* Wait until fd is ready for `events`: 0, or -1 with EBADF once rip_close'd
 * (gen is the close generation when the call began), ETIMEDOUT at the
 * deadline, or poll's errno.  A deadline already past never waits. */
static int wait_ready(int fd, short events, unsigned gen) {
    struct pollfd pfd = { .fd = fd, .events = events, .revents = 0 };
    int rc = -1;
    rip_thr_busy_begin();
    for (;;) {
        int timeout = POLL_SLICE_MS;
        if (deadline >= 0) {
            int64_t left = deadline - rip_now_ms();
            if (left <= 0) {
                errno = ETIMEDOUT;
                break;
            }
            if (left < timeout)
                timeout = (int)left;
        }
        int n = poll(&pfd, 1, timeout);
        if (generation(fd) != gen || (n > 0 && (pfd.revents & POLLNVAL))) {
            errno = EBADF;
            break;
        }
        if (n > 0) {
            rc = 0;
            break;
        }
        if (n < 0 && errno != EINTR)
            break;
    }
    int saved = errno;
    rip_thr_busy_end();
    errno = saved;
    return rc;
}

/* A call failed with errno: 1 to try it again (interrupted, or fd became
 * ready), 0 to fail with errno. */
static int again(int fd, short events, unsigned gen) {
    if (errno == EINTR)
        return 1;
    if (errno != EAGAIN && errno != EWOULDBLOCK)
        return 0;
    return wait_ready(fd, events, gen) == 0;
}

/* ---- the calls ------------------------------------------------------- */

ssize_t rip_read(int fd, void *buf, size_t len) {
    unsigned gen = generation(fd);
    ssize_t n = -1;
    if (make_nonblocking(fd) == 0)
        while ((n = read(fd, buf, len)) < 0 && again(fd, POLLIN, gen))
            ;
    return n;
}

/* Sockets: MSG_NOSIGNAL, so a vanished peer is EPIPE, not SIGPIPE. */
static ssize_t write_some(int fd, const void *buf, size_t len) {
    if (!(flags(fd) & FD_NOTSOCK)) {
        ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);
        if (n >= 0 || errno != ENOTSOCK)
            return n;
        set_flag(fd, FD_NOTSOCK);
    }
    return write(fd, buf, len);
}

ssize_t rip_write(int fd, const void *buf, size_t len) {
    const unsigned char *p = buf;
    size_t done = 0;
    unsigned gen = generation(fd);
    if (make_nonblocking(fd) == -1)
        return -1;
    while (done < len) {
        ssize_t n = write_some(fd, p + done, len - done);
        if (n >= 0)
            done += (size_t)n;
        else if (!again(fd, POLLOUT, gen))
            return -1;
    }
    return (ssize_t)len;
}

int rip_accept(int fd, struct sockaddr *addr, socklen_t *len) {
    unsigned gen = generation(fd);
    int s = -1;
    if (make_nonblocking(fd) == 0)
        while ((s = accept(fd, addr, len)) < 0 && again(fd, POLLIN, gen))
            ;
    if (s >= 0)
        forget(s);
    return s;
}

/* A connect that is in progress (or was interrupted by a signal: it goes
 * on in the background) is over when the socket is writable; its outcome
 * is in SO_ERROR. */
int rip_connect(int fd, const struct sockaddr *addr, socklen_t len) {
    unsigned gen = generation(fd);
    if (make_nonblocking(fd) == -1)
        return -1;
    if (connect(fd, addr, len) == 0)
        return 0;
    if (errno != EINPROGRESS && errno != EINTR)
        return -1;
    if (wait_ready(fd, POLLOUT, gen) == -1)
        return -1;
    int err = 0;
    socklen_t errlen = sizeof err;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &errlen) == -1)
        return -1;
    if (err != 0) {
        errno = err;
        return -1;
    }
    return 0;
}

/* Flags are dropped after close(2): one cached for the number meanwhile
 * would be stale (dropping one too many costs an fcntl). */
int rip_close(int fd) {
    if (tracked(fd))
        atomic_fetch_add(&close_gen[fd], 1);
    int rc = close(fd);
    int saved = errno;
    forget(fd);
    errno = saved;
    return rc;
}

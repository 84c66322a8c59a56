/* io.c -- file descriptor calls for the `threads` backend.
 *
 * Blocking system calls, retried on EINTR.  While inside one the task
 * counts as busy, so rip_run does not call a wait for I/O a deadlock.
 * Before blocking, a call waits in poll() in short slices and watches the
 * fd's close generation: rip_close on an fd another task waits on makes
 * that task fail with EBADF, as on the other backends (a thread blocked in
 * read(2) is not woken by close(2)). */
#include <errno.h>
#include <poll.h>
#include <stdatomic.h>
#include <unistd.h>

#include "threads.h"

#define CLOSE_SLOTS 65536           /* fds watched for rip_close (higher: not watched) */
#define POLL_SLICE_MS 100           /* how soon a waiter notices a close */

static _Atomic unsigned close_gen[CLOSE_SLOTS]; /* bumped by rip_close(fd) */

static unsigned generation(int fd) {
    return fd >= 0 && fd < CLOSE_SLOTS ? atomic_load(&close_gen[fd]) : 0;
}

/* Wait until fd is ready for `events`: 0, or -1 with EBADF if rip_close'd. */
static int wait_ready(int fd, short events, unsigned gen) {
    struct pollfd pfd = { .fd = fd, .events = events, .revents = 0 };
    for (;;) {
        int n = poll(&pfd, 1, POLL_SLICE_MS);
        if (generation(fd) != gen || (n > 0 && (pfd.revents & POLLNVAL))) {
            errno = EBADF;
            return -1;
        }
        if (n > 0)
            return 0;
        if (n < 0 && errno != EINTR)
            return -1;
    }
}

ssize_t rip_read(int fd, void *buf, size_t len) {
    ssize_t n = -1;
    unsigned gen = generation(fd);
    rip_thr_busy_begin();
    if (wait_ready(fd, POLLIN, gen) == 0) {
        do
            n = read(fd, buf, len);
        while (n < 0 && errno == EINTR);
    }
    int saved = errno;
    rip_thr_busy_end();
    errno = saved;
    return n;
}

ssize_t rip_write(int fd, const void *buf, size_t len) {
    const unsigned char *p = buf;
    size_t done = 0;
    ssize_t rc = (ssize_t)len;
    rip_thr_busy_begin();
    while (done < len) {
        /* Sockets: MSG_NOSIGNAL, so a vanished peer is EPIPE, not SIGPIPE
         * (as on the other backends). */
        ssize_t n = send(fd, p + done, len - done, MSG_NOSIGNAL);
        if (n < 0 && errno == ENOTSOCK)
            n = write(fd, p + done, len - done);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            rc = -1;
            break;
        }
        done += (size_t)n;
    }
    int saved = errno;
    rip_thr_busy_end();
    errno = saved;
    return rc;
}

int rip_accept(int fd, struct sockaddr *addr, socklen_t *len) {
    int s = -1;
    unsigned gen = generation(fd);
    rip_thr_busy_begin();
    if (wait_ready(fd, POLLIN, gen) == 0) {
        do
            s = accept(fd, addr, len);
        while (s < 0 && errno == EINTR);
    }
    int saved = errno;
    rip_thr_busy_end();
    errno = saved;
    return s;
}

/* A connect interrupted by a signal goes on in the background; calling it
 * again would fail with EALREADY, so wait for the socket to be writable and
 * read the outcome from SO_ERROR instead. */
int rip_connect(int fd, const struct sockaddr *addr, socklen_t len) {
    rip_thr_busy_begin();
    int rc = connect(fd, addr, len);
    if (rc < 0 && errno == EINTR) {
        struct pollfd pfd = { .fd = fd, .events = POLLOUT, .revents = 0 };
        int n;
        do
            n = poll(&pfd, 1, -1);
        while (n < 0 && errno == EINTR);
        if (n > 0) {
            int err = 0;
            socklen_t errlen = sizeof err;
            rc = getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &errlen);
            if (rc == 0 && err != 0) {
                errno = err;
                rc = -1;
            }
        } else {
            rc = -1;
        }
    }
    int saved = errno;
    rip_thr_busy_end();
    errno = saved;
    return rc;
}

int rip_close(int fd) {
    if (fd >= 0 && fd < CLOSE_SLOTS)
        atomic_fetch_add(&close_gen[fd], 1);
    return close(fd);
}

/* nonblock.h -- one try at each fd call, shared by every backend.
 *
 * A try never blocks the calling thread, whatever the fd's flags say now:
 * nothing about an fd number is cached between calls, because a number
 * closed with close(2) (or dup2'd over, or closed inside a library) and
 * reused is a new file that no cache knows.  Sockets, the hot path, are
 * asked with MSG_DONTWAIT (and MSG_NOSIGNAL: a vanished peer is EPIPE,
 * never SIGPIPE); anything else is put in O_NONBLOCK first, an fcntl per
 * try. */
#ifndef RIP_NONBLOCK_H
#define RIP_NONBLOCK_H

#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>
#include "sys.h"

/* Put fd in O_NONBLOCK mode (a no-op if it is already): 0, or -1 and errno. */
static inline int rip__set_nonblocking(int fd) {
    int fl = fcntl(fd, F_GETFL);
    if (fl == -1)
        return -1;
    return (fl & O_NONBLOCK) || fcntl(fd, F_SETFL, fl | O_NONBLOCK) != -1 ? 0 : -1;
}

/* read(2) that fails with EAGAIN rather than wait. */
static inline ssize_t rip__try_read(int fd, void *buf, size_t len) {
    ssize_t n = rip__sys_recv(fd, buf, len, MSG_DONTWAIT);
    if (n != -1 || errno != ENOTSOCK)
        return n;
    return rip__set_nonblocking(fd) == -1 ? -1 : rip__sys_read(fd, buf, len);
}

/* write(2) that fails with EAGAIN rather than wait. */
static inline ssize_t rip__try_write(int fd, const void *buf, size_t len) {
    ssize_t n = rip__sys_send(fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
    if (n != -1 || errno != ENOTSOCK)
        return n;
    return rip__set_nonblocking(fd) == -1 ? -1 : rip__sys_write(fd, buf, len);
}

/* accept(2) that fails with EAGAIN rather than wait. */
static inline int rip__try_accept(int fd, struct sockaddr *addr, socklen_t *len) {
    return rip__set_nonblocking(fd) == -1 ? -1 : rip__sys_accept(fd, addr, len);
}

/* connect(2) that is EINPROGRESS rather than wait. */
static inline int rip__try_connect(int fd, const struct sockaddr *addr, socklen_t len) {
    return rip__set_nonblocking(fd) == -1 ? -1 : rip__sys_connect(fd, addr, len);
}

#endif

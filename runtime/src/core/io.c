/* io.c -- fd calls of the rip and ucontext backends.  For now they are the
 * blocking system calls (retrying EINTR); readiness waiting on epoll comes
 * with the runtime issue, behind these same functions. */
#include <errno.h>
#include <unistd.h>
#include "core.h"

ssize_t rip__io_read(int fd, void *buf, size_t len) {
    ssize_t n;
    while ((n = read(fd, buf, len)) == -1 && errno == EINTR)
        ;
    return n;
}

ssize_t rip__io_write(int fd, const void *buf, size_t len) {
    size_t done = 0;
    while (done < len) {
        ssize_t n = write(fd, (const char *)buf + done, len - done);
        if (n == -1 && errno == EINTR)
            continue;
        if (n == -1)
            return -1;
        done += (size_t)n;
    }
    return (ssize_t)len;
}

int rip__io_accept(int fd, struct sockaddr *addr, socklen_t *len) {
    int s;
    while ((s = accept(fd, addr, len)) == -1 && errno == EINTR)
        ;
    return s;
}

int rip__io_connect(int fd, const struct sockaddr *addr, socklen_t len) {
    int r = connect(fd, addr, len);
    return r == -1 && errno == EINTR ? -1 : r;
}

int rip_close(int fd) {
    return close(fd);
}

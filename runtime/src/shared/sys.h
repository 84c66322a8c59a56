/* sys.h -- the system calls the runtime itself makes, by number.
 *
 * A program built with `ripcc --posix --backend=ucontext` is linked with
 * -Wl,--wrap=read (and the other calls of rip_posix.h), which sends every
 * reference to read in every object, the runtime's own included, to
 * __wrap_read: a task's call would come back to the runtime and loop.  So
 * the runtime never names those functions: it calls these. */
#ifndef RIP_SYS_H
#define RIP_SYS_H

#include <poll.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

long syscall(long number, ...);     /* unistd.h declares it only under _GNU_SOURCE or _DEFAULT_SOURCE */

static inline ssize_t rip__sys_read(int fd, void *buf, size_t len) {
    return syscall(SYS_read, fd, buf, len);
}

static inline ssize_t rip__sys_write(int fd, const void *buf, size_t len) {
    return syscall(SYS_write, fd, buf, len);
}

static inline ssize_t rip__sys_recvfrom(int fd, void *buf, size_t len, int flags,
                                        struct sockaddr *addr, socklen_t *addrlen) {
    return syscall(SYS_recvfrom, fd, buf, len, flags, addr, addrlen);
}

static inline ssize_t rip__sys_sendto(int fd, const void *buf, size_t len, int flags,
                                      const struct sockaddr *addr, socklen_t addrlen) {
    return syscall(SYS_sendto, fd, buf, len, flags, addr, addrlen);
}

static inline int rip__sys_accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags) {
    return (int)syscall(SYS_accept4, fd, addr, len, flags);
}

static inline int rip__sys_connect(int fd, const struct sockaddr *addr, socklen_t len) {
    return (int)syscall(SYS_connect, fd, addr, len);
}

static inline ssize_t rip__sys_readv(int fd, const struct iovec *iov, int n) {
    return syscall(SYS_readv, fd, iov, n);
}

static inline ssize_t rip__sys_writev(int fd, const struct iovec *iov, int n) {
    return syscall(SYS_writev, fd, iov, n);
}

static inline ssize_t rip__sys_recvmsg(int fd, struct msghdr *msg, int flags) {
    return syscall(SYS_recvmsg, fd, msg, flags);
}

static inline ssize_t rip__sys_sendmsg(int fd, const struct msghdr *msg, int flags) {
    return syscall(SYS_sendmsg, fd, msg, flags);
}

/* epoll_wait(2), by epoll_pwait (which every architecture has). */
static inline int rip__sys_epoll_wait(int epfd, struct epoll_event *events, int max, int timeout_ms) {
    return (int)syscall(SYS_epoll_pwait, epfd, events, max, timeout_ms, NULL, (size_t)8);
}

/* poll(2) with timeout 0, by ppoll (which every architecture has). */
static inline int rip__sys_poll_now(struct pollfd *fds, nfds_t n) {
    struct timespec zero = { 0, 0 };
    return (int)syscall(SYS_ppoll, fds, n, &zero, NULL, (size_t)8);
}

/* poll(2) itself (timeout in ms, negative: none). */
static inline int rip__sys_poll(struct pollfd *fds, nfds_t n, int timeout_ms) {
    struct timespec ts = { timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000 };
    return (int)syscall(SYS_ppoll, fds, n, timeout_ms < 0 ? NULL : &ts, NULL, (size_t)8);
}

static inline int rip__sys_nanosleep(const struct timespec *req, struct timespec *rem) {
    return (int)syscall(SYS_nanosleep, req, rem);
}

#endif

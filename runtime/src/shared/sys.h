/* sys.h -- the C library calls the runtime itself makes, past the
 * wrappers of POSIX mode.
 *
 * A program built with `ripcc --posix --backend=ucontext` is linked with
 * -Wl,--wrap=read (and the other calls of rip_posix.h), which sends every
 * reference to read in every object, the runtime's own included, to
 * __wrap_read: a task's call would come back to the runtime and loop.  So
 * the runtime calls __real_read, which that link resolves to the library's
 * read; in any other link __real_read is not there (a weak reference,
 * NULL) and the runtime calls read itself.  Either way it is the library's
 * read, which an LD_PRELOAD shim (tests/faults) still reaches. */
#ifndef RIP_SYS_H
#define RIP_SYS_H

#include <poll.h>
#include <signal.h>
#include <pthread.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

int accept4(int fd, struct sockaddr *addr, socklen_t *len, int flags); /* declared only under _GNU_SOURCE */

/* rip__sys_NAME(args): __real_NAME under --wrap=NAME, else NAME. */
#define RIP__SYS(ret, name, params, args)                                      \
    extern ret __real_##name params __attribute__((weak));                     \
    static inline ret rip__sys_##name params {                                 \
        return __real_##name ? __real_##name args : name args;                 \
    }

RIP__SYS(ssize_t, read, (int fd, void *buf, size_t len), (fd, buf, len))
RIP__SYS(ssize_t, write, (int fd, const void *buf, size_t len), (fd, buf, len))
RIP__SYS(ssize_t, recv, (int fd, void *buf, size_t len, int flags), (fd, buf, len, flags))
RIP__SYS(ssize_t, send, (int fd, const void *buf, size_t len, int flags), (fd, buf, len, flags))
RIP__SYS(ssize_t, recvfrom, (int fd, void *buf, size_t len, int flags, struct sockaddr *addr,
                             socklen_t *addrlen), (fd, buf, len, flags, addr, addrlen))
RIP__SYS(ssize_t, sendto, (int fd, const void *buf, size_t len, int flags,
                           const struct sockaddr *addr, socklen_t addrlen),
         (fd, buf, len, flags, addr, addrlen))
RIP__SYS(ssize_t, readv, (int fd, const struct iovec *iov, int n), (fd, iov, n))
RIP__SYS(ssize_t, writev, (int fd, const struct iovec *iov, int n), (fd, iov, n))
RIP__SYS(ssize_t, recvmsg, (int fd, struct msghdr *msg, int flags), (fd, msg, flags))
RIP__SYS(ssize_t, sendmsg, (int fd, const struct msghdr *msg, int flags), (fd, msg, flags))
RIP__SYS(int, accept, (int fd, struct sockaddr *addr, socklen_t *len), (fd, addr, len))
RIP__SYS(int, accept4, (int fd, struct sockaddr *addr, socklen_t *len, int flags),
         (fd, addr, len, flags))
RIP__SYS(int, connect, (int fd, const struct sockaddr *addr, socklen_t len), (fd, addr, len))
RIP__SYS(int, nanosleep, (const struct timespec *req, struct timespec *rem), (req, rem))
RIP__SYS(int, poll, (struct pollfd *fds, nfds_t n, int timeout_ms), (fds, n, timeout_ms))
RIP__SYS(int, epoll_wait, (int epfd, struct epoll_event *events, int max, int timeout_ms),
         (epfd, events, max, timeout_ms))

RIP__SYS(int, epoll_pwait, (int epfd, struct epoll_event *events, int max, int timeout_ms,
                            const sigset_t *mask), (epfd, events, max, timeout_ms, mask))
RIP__SYS(int, close, (int fd), (fd))
RIP__SYS(int, pthread_sigmask, (int how, const sigset_t *set, sigset_t *old), (how, set, old))
RIP__SYS(int, shutdown, (int fd, int how), (fd, how))
RIP__SYS(int, sigaction, (int sig, const struct sigaction *act, struct sigaction *old),
         (sig, act, old))
/* The pthread calls the runtime makes (offload pool, workers): --posix
 * wraps them too on ucontext, where a task's call would be a task's. */
RIP__SYS(int, pthread_create, (pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *),
                               void *arg), (t, a, fn, arg))
RIP__SYS(int, pthread_join, (pthread_t t, void **v), (t, v))
RIP__SYS(int, pthread_mutex_init, (pthread_mutex_t *m, const pthread_mutexattr_t *a), (m, a))
RIP__SYS(int, pthread_mutex_destroy, (pthread_mutex_t *m), (m))
RIP__SYS(int, pthread_mutex_lock, (pthread_mutex_t *m), (m))
RIP__SYS(int, pthread_mutex_unlock, (pthread_mutex_t *m), (m))
RIP__SYS(int, pthread_cond_wait, (pthread_cond_t *c, pthread_mutex_t *m), (c, m))
RIP__SYS(int, pthread_cond_signal, (pthread_cond_t *c), (c))
RIP__SYS(int, pthread_cond_init, (pthread_cond_t *c, const pthread_condattr_t *a), (c, a))
RIP__SYS(int, pthread_once, (pthread_once_t *once, void (*fn)(void)), (once, fn))

/* poll(2) with timeout 0. */
static inline int rip__sys_poll_now(struct pollfd *fds, nfds_t n) {
    return rip__sys_poll(fds, n, 0);
}

#endif

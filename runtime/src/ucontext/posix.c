/* posix.c -- the calls of rip_posix.h on the ucontext backend, and the
 * link-time wrappers of `ripcc --posix --backend=ucontext`.
 *
 * The program is compiled as written and linked with -Wl,--wrap=NAME for
 * each call and for main: its calls to read go to __wrap_read, which is
 * rip_posix_read inside a task and the real read (__real_read) anywhere
 * else (before the first task, after the last, on an offload thread);
 * __wrap_main runs the program's main (__real_main) as the first task and
 * returns its value.  The runtime's own calls go to the library through
 * __real_NAME (shared/sys.h), so no wrapper ever catches them. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include "core.h"
#include "uc.h"
#include "rip_posix.h"
#include "../shared/sys.h"

/* An fd call of a task: step, parking between. */
static ssize_t px(rip_pxop *op) {
    rip_waiter w;
    rip_intr intr;                  /* the wait's record for a signal */
    int r;
    op->intr = &intr;
    while ((r = rip__px_step(op, &w)) != 1) {
        if (r == RIP_PX_OFFLOAD) {
            if (!rip_offload(rip__px_blocking, op))
                return -1;          /* the deadline came first: errno ETIMEDOUT */
            break;
        }
        rip__uc_park();
    }
    if (op->result < 0)
        errno = op->err;
    return op->result;
}

/* A sleep of a task: 0, or -1 when a signal ended it (*left: the time not slept). */
static int px_sleep(const struct timespec *rel, struct timespec *left) {
    rip_pxsleep sl;
    rip__px_sleep_begin(&sl, rel);
    rip__uc_park();
    return rip__px_sleep_end(&sl, left);
}

/* poll, ppoll: rip_poll's step, a signal ending the wait (EINTR). */
static int px_poll(struct pollfd *fds, nfds_t nfds, int ms, const sigset_t *mask) {
    rip_pollop op = { .fds = fds, .n = nfds, .timeout_ms = ms, .posix = 1, .sigmask = mask };
    while (!rip__poll_step(&op))
        rip__uc_park();
    if (op.result < 0)
        errno = op.err;
    return op.result;
}

/* Outside a task: the call itself (the wrappers' __real_ functions are
 * only there when the program is linked with --wrap). */
#define IN_TASK (rip__current() != NULL)

ssize_t rip_posix_read(int fd, void *buf, size_t count) {
    if (!IN_TASK)
        return rip__sys_read(fd, buf, count);
    return px(&(rip_pxop){ .kind = RIP_PX_READ, .fd = fd, .buf = buf, .len = count });
}

ssize_t rip_posix_write(int fd, const void *buf, size_t count) {
    if (!IN_TASK)
        return rip__sys_write(fd, buf, count);
    return px(&(rip_pxop){ .kind = RIP_PX_WRITE, .fd = fd, .buf = (void *)buf, .len = count });
}

ssize_t rip_posix_recvfrom(int fd, void *buf, size_t len, int flags,
                           struct sockaddr *src, socklen_t *srclen) {
    if (!IN_TASK)
        return rip__sys_recvfrom(fd, buf, len, flags, src, srclen);
    return px(&(rip_pxop){ .kind = RIP_PX_RECV, .fd = fd, .buf = buf, .len = len,
                           .flags = flags, .addr = src, .addrlen = srclen });
}

ssize_t rip_posix_sendto(int fd, const void *buf, size_t len, int flags,
                         const struct sockaddr *dest, socklen_t destlen) {
    if (!IN_TASK)
        return rip__sys_sendto(fd, buf, len, flags, dest, destlen);
    return px(&(rip_pxop){ .kind = RIP_PX_SEND, .fd = fd, .buf = (void *)buf, .len = len,
                           .flags = flags, .daddr = dest, .daddrlen = destlen });
}

ssize_t rip_posix_recv(int fd, void *buf, size_t len, int flags) {
    return rip_posix_recvfrom(fd, buf, len, flags, NULL, NULL);
}

ssize_t rip_posix_send(int fd, const void *buf, size_t len, int flags) {
    return rip_posix_sendto(fd, buf, len, flags, NULL, 0);
}

int rip_posix_accept4(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags) {
    if (!IN_TASK)
        return rip__sys_accept4(fd, addr, addrlen, flags);
    return (int)px(&(rip_pxop){ .kind = RIP_PX_ACCEPT, .fd = fd, .addr = addr,
                                .addrlen = addrlen, .flags = flags });
}

int rip_posix_accept(int fd, struct sockaddr *addr, socklen_t *addrlen) {
    return rip_posix_accept4(fd, addr, addrlen, 0);
}

int rip_posix_connect(int fd, const struct sockaddr *addr, socklen_t addrlen) {
    if (!IN_TASK)
        return rip__sys_connect(fd, addr, addrlen);
    return (int)px(&(rip_pxop){ .kind = RIP_PX_CONNECT, .fd = fd, .daddr = addr,
                                .daddrlen = addrlen });
}

ssize_t rip_posix_readv(int fd, const struct iovec *iov, int iovcnt) {
    if (!IN_TASK)
        return rip__sys_readv(fd, iov, iovcnt);
    return px(&(rip_pxop){ .kind = RIP_PX_READV, .fd = fd, .iov = iov, .iovcnt = iovcnt });
}

ssize_t rip_posix_writev(int fd, const struct iovec *iov, int iovcnt) {
    if (!IN_TASK)
        return rip__sys_writev(fd, iov, iovcnt);
    return px(&(rip_pxop){ .kind = RIP_PX_WRITEV, .fd = fd, .iov = iov, .iovcnt = iovcnt });
}

ssize_t rip_posix_recvmsg(int fd, struct msghdr *msg, int flags) {
    if (!IN_TASK)
        return rip__sys_recvmsg(fd, msg, flags);
    return px(&(rip_pxop){ .kind = RIP_PX_RECVMSG, .fd = fd, .msg = msg, .flags = flags });
}

ssize_t rip_posix_sendmsg(int fd, const struct msghdr *msg, int flags) {
    if (!IN_TASK)
        return rip__sys_sendmsg(fd, msg, flags);
    return px(&(rip_pxop){ .kind = RIP_PX_SENDMSG, .fd = fd, .msg = (struct msghdr *)msg,
                           .flags = flags });
}

static int px_select(rip_pxselect *s) {
    if (!rip__px_select_begin(s)) {
        while (!rip__poll_step(&s->poll))
            rip__uc_park();
        rip__px_select_end(s);
    }
    if (s->result < 0)
        errno = s->err;
    return s->result;
}

int rip_posix_select(int nfds, fd_set *readfds, fd_set *writefds, fd_set *exceptfds,
                     struct timeval *timeout) {
    if (!IN_TASK)
        return select(nfds, readfds, writefds, exceptfds, timeout); /* the library's: --wrap sends it back here, still outside */
    rip_pxselect s = { .nfds = nfds, .readfds = readfds, .writefds = writefds,
                       .exceptfds = exceptfds, .timeout = timeout };
    return px_select(&s);
}

int rip_posix_pselect(int nfds, fd_set *readfds, fd_set *writefds, fd_set *exceptfds,
                      const struct timespec *timeout, const sigset_t *sigmask) {
    if (!IN_TASK)
        return pselect(nfds, readfds, writefds, exceptfds, timeout, sigmask);
    if (timeout && (timeout->tv_sec < 0 || timeout->tv_nsec < 0 || timeout->tv_nsec > 999999999)) {
        errno = EINVAL;
        return -1;
    }
    struct timeval tv;              /* pselect's timeout as select's (not given back) */
    if (timeout)
        tv = (struct timeval){ timeout->tv_sec, (timeout->tv_nsec + 999) / 1000 };
    rip_pxselect s = { .nfds = nfds, .readfds = readfds, .writefds = writefds,
                       .exceptfds = exceptfds, .timeout = timeout ? &tv : NULL,
                       .sigmask = sigmask };
    return px_select(&s);
}

static int px_epoll(int epfd, struct epoll_event *events, int maxevents, int timeout,
                    const sigset_t *sigmask) {
    rip_pxepoll e = { .epfd = epfd, .events = events, .maxevents = maxevents,
                      .timeout_ms = timeout, .sigmask = sigmask };
    while (!rip__px_epoll_step(&e))
        rip__uc_park();
    if (e.result < 0)
        errno = e.err;
    return e.result;
}

int rip_posix_epoll_wait(int epfd, struct epoll_event *events, int maxevents, int timeout) {
    if (!IN_TASK)
        return rip__sys_epoll_wait(epfd, events, maxevents, timeout);
    return px_epoll(epfd, events, maxevents, timeout, NULL);
}

int rip_posix_epoll_pwait(int epfd, struct epoll_event *events, int maxevents, int timeout,
                          const sigset_t *sigmask) {
    if (!IN_TASK)
        return epoll_pwait(epfd, events, maxevents, timeout, sigmask);
    return px_epoll(epfd, events, maxevents, timeout, sigmask);
}

int rip_posix_poll(struct pollfd *fds, nfds_t nfds, int timeout) {
    if (!IN_TASK)
        return rip__sys_poll(fds, nfds, timeout);
    int64_t ms = rip__px_ms_at_least(timeout);
    return px_poll(fds, nfds, ms > INT_MAX ? INT_MAX : (int)ms, NULL);
}

int rip_posix_ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *tmo,
                    const sigset_t *sigmask) {
    if (!IN_TASK)
        return ppoll(fds, nfds, tmo, sigmask);
    int ms;
    if (rip__px_timespec_ms(tmo, &ms) == -1)
        return -1;
    return px_poll(fds, nfds, ms, sigmask);
}

int rip_posix_pause(void) {
    if (!IN_TASK)
        return pause();
    return px_poll(NULL, 0, -1, NULL);
}

int rip_posix_sigsuspend(const sigset_t *mask) {
    if (!IN_TASK)
        return sigsuspend(mask);
    return px_poll(NULL, 0, -1, mask);
}

unsigned int rip_posix_sleep(unsigned int seconds) {
    if (!IN_TASK)
        return sleep(seconds);
    struct timespec rel = { seconds, 0 }, left;
    if (px_sleep(&rel, &left) == -1) {
        errno = EINTR;
        return (unsigned)left.tv_sec;   /* the whole seconds not slept, as glibc */
    }
    return 0;
}

int rip_posix_usleep(useconds_t usec) {
    if (!IN_TASK)
        return usleep(usec);
    struct timespec rel, left;
    rip__px_sleep_request(1, &usec, &rel);
    if (px_sleep(&rel, &left) == -1) {
        errno = EINTR;
        return -1;
    }
    return 0;
}

int rip_posix_nanosleep(const struct timespec *req, struct timespec *rem) {
    if (!IN_TASK)
        return rip__sys_nanosleep(req, rem);
    struct timespec rel, left;
    if (rip__px_sleep_request(2, req, &rel) == -1)
        return -1;
    if (px_sleep(&rel, &left) == -1) {
        if (rem)
            *rem = left;
        errno = EINTR;
        return -1;
    }
    return 0;
}

int rip_posix_clock_nanosleep(clockid_t clock, int flags, const struct timespec *req,
                              struct timespec *rem) {
    struct timespec rel, left;
    int err = IN_TASK ? rip__px_clock_request(clock, flags, req, &rel) : ENOTSUP;
    if (err == ENOTSUP)             /* outside a task, or a CPU-time clock: the call itself */
        return clock_nanosleep(clock, flags, req, rem);
    if (err)
        return err;
    if (px_sleep(&rel, &left) == -1) {
        if (rem && !(flags & TIMER_ABSTIME))
            *rem = left;
        return EINTR;
    }
    return 0;
}

/* The wrappers.  __real_NAME is the C library's NAME, resolved by the
 * linker under --wrap=NAME (ripcc --posix links with all of them).  Weak:
 * the shared library (make install), linked whole with no --wrap, leaves
 * them unresolved and never calls a wrapper. */
#define REAL __attribute__((weak))
REAL ssize_t __real_read(int, void *, size_t);
REAL ssize_t __real_write(int, const void *, size_t);
REAL ssize_t __real_recv(int, void *, size_t, int);
REAL ssize_t __real_send(int, const void *, size_t, int);
REAL ssize_t __real_recvfrom(int, void *, size_t, int, struct sockaddr *, socklen_t *);
REAL ssize_t __real_sendto(int, const void *, size_t, int, const struct sockaddr *, socklen_t);
REAL int __real_accept(int, struct sockaddr *, socklen_t *);
REAL int __real_accept4(int, struct sockaddr *, socklen_t *, int);
REAL int __real_connect(int, const struct sockaddr *, socklen_t);
REAL unsigned int __real_sleep(unsigned int);
REAL int __real_usleep(useconds_t);
REAL int __real_nanosleep(const struct timespec *, struct timespec *);
REAL int __real_main(int, char **, char **);
REAL int __real_poll(struct pollfd *, nfds_t, int);
REAL int __real_epoll_wait(int, struct epoll_event *, int, int);
REAL int __real_select(int, fd_set *, fd_set *, fd_set *, struct timeval *);
REAL ssize_t __real_readv(int, const struct iovec *, int);
REAL ssize_t __real_writev(int, const struct iovec *, int);
REAL ssize_t __real_recvmsg(int, struct msghdr *, int);
REAL ssize_t __real_sendmsg(int, const struct msghdr *, int);
REAL int __real_ppoll(struct pollfd *, nfds_t, const struct timespec *, const sigset_t *);
REAL int __real_pselect(int, fd_set *, fd_set *, fd_set *, const struct timespec *, const sigset_t *);
REAL int __real_epoll_pwait(int, struct epoll_event *, int, int, const sigset_t *);
REAL int __real_clock_nanosleep(clockid_t, int, const struct timespec *, struct timespec *);
REAL int __real_pause(void);
REAL int __real_sigsuspend(const sigset_t *);

ssize_t __wrap_read(int fd, void *buf, size_t n) {
    return IN_TASK ? rip_posix_read(fd, buf, n) : __real_read(fd, buf, n);
}

ssize_t __wrap_write(int fd, const void *buf, size_t n) {
    return IN_TASK ? rip_posix_write(fd, buf, n) : __real_write(fd, buf, n);
}

ssize_t __wrap_recv(int fd, void *buf, size_t n, int flags) {
    return IN_TASK ? rip_posix_recv(fd, buf, n, flags) : __real_recv(fd, buf, n, flags);
}

ssize_t __wrap_send(int fd, const void *buf, size_t n, int flags) {
    return IN_TASK ? rip_posix_send(fd, buf, n, flags) : __real_send(fd, buf, n, flags);
}

ssize_t __wrap_recvfrom(int fd, void *buf, size_t n, int flags, struct sockaddr *a, socklen_t *l) {
    return IN_TASK ? rip_posix_recvfrom(fd, buf, n, flags, a, l)
                   : __real_recvfrom(fd, buf, n, flags, a, l);
}

ssize_t __wrap_sendto(int fd, const void *buf, size_t n, int flags, const struct sockaddr *a,
                      socklen_t l) {
    return IN_TASK ? rip_posix_sendto(fd, buf, n, flags, a, l)
                   : __real_sendto(fd, buf, n, flags, a, l);
}

int __wrap_accept(int fd, struct sockaddr *a, socklen_t *l) {
    return IN_TASK ? rip_posix_accept(fd, a, l) : __real_accept(fd, a, l);
}

int __wrap_accept4(int fd, struct sockaddr *a, socklen_t *l, int flags) {
    return IN_TASK ? rip_posix_accept4(fd, a, l, flags) : __real_accept4(fd, a, l, flags);
}

int __wrap_connect(int fd, const struct sockaddr *a, socklen_t l) {
    return IN_TASK ? rip_posix_connect(fd, a, l) : __real_connect(fd, a, l);
}

ssize_t __wrap_readv(int fd, const struct iovec *iov, int n) {
    return IN_TASK ? rip_posix_readv(fd, iov, n) : __real_readv(fd, iov, n);
}

ssize_t __wrap_writev(int fd, const struct iovec *iov, int n) {
    return IN_TASK ? rip_posix_writev(fd, iov, n) : __real_writev(fd, iov, n);
}

ssize_t __wrap_recvmsg(int fd, struct msghdr *msg, int flags) {
    return IN_TASK ? rip_posix_recvmsg(fd, msg, flags) : __real_recvmsg(fd, msg, flags);
}

ssize_t __wrap_sendmsg(int fd, const struct msghdr *msg, int flags) {
    return IN_TASK ? rip_posix_sendmsg(fd, msg, flags) : __real_sendmsg(fd, msg, flags);
}

int __wrap_select(int n, fd_set *r, fd_set *w, fd_set *e, struct timeval *t) {
    return IN_TASK ? rip_posix_select(n, r, w, e, t) : __real_select(n, r, w, e, t);
}

int __wrap_epoll_wait(int epfd, struct epoll_event *events, int max, int timeout) {
    return IN_TASK ? rip_posix_epoll_wait(epfd, events, max, timeout)
                   : __real_epoll_wait(epfd, events, max, timeout);
}

int __wrap_poll(struct pollfd *fds, nfds_t n, int timeout) {
    return IN_TASK ? rip_posix_poll(fds, n, timeout) : __real_poll(fds, n, timeout);
}

unsigned int __wrap_sleep(unsigned int s) {
    return IN_TASK ? rip_posix_sleep(s) : __real_sleep(s);
}

int __wrap_usleep(useconds_t us) {
    return IN_TASK ? rip_posix_usleep(us) : __real_usleep(us);
}

int __wrap_nanosleep(const struct timespec *req, struct timespec *rem) {
    return IN_TASK ? rip_posix_nanosleep(req, rem) : __real_nanosleep(req, rem);
}

int __wrap_ppoll(struct pollfd *fds, nfds_t n, const struct timespec *t, const sigset_t *m) {
    return IN_TASK ? rip_posix_ppoll(fds, n, t, m) : __real_ppoll(fds, n, t, m);
}

int __wrap_pselect(int n, fd_set *r, fd_set *w, fd_set *e, const struct timespec *t,
                   const sigset_t *m) {
    return IN_TASK ? rip_posix_pselect(n, r, w, e, t, m) : __real_pselect(n, r, w, e, t, m);
}

int __wrap_epoll_pwait(int epfd, struct epoll_event *events, int max, int timeout,
                       const sigset_t *m) {
    return IN_TASK ? rip_posix_epoll_pwait(epfd, events, max, timeout, m)
                   : __real_epoll_pwait(epfd, events, max, timeout, m);
}

int __wrap_clock_nanosleep(clockid_t c, int flags, const struct timespec *req, struct timespec *rem) {
    return IN_TASK ? rip_posix_clock_nanosleep(c, flags, req, rem)
                   : __real_clock_nanosleep(c, flags, req, rem);
}

int __wrap_pause(void) {
    return IN_TASK ? rip_posix_pause() : __real_pause();
}

int __wrap_sigsuspend(const sigset_t *mask) {
    return IN_TASK ? rip_posix_sigsuspend(mask) : __real_sigsuspend(mask);
}

/* The signal mask is the thread's, so every task's and the scheduler's
 * (as on the rip backend): swapcontext restores a context's own mask at
 * each switch, so the one the program sets is handed to every context. */
REAL int __real_sigprocmask(int, const sigset_t *, sigset_t *);
REAL int __real_pthread_sigmask(int, const sigset_t *, sigset_t *);

static void mask_set(void) {
    sigset_t now;
    if (rip__sys_pthread_sigmask(SIG_BLOCK, NULL, &now) == 0)
        rip__uc_mask_changed(&now);
}

int __wrap_sigprocmask(int how, const sigset_t *set, sigset_t *old) {
    int r = __real_sigprocmask(how, set, old);
    if (r == 0 && set)
        mask_set();
    return r;
}

int __wrap_pthread_sigmask(int how, const sigset_t *set, sigset_t *old) {
    int r = __real_pthread_sigmask(how, set, old);
    if (r == 0 && set)
        mask_set();
    return r;
}

/* main as the first task. */
static struct {
    int argc;                       /* main's arguments */
    char **argv;
    char **envp;
    int result;                     /* its value */
} main_call;

#define MAIN_STACK (8u << 20)       /* main's stack, as a thread's default (the pages come as used) */

static void main_task(void *arg) {
    rip_set_stack_size(*(size_t *)arg); /* tasks after main get the usual size */
    main_call.result = __real_main(main_call.argc, main_call.argv, main_call.envp);
    exit(main_call.result);         /* a return from main ends the program, other tasks (threads) or not */
}

int __wrap_main(int argc, char **argv, char **envp) {
    main_call.argc = argc;
    main_call.argv = argv;
    main_call.envp = envp;
    size_t usual = rip_set_stack_size(MAIN_STACK);
    if (rip_run(main_task, &usual) == -1)
        return 1;                   /* every task blocked for good: rip_run said so on stderr */
    return main_call.result;
}

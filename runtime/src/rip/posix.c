/* posix.c -- the calls of rip_posix.h on the rip backend: a hand-written
 * frame for each, which `ripper --posix` calls where the program calls
 * read, sleep...  The fd calls step through core/posix.c, waiting on the
 * fd between steps; a connect that must block runs on the offload pool;
 * the sleeps are timers.  A handled signal ends a wait as signal(7) says
 * (core/psignal.c). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include "rip_private.h"
#include "core.h"
#include "rip_posix.h"

/* The current task waits in frame f, which will resume at state `next`. */
static void suspend(rip_frame *f, int next) {
    f->state = next;
    rip__current()->impl = f;
}

struct px_frame {
    rip_frame hdr;
    union { ssize_t n; int i; } result; /* RIP_RESULT slot: n for the byte counts, i otherwise */
    rip_pxop op;                    /* the call in progress */
    rip_waiter waiter;              /* our place in the fd's wait list */
    rip_intr intr;                  /* the wait's record for a signal (op.intr) */
    rip_job job;                    /* the call on the offload pool, when it must block */
};

static int px_done(struct px_frame *F) {
    if (F->op.kind == RIP_PX_ACCEPT || F->op.kind == RIP_PX_CONNECT)
        F->result.i = (int)F->op.result;
    else
        F->result.n = F->op.result;
    if (F->op.result < 0)
        errno = F->op.err;          /* success leaves errno alone, as the system calls do */
    return 1;
}

static int px_resume(rip_frame *f, rip_frame *done) {
    struct px_frame *F = (struct px_frame *)f;
    (void)done;
    if (f->state == 2) {            /* back from the offload pool */
        rip__wait_ended(&F->job.wait);
        if (F->job.wait.status == ETIMEDOUT)
            F->op.result = -1, F->op.err = ETIMEDOUT;
        return px_done(F);
    }
    int r = rip__px_step(&F->op, &F->waiter);
    if (r == 0) {
        suspend(f, 1);
        return 0;
    }
    if (r == RIP_PX_OFFLOAD) {
        F->job.fn = rip__px_blocking;
        F->job.arg = &F->op;
        if (rip__offload_begin(&F->job) == -1) {
            rip__px_blocking(&F->op);   /* no pool: block this scheduler instead */
            return px_done(F);
        }
        suspend(f, 2);
        return 0;
    }
    return px_done(F);
}

static rip_frame *px_frame(rip_pxop op) {
    struct px_frame *F = rip__frame_alloc(sizeof *F, px_resume);
    F->op = op;
    F->op.intr = &F->intr;
    return &F->hdr;
}

rip_frame *rip__new_rip_posix_read(int fd, void *buf, size_t count) {
    return px_frame((rip_pxop){ .kind = RIP_PX_READ, .fd = fd, .buf = buf, .len = count });
}

rip_frame *rip__new_rip_posix_write(int fd, const void *buf, size_t count) {
    return px_frame((rip_pxop){ .kind = RIP_PX_WRITE, .fd = fd, .buf = (void *)buf, .len = count });
}

rip_frame *rip__new_rip_posix_recvfrom(int fd, void *buf, size_t len, int flags,
                                       struct sockaddr *src, socklen_t *srclen) {
    return px_frame((rip_pxop){ .kind = RIP_PX_RECV, .fd = fd, .buf = buf, .len = len,
                                .flags = flags, .addr = src, .addrlen = srclen });
}

rip_frame *rip__new_rip_posix_sendto(int fd, const void *buf, size_t len, int flags,
                                     const struct sockaddr *dest, socklen_t destlen) {
    return px_frame((rip_pxop){ .kind = RIP_PX_SEND, .fd = fd, .buf = (void *)buf, .len = len,
                                .flags = flags, .daddr = dest, .daddrlen = destlen });
}

rip_frame *rip__new_rip_posix_recv(int fd, void *buf, size_t len, int flags) {
    return rip__new_rip_posix_recvfrom(fd, buf, len, flags, NULL, NULL);
}

rip_frame *rip__new_rip_posix_send(int fd, const void *buf, size_t len, int flags) {
    return rip__new_rip_posix_sendto(fd, buf, len, flags, NULL, 0);
}

rip_frame *rip__new_rip_posix_accept4(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags) {
    return px_frame((rip_pxop){ .kind = RIP_PX_ACCEPT, .fd = fd, .addr = addr,
                                .addrlen = addrlen, .flags = flags });
}

rip_frame *rip__new_rip_posix_accept(int fd, struct sockaddr *addr, socklen_t *addrlen) {
    return rip__new_rip_posix_accept4(fd, addr, addrlen, 0);
}

rip_frame *rip__new_rip_posix_connect(int fd, const struct sockaddr *addr, socklen_t addrlen) {
    return px_frame((rip_pxop){ .kind = RIP_PX_CONNECT, .fd = fd, .daddr = addr,
                                .daddrlen = addrlen });
}

rip_frame *rip__new_rip_posix_readv(int fd, const struct iovec *iov, int iovcnt) {
    return px_frame((rip_pxop){ .kind = RIP_PX_READV, .fd = fd, .iov = iov, .iovcnt = iovcnt });
}

rip_frame *rip__new_rip_posix_writev(int fd, const struct iovec *iov, int iovcnt) {
    return px_frame((rip_pxop){ .kind = RIP_PX_WRITEV, .fd = fd, .iov = iov, .iovcnt = iovcnt });
}

rip_frame *rip__new_rip_posix_recvmsg(int fd, struct msghdr *msg, int flags) {
    return px_frame((rip_pxop){ .kind = RIP_PX_RECVMSG, .fd = fd, .msg = msg, .flags = flags });
}

rip_frame *rip__new_rip_posix_sendmsg(int fd, const struct msghdr *msg, int flags) {
    return px_frame((rip_pxop){ .kind = RIP_PX_SENDMSG, .fd = fd, .msg = (struct msghdr *)msg,
                                .flags = flags });
}

/* poll, ppoll: rip_poll's step, a signal ending the wait (EINTR). */
struct poll_frame {
    rip_frame hdr;
    int result;                     /* RIP_RESULT slot */
    sigset_t mask;                  /* ppoll's sigmask, copied */
    rip_pollop op;                  /* the call in progress */
};

static int poll_resume(rip_frame *f, rip_frame *done) {
    struct poll_frame *F = (struct poll_frame *)f;
    (void)done;
    if (!rip__poll_step(&F->op)) {
        suspend(f, 1);
        return 0;
    }
    F->result = F->op.result;
    if (F->op.result < 0)
        errno = F->op.err;
    return 1;
}

static struct poll_frame *poll_frame(struct pollfd *fds, nfds_t nfds, int ms, const sigset_t *mask) {
    struct poll_frame *F = rip__frame_alloc(sizeof *F, poll_resume);
    F->op = (rip_pollop){ .fds = fds, .n = nfds, .timeout_ms = ms, .posix = 1 };
    if (mask) {
        F->mask = *mask;
        F->op.sigmask = &F->mask;
    }
    return F;
}

rip_frame *rip__new_rip_posix_poll(struct pollfd *fds, nfds_t nfds, int timeout) {
    int64_t ms = rip__px_ms_at_least(timeout);      /* else poll(2)'s meaning already */
    return &poll_frame(fds, nfds, ms > INT_MAX ? INT_MAX : (int)ms, NULL)->hdr;
}

/* pause, sigsuspend: a wait only a handled signal ends (-1, EINTR). */
rip_frame *rip__new_rip_posix_pause(void) {
    return &poll_frame(NULL, 0, -1, NULL)->hdr;
}

rip_frame *rip__new_rip_posix_sigsuspend(const sigset_t *mask) {
    return &poll_frame(NULL, 0, -1, mask)->hdr;
}

/* An error found before the call begins: the frame returns -1 (or, as
 * clock_nanosleep, the number) at once. */
struct fail_frame {
    rip_frame hdr;
    int result;                     /* RIP_RESULT slot */
    int err;                        /* errno to set, 0 for none */
};

static int fail_resume(rip_frame *f, rip_frame *done) {
    struct fail_frame *F = (struct fail_frame *)f;
    (void)done;
    if (F->err)
        errno = F->err;
    return 1;
}

static rip_frame *fail_frame(int result, int err) {
    struct fail_frame *F = rip__frame_alloc(sizeof *F, fail_resume);
    F->result = result;
    F->err = err;
    return &F->hdr;
}

rip_frame *rip__new_rip_posix_ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *tmo,
                                    const sigset_t *sigmask) {
    int ms;
    if (rip__px_timespec_ms(tmo, &ms) == -1)
        return fail_frame(-1, EINVAL);
    return &poll_frame(fds, nfds, ms, sigmask)->hdr;
}

/* select, pselect: the sets as a poll, stepped as rip_poll. */
struct select_frame {
    rip_frame hdr;
    int result;                     /* RIP_RESULT slot */
    rip_pxselect s;                 /* the call in progress */
    struct timeval tv;              /* pselect's timeout, as select's (not given back) */
    sigset_t mask;                  /* pselect's sigmask, copied */
};

static int select_resume(rip_frame *f, rip_frame *done) {
    struct select_frame *F = (struct select_frame *)f;
    (void)done;
    if (f->state == 0 && rip__px_select_begin(&F->s)) {
        F->result = -1;
        errno = F->s.err;
        return 1;
    }
    if (!rip__poll_step(&F->s.poll)) {
        suspend(f, 1);
        return 0;
    }
    rip__px_select_end(&F->s);
    F->result = F->s.result;
    if (F->result < 0)
        errno = F->s.err;
    return 1;
}

static struct select_frame *select_frame(int nfds, fd_set *readfds, fd_set *writefds,
                                         fd_set *exceptfds, struct timeval *timeout) {
    struct select_frame *F = rip__frame_alloc(sizeof *F, select_resume);
    F->s = (rip_pxselect){ .nfds = nfds, .readfds = readfds, .writefds = writefds,
                           .exceptfds = exceptfds, .timeout = timeout };
    return F;
}

rip_frame *rip__new_rip_posix_select(int nfds, fd_set *readfds, fd_set *writefds,
                                     fd_set *exceptfds, struct timeval *timeout) {
    return &select_frame(nfds, readfds, writefds, exceptfds, timeout)->hdr;
}

rip_frame *rip__new_rip_posix_pselect(int nfds, fd_set *readfds, fd_set *writefds,
                                      fd_set *exceptfds, const struct timespec *timeout,
                                      const sigset_t *sigmask) {
    if (timeout && (timeout->tv_sec < 0 || timeout->tv_nsec < 0 || timeout->tv_nsec > 999999999))
        return fail_frame(-1, EINVAL);
    struct select_frame *F = select_frame(nfds, readfds, writefds, exceptfds, NULL);
    if (timeout) {
        F->tv = (struct timeval){ timeout->tv_sec, (timeout->tv_nsec + 999) / 1000 };
        F->s.timeout = &F->tv;
    }
    if (sigmask) {
        F->mask = *sigmask;
        F->s.sigmask = &F->mask;
    }
    return &F->hdr;
}

struct epoll_frame {
    rip_frame hdr;
    int result;                     /* RIP_RESULT slot */
    rip_pxepoll e;                  /* the call in progress */
    sigset_t mask;                  /* epoll_pwait's sigmask, copied */
};

static int epoll_resume(rip_frame *f, rip_frame *done) {
    struct epoll_frame *F = (struct epoll_frame *)f;
    (void)done;
    if (!rip__px_epoll_step(&F->e)) {
        suspend(f, 1);
        return 0;
    }
    F->result = F->e.result;
    if (F->result < 0)
        errno = F->e.err;
    return 1;
}

rip_frame *rip__new_rip_posix_epoll_wait(int epfd, struct epoll_event *events, int maxevents,
                                         int timeout) {
    struct epoll_frame *F = rip__frame_alloc(sizeof *F, epoll_resume);
    F->e = (rip_pxepoll){ .epfd = epfd, .events = events, .maxevents = maxevents,
                          .timeout_ms = timeout };
    return &F->hdr;
}

rip_frame *rip__new_rip_posix_epoll_pwait(int epfd, struct epoll_event *events, int maxevents,
                                          int timeout, const sigset_t *sigmask) {
    struct epoll_frame *F = (struct epoll_frame *)rip__new_rip_posix_epoll_wait(epfd, events,
                                                                                maxevents, timeout);
    if (sigmask) {
        F->mask = *sigmask;
        F->e.sigmask = &F->mask;
    }
    return &F->hdr;
}

/* The sleeps: a timer a signal may end (psignal.c). */
enum { SLEEP, USLEEP, NANOSLEEP, CLOCK_NANOSLEEP };
struct sleep_frame {
    rip_frame hdr;
    union { unsigned u; int i; } result; /* RIP_RESULT slot: u for sleep, i otherwise */
    int kind;                       /* SLEEP... */
    struct timespec rel;            /* the length asked for */
    struct timespec *rem;           /* nanosleep's, clock_nanosleep's (relative) rem, or NULL */
    rip_pxsleep s;                  /* the sleep */
};

static int sleep_resume(rip_frame *f, rip_frame *done) {
    struct sleep_frame *F = (struct sleep_frame *)f;
    (void)done;
    if (f->state == 0) {
        rip__px_sleep_begin(&F->s, &F->rel);
        suspend(f, 1);
        return 0;
    }
    struct timespec left;
    if (rip__px_sleep_end(&F->s, &left) == 0) {
        F->result.i = 0;            /* sleep's unsigned 0 too */
        return 1;
    }
    if (F->rem)
        *F->rem = left;
    if (F->kind == SLEEP) {
        F->result.u = (unsigned)left.tv_sec;    /* the whole seconds not slept, as glibc */
        errno = EINTR;
    } else if (F->kind == CLOCK_NANOSLEEP) {
        F->result.i = EINTR;        /* its error number; errno alone */
    } else {
        F->result.i = -1;
        errno = EINTR;
    }
    return 1;
}

static rip_frame *sleep_frame(int kind, const struct timespec *rel, struct timespec *rem) {
    struct sleep_frame *F = rip__frame_alloc(sizeof *F, sleep_resume);
    F->kind = kind;
    F->rel = *rel;
    F->rem = rem;
    return &F->hdr;
}

rip_frame *rip__new_rip_posix_sleep(unsigned int seconds) {
    struct timespec rel;
    rip__px_sleep_request(0, &seconds, &rel);
    return sleep_frame(SLEEP, &rel, NULL);
}

rip_frame *rip__new_rip_posix_usleep(useconds_t usec) {
    struct timespec rel;
    rip__px_sleep_request(1, &usec, &rel);
    return sleep_frame(USLEEP, &rel, NULL);
}

rip_frame *rip__new_rip_posix_nanosleep(const struct timespec *req, struct timespec *rem) {
    struct timespec rel;
    if (rip__px_sleep_request(2, req, &rel) == -1)
        return fail_frame(-1, errno);
    return sleep_frame(NANOSLEEP, &rel, rem);
}

rip_frame *rip__new_rip_posix_clock_nanosleep(clockid_t clock, int flags,
                                              const struct timespec *req, struct timespec *rem) {
    struct timespec rel;
    int err = rip__px_clock_request(clock, flags, req, &rel);
    if (err == ENOTSUP)             /* a CPU-time clock: the call itself, blocking the scheduler */
        return fail_frame(clock_nanosleep(clock, flags, req, rem), 0);
    if (err)
        return fail_frame(err, 0);
    return sleep_frame(CLOCK_NANOSLEEP, &rel, (flags & TIMER_ABSTIME) ? NULL : rem);
}

RIP__RUNTIME_FRAME(px_resume, "a POSIX fd call");
RIP__RUNTIME_FRAME(poll_resume, "poll");
RIP__RUNTIME_FRAME(fail_resume, "a failed call");
RIP__RUNTIME_FRAME(select_resume, "select");
RIP__RUNTIME_FRAME(epoll_resume, "epoll_wait");
RIP__RUNTIME_FRAME(sleep_resume, "sleep");

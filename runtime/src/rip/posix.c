/* posix.c -- the calls of rip_posix.h on the rip backend: a hand-written
 * frame for each, which `ripper --posix` calls where the program calls
 * read, sleep...  The fd calls step through core/posix.c, waiting on the
 * fd between steps; a connect that must block runs on the offload pool;
 * the sleeps are timers. */
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

rip_frame *rip__new_rip_posix_poll(struct pollfd *fds, nfds_t nfds, int timeout) {
    int64_t ms = rip__px_ms_at_least(timeout);      /* else poll(2)'s meaning already */
    return rip__new_rip_poll(fds, nfds, ms > INT_MAX ? INT_MAX : (int)ms);
}

/* select: the sets as a poll, stepped as rip_poll. */
struct select_frame {
    rip_frame hdr;
    int result;                     /* RIP_RESULT slot */
    rip_pxselect s;                 /* the call in progress */
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

rip_frame *rip__new_rip_posix_select(int nfds, fd_set *readfds, fd_set *writefds,
                                     fd_set *exceptfds, struct timeval *timeout) {
    struct select_frame *F = rip__frame_alloc(sizeof *F, select_resume);
    F->s = (rip_pxselect){ .nfds = nfds, .readfds = readfds, .writefds = writefds,
                           .exceptfds = exceptfds, .timeout = timeout };
    return &F->hdr;
}

struct epoll_frame {
    rip_frame hdr;
    int result;                     /* RIP_RESULT slot */
    rip_pxepoll e;                  /* the call in progress */
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

/* The sleeps: a timer, then 0 (sleep: 0 unslept seconds). */
struct sleep_frame {
    rip_frame hdr;
    union { unsigned u; int i; } result; /* RIP_RESULT slot: u for sleep, i otherwise */
    int kind;                       /* 0 sleep, 1 usleep, 2 nanosleep */
    union { unsigned s; useconds_t us; const struct timespec *req; } arg; /* the call's argument */
    rip_timer timer;                /* our place in the timer list */
};

static int sleep_resume(rip_frame *f, rip_frame *done) {
    struct sleep_frame *F = (struct sleep_frame *)f;
    (void)done;
    if (f->state == 0) {
        int64_t ms;
        const void *arg = F->kind == 0 ? (const void *)&F->arg.s :
                          F->kind == 1 ? (const void *)&F->arg.us : (const void *)F->arg.req;
        if (rip__px_sleep_ms(&ms, F->kind, arg) == -1) {
            F->result.i = -1;
            return 1;
        }
        rip__sleep_begin(&F->timer, ms);
        suspend(f, 1);
        return 0;
    }
    F->result.i = 0;                /* sleep's unsigned 0 too */
    return 1;
}

static struct sleep_frame *sleep_frame(int kind) {
    struct sleep_frame *F = rip__frame_alloc(sizeof *F, sleep_resume);
    F->kind = kind;
    return F;
}

rip_frame *rip__new_rip_posix_sleep(unsigned int seconds) {
    struct sleep_frame *F = sleep_frame(0);
    F->arg.s = seconds;
    return &F->hdr;
}

rip_frame *rip__new_rip_posix_usleep(useconds_t usec) {
    struct sleep_frame *F = sleep_frame(1);
    F->arg.us = usec;
    return &F->hdr;
}

rip_frame *rip__new_rip_posix_nanosleep(const struct timespec *req, struct timespec *rem) {
    struct sleep_frame *F = sleep_frame(2);
    (void)rem;                      /* a sleep is never cut short: rem is left alone, as on success */
    F->arg.req = req;
    return &F->hdr;
}

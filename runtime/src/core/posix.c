/* posix.c -- the fd calls of rip_posix.h on the rip and ucontext backends:
 * each with its system call's contract, the task waiting instead of the
 * thread, and no file status flag of the program's fds changed.
 *
 * One attempt never blocks the scheduler thread:
 *   - a socket is asked with MSG_DONTWAIT per call (read and write on a
 *     socket are recv and send with flags 0: the same meaning, SIGPIPE
 *     included);
 *   - a pipe, FIFO, eventfd or terminal with preadv2/pwritev2(RWF_NOWAIT),
 *     which Linux honours on pipes and eventfds (a write of at most
 *     PIPE_BUF bytes stays atomic); where the kernel refuses the flag
 *     (EOPNOTSUPP: a terminal; ENOSYS, EINVAL: an old kernel) by poll(2)
 *     with timeout 0, then the call.  The race: another process (or a
 *     thread outside the runtime) reading the same pipe between the poll
 *     and the read leaves the read blocking the scheduler until bytes
 *     come, as it would block a thread;
 *   - a regular file, block device or directory directly: epoll cannot
 *     watch them, and a read of one does not wait for a peer (a slow disk
 *     is the offload pool's case, not yet routed there);
 *   - accept: poll with timeout 0, then accept4 (the same race, with
 *     another process accepting on the same listener).
 * When the attempt says EAGAIN, the program's own O_NONBLOCK (F_GETFL,
 * asked only then) decides: set, the call returns EAGAIN as the kernel
 * would; not set, the task waits on the fd (poll.c) and tries again.
 *
 * connect on a blocking socket has no per-call form: the socket is put in
 * O_NONBLOCK for the connect(2) call alone and restored at once; then
 * EINPROGRESS waits until writable and SO_ERROR (and getpeername) tell.
 * A Unix socket whose listener's backlog is full (EAGAIN) would block: the
 * real connect runs on the offload pool.
 *
 * A socket's SO_RCVTIMEO (reads, accept) or SO_SNDTIMEO (writes,
 * connect), asked at the call's first wait, ends the call as the kernel's
 * would: a timer at its end cancels the wait; the call says EAGAIN (or the
 * count moved so far; connect: EINPROGRESS).
 *
 * A handled signal ends a wait as signal(7) says (psignal.c): EINTR, or
 * the count moved so far; under SA_RESTART the wait goes on, unless bytes
 * moved or the socket has SO_RCVTIMEO/SO_SNDTIMEO.  An attempt's own EINTR
 * (it never waits) is retried. */
#define _GNU_SOURCE                 /* preadv2, RWF_NOWAIT, accept4 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <netinet/in.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include "core.h"
#include "pxcall.h"
#include "../shared/sys.h"
#include "../shared/sys_offload.h"  /* fcntl past its --wrap wrapper */

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif

enum {
    HOW_UNKNOWN,                    /* not tried yet */
    HOW_SOCKET,                     /* recv/send with MSG_DONTWAIT */
    HOW_NOWAIT,                     /* preadv2/pwritev2 with RWF_NOWAIT */
    HOW_POLL,                       /* poll(fd, 0), then the call */
    HOW_DIRECT,                     /* the call itself: a file epoll cannot watch */
    HOW_DISK                        /* a regular file or block device: rip__px_disk_try (pxcall.c) */
};

#define OFFLOAD (-2)                /* attempt: the call must run blocking, on the offload pool */
#define OWN_ERROR (-3)              /* attempt: -1 and errno that the program's own O_NONBLOCK gave */

static int nowait_missing;          /* the kernel has no preadv2 or RWF_NOWAIT: never ask again (a race is harmless) */

static int program_nonblocking(int fd) {
    int fl = rip__sys_fcntl(fd, F_GETFL, NULL);
    return fl != -1 && (fl & O_NONBLOCK);
}

/* How to try a non-socket fd. */
static int classify_file(int fd) {
    struct stat st;
    if (fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode)))
        return HOW_DISK;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
        return HOW_DIRECT;
    return nowait_missing ? HOW_POLL : HOW_NOWAIT;
}

/* poll(fd, events, 0): 1 ready (or an error poll reports, which the call
 * will report), 0 it would wait. */
static int ready_now(int fd, short events) {
    struct pollfd p = { .fd = fd, .events = events };
    int n;
    while ((n = rip__sys_poll_now(&p, 1)) == -1 && errno == EINTR)
        ;
    return n != 0;
}

/* readv...: check the vector and set op->len, its total: 0, or -1 and
 * errno (EINVAL, as the system call). */
static int check_vector(rip_pxop *op) {
    if (op->iovcnt < 0 || op->iovcnt > IOV_MAX) {
        errno = op->kind >= RIP_PX_RECVMSG ? EMSGSIZE : EINVAL;  /* as the kernel says */
        return -1;
    }
    op->len = 0;
    for (int i = 0; i < op->iovcnt; i++) {
        if (op->iov[i].iov_len > (size_t)SSIZE_MAX - op->len) {
            errno = EINVAL;         /* the total would not fit the result */
            return -1;
        }
        op->len += op->iov[i].iov_len;
    }
    return 0;
}

/* The vector still to move: the caller's, or once `done` bytes moved, a
 * copy that skips them (op->rest).  0, or -1 and ENOMEM. */
static int rest_of(rip_pxop *op, const struct iovec **iov, int *cnt) {
    if (!op->done) {
        *iov = op->iov;
        *cnt = op->iovcnt;
        return 0;
    }
    if (!op->rest && !(op->rest = malloc((size_t)(op->iovcnt ? op->iovcnt : 1) * sizeof *op->rest)))
        return -1;
    size_t skip = op->done;
    int n = 0;
    for (int i = 0; i < op->iovcnt; i++) {
        if (skip >= op->iov[i].iov_len) {
            skip -= op->iov[i].iov_len;
            continue;
        }
        op->rest[n].iov_base = (char *)op->iov[i].iov_base + skip;
        op->rest[n++].iov_len = op->iov[i].iov_len - skip;
        skip = 0;
    }
    *iov = op->rest;
    *cnt = n;
    return 0;
}

/* One try of a read or write of vector `v` on a non-socket: the count,
 * or -1 and errno (EAGAIN: it would wait). */
static ssize_t try_file(rip_pxop *op, int writing, const struct iovec *v, int cnt) {
    if (op->how == HOW_NOWAIT) {
        ssize_t n = writing ? pwritev2(op->fd, v, cnt, -1, RWF_NOWAIT)
                            : preadv2(op->fd, v, cnt, -1, RWF_NOWAIT);
        if (n != -1 || (errno != EOPNOTSUPP && errno != ENOSYS && errno != EINVAL))
            return n;
        if (errno != EOPNOTSUPP)
            nowait_missing = 1;
        op->how = HOW_POLL;         /* this file refuses the flag: poll, then the call */
    }
    if (op->how == HOW_POLL && !program_nonblocking(op->fd) &&
            !ready_now(op->fd, writing ? POLLOUT : POLLIN)) {
        errno = EAGAIN;
        return -1;
    }
    return writing ? rip__sys_writev(op->fd, v, cnt) : rip__sys_readv(op->fd, v, cnt);
}

/* MSG_NOSIGNAL for a send after some bytes went: the kernel's blocking
 * send returns that count then, without SIGPIPE (a pipe's pwritev2 has no
 * such flag: a write to a pipe whose reader left mid-way gets SIGPIPE). */
static int later(const rip_pxop *op) {
    return op->done ? MSG_NOSIGNAL : 0;
}

static int is_read(const rip_pxop *op) {
    return op->kind == RIP_PX_READ || op->kind == RIP_PX_RECV || op->kind == RIP_PX_ACCEPT ||
        op->kind == RIP_PX_READV || op->kind == RIP_PX_RECVMSG;
}

/* One try on a regular file or block device: the count, -1 and errno,
 * or OFFLOAD (the disk would make the thread wait). */
static ssize_t disk(rip_pxop *op, int writing, const struct iovec *v, int cnt) {
    ssize_t n = rip__px_disk_try(op, writing, v, cnt);
    return n == -2 ? OFFLOAD : n;
}

/* One try of readv or writev. */
static ssize_t attempt_vector(rip_pxop *op, int writing) {
    const struct iovec *v;
    int cnt;
    if (rest_of(op, &v, &cnt) == -1)
        return -1;
    if (op->how == HOW_UNKNOWN || op->how == HOW_SOCKET) {
        struct msghdr m = { .msg_iov = (struct iovec *)v, .msg_iovlen = (size_t)cnt };
        ssize_t n = writing ? rip__sys_sendmsg(op->fd, &m, MSG_DONTWAIT | later(op))
                            : rip__sys_recvmsg(op->fd, &m, MSG_DONTWAIT);
        if (n != -1 || errno != ENOTSOCK) {
            op->how = HOW_SOCKET;
            return n;
        }
        op->how = classify_file(op->fd);
    }
    if (op->how == HOW_DIRECT)
        return writing ? rip__sys_writev(op->fd, v, cnt) : rip__sys_readv(op->fd, v, cnt);
    if (op->how == HOW_DISK)
        return disk(op, writing, v, cnt);
    return try_file(op, writing, v, cnt);
}

/* One try of recvmsg or sendmsg: the caller's message first; once some
 * bytes moved (MSG_WAITALL, a blocking stream send), the rest of its
 * vector with no control data (that went with the first bytes). */
static ssize_t attempt_message(rip_pxop *op, int sending) {
    struct msghdr copy, *m = op->msg;
    int flags = op->flags | MSG_DONTWAIT;
    if (op->done) {
        const struct iovec *v;
        int cnt;
        if (rest_of(op, &v, &cnt) == -1)
            return -1;
        copy = *op->msg;
        copy.msg_iov = (struct iovec *)v;
        copy.msg_iovlen = (size_t)cnt;
        copy.msg_control = NULL;
        copy.msg_controllen = 0;
        if (!sending) {
            copy.msg_name = NULL;   /* the first receive said who */
            copy.msg_namelen = 0;
        }
        m = &copy;
        flags |= later(op);
    }
    return sending ? rip__sys_sendmsg(op->fd, m, flags) : rip__sys_recvmsg(op->fd, m, flags);
}

/* One attempt of the call that never blocks the thread: its result, or
 * -1 and errno (EAGAIN: it would wait), OFFLOAD or OWN_ERROR. */
static ssize_t attempt(rip_pxop *op) {
    char *at = (char *)op->buf + op->done;
    size_t left = op->len - op->done;
    switch (op->kind) {
    case RIP_PX_READ:
    case RIP_PX_WRITE: {
        if (op->how == HOW_UNKNOWN || op->how == HOW_SOCKET) {
            ssize_t n = op->kind == RIP_PX_READ ? rip__sys_recv(op->fd, at, left, MSG_DONTWAIT)
                                                : rip__sys_send(op->fd, at, left, MSG_DONTWAIT | later(op));
            if (n != -1 || errno != ENOTSOCK) {
                op->how = HOW_SOCKET;
                return n;
            }
            op->how = classify_file(op->fd);
        }
        if (op->how == HOW_DIRECT)
            return op->kind == RIP_PX_READ ? rip__sys_read(op->fd, at, left) : rip__sys_write(op->fd, at, left);
        struct iovec one = { at, left };
        if (op->how == HOW_DISK)
            return disk(op, op->kind == RIP_PX_WRITE, &one, 1);
        return try_file(op, op->kind == RIP_PX_WRITE, &one, 1);
    }
    case RIP_PX_READV:
    case RIP_PX_WRITEV:
        return attempt_vector(op, op->kind == RIP_PX_WRITEV);
    case RIP_PX_RECVMSG:
    case RIP_PX_SENDMSG:
        return attempt_message(op, op->kind == RIP_PX_SENDMSG);
    case RIP_PX_RECV:
        return rip__sys_recvfrom(op->fd, at, left, op->flags | MSG_DONTWAIT, op->addr, op->addrlen);
    case RIP_PX_SEND:
        return rip__sys_sendto(op->fd, at, left, op->flags | MSG_DONTWAIT | later(op),
                               op->daddr, op->daddrlen);
    case RIP_PX_ACCEPT:
        if (!program_nonblocking(op->fd) && !ready_now(op->fd, POLLIN)) {
            errno = EAGAIN;
            return -1;
        }
        return rip__sys_accept4(op->fd, op->addr, op->addrlen, op->flags);
    case RIP_PX_CONNECT: {
        int err = 0;
        socklen_t len = sizeof err;
        if (op->connecting) {       /* woken writable: SO_ERROR has the outcome */
            if (getsockopt(op->fd, SOL_SOCKET, SO_ERROR, &err, &len) == -1)
                return -1;
            if (err) {
                errno = err;
                return -1;
            }
            struct sockaddr_storage peer;
            len = sizeof peer;
            if (getpeername(op->fd, (struct sockaddr *)&peer, &len) == 0)
                return 0;
            if (errno == ENOTCONN)
                errno = EAGAIN;     /* a wake before the outcome: wait again */
            return -1;
        }
        int fl = rip__sys_fcntl(op->fd, F_GETFL, NULL);
        if (fl == -1)
            return -1;
        if (fl & O_NONBLOCK)        /* the program's own: EINPROGRESS is its answer */
            return rip__sys_connect(op->fd, op->daddr, op->daddrlen) == -1 ? OWN_ERROR : 0;
        if (rip__sys_fcntl(op->fd, F_SETFL, (void *)(long)(fl | O_NONBLOCK)) == -1)
            return -1;
        int r = rip__sys_connect(op->fd, op->daddr, op->daddrlen);
        int saved = errno;
        rip__sys_fcntl(op->fd, F_SETFL, (void *)(long)fl);
        errno = saved;
        if (r == -1 && errno == EINPROGRESS) {
            op->connecting = 1;
            errno = EAGAIN;
        } else if (r == -1 && errno == EAGAIN) {
            return OFFLOAD;         /* a full Unix backlog: no event will come */
        }
        return r;
    }
    }
    errno = EINVAL;
    return -1;
}

static int finish(rip_pxop *op, ssize_t result, int err) {
    op->result = result;
    op->err = err;
    free(op->rest);
    op->rest = NULL;
    return 1;
}

/* An error after some bytes moved (or were peeked): the count, as the
 * system call. */
static int finish_error(rip_pxop *op, int err) {
    size_t moved = op->done ? op->done : op->peeked;
    return moved ? finish(op, (ssize_t)moved, 0) : finish(op, -1, err);
}

/* What MSG_WAITALL means on a socket (Linux): a stream waits for every
 * byte; TCP also under MSG_PEEK (it peeks them all), a Unix stream not
 * then (what is there); a datagram or seqpacket socket ignores it. */
enum { SOCK_TCP = 1, SOCK_OTHER_STREAM, SOCK_MESSAGES };

static int sock_kind(rip_pxop *op) {
    if (!op->sock_kind) {
        int type = 0, proto = 0;
        socklen_t len = sizeof type;
        getsockopt(op->fd, SOL_SOCKET, SO_TYPE, &type, &len);
        len = sizeof proto;
        getsockopt(op->fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len);
        op->sock_kind = type != SOCK_STREAM ? SOCK_MESSAGES :
                        proto == IPPROTO_TCP ? SOCK_TCP : SOCK_OTHER_STREAM;
    }
    return op->sock_kind;
}

/* Does the call go on until all bytes moved (a blocking write or send, or
 * MSG_WAITALL on a stream)? */
static int wants_all(rip_pxop *op) {
    if (op->how == HOW_DISK)
        return 1;                   /* a file's read is short only at its end: a cached part, then the rest */
    if (op->kind == RIP_PX_WRITE || op->kind == RIP_PX_SEND || op->kind == RIP_PX_WRITEV ||
            op->kind == RIP_PX_SENDMSG)
        return 1;
    return (op->kind == RIP_PX_RECV || op->kind == RIP_PX_RECVMSG) &&
        (op->flags & MSG_WAITALL) && !(op->flags & MSG_PEEK) && sock_kind(op) != SOCK_MESSAGES;
}

/* MSG_PEEK | MSG_WAITALL on TCP: the kernel waits until every byte can be
 * peeked, or the peer has left (then what is there). */
static int peeks_all(rip_pxop *op) {
    return (op->kind == RIP_PX_RECV || op->kind == RIP_PX_RECVMSG) &&
        (op->flags & (MSG_PEEK | MSG_WAITALL)) == (MSG_PEEK | MSG_WAITALL) &&
        sock_kind(op) == SOCK_TCP;
}

/* The peer will send no more (or the socket failed): poll says so. */
static int peer_done(int fd) {
    struct pollfd p = { .fd = fd, .events = POLLIN | POLLRDHUP };
    return rip__sys_poll_now(&p, 1) == 1 && (p.revents & (POLLRDHUP | POLLHUP | POLLERR));
}

/* What the system call says when the socket's SO_RCVTIMEO/SO_SNDTIMEO
 * ran out: the count moved so far, else EAGAIN (connect: EINPROGRESS). */
static int timed_out(rip_pxop *op) {
    return finish_error(op, op->kind == RIP_PX_CONNECT ? EINPROGRESS : EAGAIN);
}

/* At the call's first wait: the end SO_RCVTIMEO (reads, accept) or
 * SO_SNDTIMEO (writes, connect) puts on it, the kernel's blocking call's
 * limit; -1 for none (0, or not a socket). */
static void ask_timeout(rip_pxop *op) {
    struct timeval tv = { 0, 0 };
    socklen_t len = sizeof tv;
    op->timeo_asked = 1;
    op->until = -1;
    if (getsockopt(op->fd, SOL_SOCKET, is_read(op) ? SO_RCVTIMEO : SO_SNDTIMEO, &tv, &len) == 0 &&
            (tv.tv_sec || tv.tv_usec))
        op->until = rip_now_ms() + rip__px_ms_at_least((int64_t)tv.tv_sec * 1000 +
                                                       (tv.tv_usec + 999) / 1000);
}

/* Queue w until the fd is ready; 1 when the call is finished instead, 0
 * when w waits, -1 to try again now (epoll cannot watch the file). */
static int wait_ready(rip_pxop *op, rip_waiter *w) {
    int dir = is_read(op) ? RIP_FD_READ : RIP_FD_WRITE;
    if (rip__deadline_passed())
        return finish_error(op, ETIMEDOUT);
    if (!op->timeo_asked)
        ask_timeout(op);
    if (op->until >= 0 && rip_now_ms() >= op->until)
        return timed_out(op);
    if ((rip__fd_flags(op->fd) & RIP_FD_REGISTERED) && !op->peeked)  /* peeked: bytes are there */
        rip__fd_set_flags(op->fd, dir == RIP_FD_READ ? RIP_FD_RDEMPTY : RIP_FD_WRFULL);
    if (rip__fd_wait(op->fd, dir, w, NULL) == -1) {
        if (errno == EPERM) {
            rip__fd_renew(op->fd);
            op->how = HOW_DIRECT;   /* epoll cannot watch it: it never waits */
            return -1;
        }
        return finish_error(op, errno);
    }
    rip__wait_limit(w, rip__fd_cancel, NULL, op->fd << 1 | dir);
    if (op->until >= 0) {           /* the socket's own timeout: its timer ends the wait too */
        op->timer.w = w;
        op->timer.cancel = rip__fd_cancel;
        op->timer.on = NULL;
        op->timer.key = op->fd << 1 | dir;
        rip__timer_start(&op->timer, op->until);
        op->armed = 1;
    }
    /* A handled signal ends the wait unless its handler has SA_RESTART
     * and nothing moved yet; SO_RCVTIMEO/SO_SNDTIMEO calls always end. */
    rip__intr_begin(op->intr, w, rip__fd_cancel, NULL, op->fd << 1 | dir, op->until < 0,
                    op->peeked ? &op->peeked : &op->done, NULL);
    op->waited = 1;
    return 0;
}

int rip__px_step(rip_pxop *op, rip_waiter *w) {
    if (!op->started) {
        op->started = 1;
        if (op->kind == RIP_PX_RECVMSG || op->kind == RIP_PX_SENDMSG) {
            op->iov = op->msg->msg_iov;
            op->iovcnt = op->msg->msg_iovlen > (size_t)IOV_MAX ? -1 : (int)op->msg->msg_iovlen;
        }
        if (op->kind >= RIP_PX_READV && check_vector(op) == -1)
            return finish(op, -1, errno);
    }
    if (op->waited) {
        int by_timeo = 0;
        rip__wait_ended(w);
        rip__intr_end(op->intr);
        op->waited = 0;
        if (op->armed) {
            op->armed = 0;
            if (op->timer.w)        /* woken before it: off the heap */
                rip__timer_cancel(&op->timer);
            else
                by_timeo = w->status == ETIMEDOUT;
        }
        if (by_timeo)
            return timed_out(op);
        if (w->status)              /* closed while we waited (EBADF), a signal (EINTR), or the deadline */
            return finish_error(op, w->status);
    }
    int dontwait = (op->kind == RIP_PX_RECV || op->kind == RIP_PX_SEND || op->kind == RIP_PX_RECVMSG ||
                    op->kind == RIP_PX_SENDMSG) && (op->flags & MSG_DONTWAIT);
    for (;;) {
        ssize_t n = attempt(op);
        if (n == -1 && errno == EINTR)
            continue;
        if (n == OFFLOAD)
            return RIP_PX_OFFLOAD;
        if (n == OWN_ERROR)
            return finish(op, -1, errno);
        if (n == -1 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (dontwait || (op->kind != RIP_PX_CONNECT && program_nonblocking(op->fd)))
                return finish_error(op, errno);
            int r = wait_ready(op, w);
            if (r >= 0)
                return r;
            continue;
        }
        if (n == -1)
            return finish_error(op, errno);
        if (op->kind == RIP_PX_ACCEPT) {
            rip__fd_renew((int)n);  /* forget whatever had this number before */
            return finish(op, n, 0);
        }
        if (op->kind == RIP_PX_CONNECT)
            return finish(op, 0, 0);
        if (!dontwait && n > 0 && (size_t)n < op->len && peeks_all(op) && !peer_done(op->fd)) {
            op->peeked = (size_t)n; /* wait for more, then peek again from the start */
            int r = wait_ready(op, w);
            if (r >= 0)
                return r;
            continue;
        }
        op->peeked = 0;
        op->done += (size_t)n;
        if (!dontwait && n > 0 && op->done < op->len && wants_all(op))
            continue;               /* the next try says EAGAIN if it must wait */
        return finish(op, (ssize_t)op->done, 0);
    }
}

void rip__px_disk_blocking(rip_pxop *op) {
    const struct iovec *v;
    int cnt, writing = !is_read(op);
    ssize_t n;
    struct iovec one = { (char *)op->buf + op->done, op->len - op->done };
    if (op->kind == RIP_PX_READ || op->kind == RIP_PX_WRITE) {
        v = &one;
        cnt = 1;
    } else if (rest_of(op, &v, &cnt) == -1) {
        finish_error(op, errno);
        return;
    }
    while ((n = writing ? rip__sys_writev(op->fd, v, cnt) : rip__sys_readv(op->fd, v, cnt)) == -1 &&
           errno == EINTR)
        ;
    if (n == -1)
        finish_error(op, errno);
    else
        finish(op, (ssize_t)(op->done + (size_t)n), 0);
}

void *rip__px_blocking(void *arg) {
    rip_pxop *op = arg;
    int r;
    if (op->kind != RIP_PX_CONNECT) {   /* a file's read or write the disk makes wait */
        rip__px_disk_blocking(op);
        return op;
    }
    while ((r = rip__sys_connect(op->fd, op->daddr, op->daddrlen)) == -1 && errno == EINTR)
        ;
    finish(op, r, r == -1 ? errno : 0);
    return op;
}

/* Linux's select(2) sets, in poll(2)'s bits. */
#define SELECT_IN (POLLIN | POLLRDNORM | POLLRDBAND | POLLHUP | POLLERR)
#define SELECT_OUT (POLLOUT | POLLWRNORM | POLLWRBAND | POLLERR)
#define SELECT_EX POLLPRI

int rip__px_select_begin(rip_pxselect *s) {
    int timeout_ms = -1;
    s->begun_ms = rip_now_ms();
    if (s->nfds < 0 || s->nfds > FD_SETSIZE)
        return s->result = -1, s->err = EINVAL, 1;
    if (s->timeout) {
        if (s->timeout->tv_sec < 0 || s->timeout->tv_usec < 0)   /* a million or more us: Linux carries them */
            return s->result = -1, s->err = EINVAL, 1;
        int64_t ms = ((int64_t)s->timeout->tv_sec + s->timeout->tv_usec / 1000000) * 1000 +
                     (s->timeout->tv_usec % 1000000 + 999) / 1000;
        ms = rip__px_ms_at_least(ms);
        timeout_ms = ms > INT_MAX ? INT_MAX : (int)ms;
    }
    struct pollfd *fds = malloc((size_t)(s->nfds ? s->nfds : 1) * sizeof *fds);
    if (!fds)
        return s->result = -1, s->err = ENOMEM, 1;
    nfds_t n = 0;
    for (int fd = 0; fd < s->nfds; fd++) {
        short ev = (short)((s->readfds && FD_ISSET(fd, s->readfds) ? POLLIN : 0) |
                           (s->writefds && FD_ISSET(fd, s->writefds) ? POLLOUT : 0) |
                           (s->exceptfds && FD_ISSET(fd, s->exceptfds) ? POLLPRI : 0));
        if (ev)
            fds[n++] = (struct pollfd){ .fd = fd, .events = ev };
    }
    s->poll = (rip_pollop){ .fds = fds, .n = n, .timeout_ms = timeout_ms, .posix = 1,
                            .sigmask = s->sigmask };
    return 0;
}

void rip__px_select_end(rip_pxselect *s) {
    struct pollfd *fds = s->poll.fds;
    int count = 0;
    s->result = s->poll.result;
    s->err = s->poll.err;
    for (nfds_t i = 0; s->result >= 0 && i < s->poll.n; i++)
        if (fds[i].revents & POLLNVAL)
            s->result = -1, s->err = EBADF;     /* select refuses a closed fd */
    if (s->result >= 0) {
        for (nfds_t i = 0; i < s->poll.n; i++) {   /* only the fds asked about were set */
            int fd = fds[i].fd;
            short got = fds[i].revents;
            if (s->readfds && FD_ISSET(fd, s->readfds) && !(got & SELECT_IN))
                FD_CLR(fd, s->readfds);
            if (s->writefds && FD_ISSET(fd, s->writefds) && !(got & SELECT_OUT))
                FD_CLR(fd, s->writefds);
            if (s->exceptfds && FD_ISSET(fd, s->exceptfds) && !(got & SELECT_EX))
                FD_CLR(fd, s->exceptfds);
            count += (s->readfds && FD_ISSET(fd, s->readfds)) +
                     (s->writefds && FD_ISSET(fd, s->writefds)) +
                     (s->exceptfds && FD_ISSET(fd, s->exceptfds));
        }
        s->result = count;
    }
    if (s->timeout && (s->result >= 0 || s->err != EINVAL)) {
        int64_t left = (int64_t)s->timeout->tv_sec * 1000000 + (int64_t)s->timeout->tv_usec -
                       (rip_now_ms() - s->begun_ms) * 1000;
        if (left < 0 || (s->result == 0))
            left = 0;               /* ran out: Linux says 0 */
        s->timeout->tv_sec = left / 1000000;
        s->timeout->tv_usec = left % 1000000;
    }
    free(fds);
    s->poll.fds = NULL;
}

int rip__px_epoll_step(rip_pxepoll *e) {
    if (!e->started) {
        e->started = 1;
        e->until = e->timeout_ms < 0 ? -1 : rip_now_ms() + rip__px_ms_at_least(e->timeout_ms);
    }
    for (;;) {
        if (e->polling) {
            if (!rip__poll_step(&e->poll))
                return 0;
            e->polling = 0;
            if (e->poll.result < 0)
                return e->result = -1, e->err = e->poll.err, 1;
        }
        int n = rip__sys_epoll_wait(e->epfd, e->events, e->maxevents, 0);
        if (n == -1 && errno == EINTR)
            continue;
        if (n != 0 || e->timeout_ms == 0)
            return e->result = n, e->err = n < 0 ? errno : 0, 1;
        int64_t left = e->until < 0 ? -1 : e->until - rip_now_ms();
        if (e->until >= 0 && left <= 0)
            return e->result = 0, e->err = 0, 1;
        e->pfd = (struct pollfd){ .fd = e->epfd, .events = POLLIN };
        e->poll = (rip_pollop){ .fds = &e->pfd, .n = 1,
                                .timeout_ms = left > INT_MAX ? INT_MAX : (int)left,
                                .posix = 1, .sigmask = e->sigmask };
        e->polling = 1;             /* an epoll fd is readable while it has events */
    }
}

int rip__px_timespec_ms(const struct timespec *ts, int *ms) {
    if (!ts) {
        *ms = -1;
        return 0;
    }
    if (ts->tv_sec < 0 || ts->tv_nsec < 0 || ts->tv_nsec > 999999999) {
        errno = EINVAL;
        return -1;
    }
    int64_t whole = ts->tv_sec > INT_MAX / 1000 ? INT_MAX :
                    rip__px_ms_at_least((int64_t)ts->tv_sec * 1000 + (ts->tv_nsec + 999999) / 1000000);
    *ms = whole > INT_MAX ? INT_MAX : (int)whole;
    return 0;
}

int64_t rip__px_ms_at_least(int64_t ms) {
    return ms > 0 ? ms + 1 : ms;
}

/* pxcall.c -- the calls of rip_posix.h with no non-blocking form, on the
 * rip and ucontext backends: each keeps its exact contract (results,
 * errno, h_errno), and waits on the offload pool's thread, not on the
 * scheduler's.  What goes where:
 *   - waitpid(pid > 0) and waitid(P_PID) for an exit: WNOHANG first; if
 *     the child still runs, its pidfd (pidfd_open, Linux 5.3) is waited on
 *     like any fd, then WNOHANG again: no thread held.  Without pidfds, or
 *     for any child (pid <= 0, wait), or stops (WUNTRACED, WCONTINUED),
 *     the call runs on the pool;
 *   - WNOHANG, LOCK_NB, F_SETLK...: direct (they never wait);
 *   - flock and fcntl(F_SETLKW): the lock is tried without waiting first;
 *     only a held lock sends the call to the pool;
 *   - open, openat: a FIFO (which waits for its other end) on the pool,
 *     anything else direct, as O_NONBLOCK (the open never waits);
 *   - pread: preadv2(RWF_NOWAIT) first, which fails with EAGAIN instead
 *     of waiting for the disk: cached data comes direct, a miss goes to
 *     the pool; pwrite, or pread where the kernel has no RWF_NOWAIT for
 *     the file: RIP_PX_DISK_MIN bytes or more on the pool, less direct;
 *   - getaddrinfo, getnameinfo, gethostbyname*, fsync, fdatasync, system:
 *     always the pool.
 * The later block: wait4 as waitpid (its rusage filled by the last,
 * WNOHANG, call), wait3 (any child) as wait; lockf(F_LOCK) as flock
 * (F_TLOCK first, the pool only when the lock is held; F_ULOCK, F_TEST
 * direct); gethostbyaddr, sync, syncfs on the pool; popen on the pool under the
 * caller's signal mask, as system (glibc's waits for the exec of sh, a
 * millisecond or more; its stream is a pipe, which stdio.c suspends on);
 * pclose on the pool
 * (glibc's: pending output written blocking on the pool's thread -- the
 * pipe's fd is left blocking --, the fd closed, the child waited for),
 * its fd first taken out of the scheduler's epoll set as fclose does. 
 * system blocks SIGCHLD in the scheduler's thread while any runs (glibc's
 * system blocks it in the caller, and ignores SIGINT and SIGQUIT in the
 * process: it still does, on the pool's thread), so a SIGCHLD handler runs
 * after system returns, as in the plain program. */
#define _GNU_SOURCE                 /* preadv2, RWF_NOWAIT, gethostbyname2, P_PID */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include "pxcall.h"
#include "../shared/sys_offload.h"

#ifndef RWF_NOWAIT
#define RWF_NOWAIT 0x00000008
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

static int no_pidfd;                /* the kernel has no pidfd_open: never ask again */
static __thread int sigchld_holds;  /* system calls of this scheduler in flight */
static __thread sigset_t sigchld_old; /* the thread's mask before the first of them */

static int done(rip_pxcall *c, long result, int err) {
    c->result = result;
    c->err = err;
    if (c->pidfd >= 0) {
        rip__fd_forget(c->pidfd);   /* wakes no one: the wait has ended */
        close(c->pidfd);
        c->pidfd = -1;
    }
    return 1;
}

static int done_call(rip_pxcall *c, long result) {
    return done(c, result, result == -1 ? errno : 0);
}

/* Queue w on the child's pidfd (made on the first wait): 0, or
 * RIP_PX_OFFLOAD when there is none (an old kernel, no fd left). */
static int wait_child(rip_pxcall *c, pid_t pid, rip_waiter *w) {
    if (rip__deadline_passed())
        return done(c, -1, ETIMEDOUT);
    if (c->pidfd < 0) {
        if (no_pidfd)
            return RIP_PX_OFFLOAD;
        c->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
        if (c->pidfd < 0) {
            if (errno == ENOSYS)
                no_pidfd = 1;
            return RIP_PX_OFFLOAD;
        }
        fcntl(c->pidfd, F_SETFD, FD_CLOEXEC);   /* a pidfd is O_CLOEXEC already; said for old kernels */
    }
    if (rip__fd_wait(c->pidfd, RIP_FD_READ, w, NULL) == -1) {
        close(c->pidfd);
        c->pidfd = -1;
        return RIP_PX_OFFLOAD;
    }
    rip__wait_limit(w, rip__fd_cancel, NULL, c->pidfd << 1 | RIP_FD_READ);
    c->waited = 1;
    return 0;
}

/* waitpid, or wait4 with its rusage. */
static pid_t wait_for(const rip_pxcall *c, int options) {
    pid_t pid = (pid_t)c->a[0].l;
    return c->kind == RIP_PXC_WAIT4 ? rip__sys_wait4(pid, c->a[1].p, options, c->a[3].p)
                                    : rip__sys_waitpid(pid, c->a[1].p, options);
}

/* waitpid, wait4, waitid: one WNOHANG try; 1 done, else wait (0 or OFFLOAD). */
static int step_wait(rip_pxcall *c, rip_waiter *w) {
    if (c->kind == RIP_PXC_WAITPID || c->kind == RIP_PXC_WAIT4) {
        pid_t pid = (pid_t)c->a[0].l;
        int options = (int)c->a[2].l;
        if (options & WNOHANG)
            return done_call(c, wait_for(c, options));
        if (pid <= 0 || (options & (WUNTRACED | WCONTINUED)))
            return RIP_PX_OFFLOAD;  /* any of several children, or a stop: no one fd tells */
        pid_t r;
        while ((r = wait_for(c, options | WNOHANG)) == -1 && errno == EINTR)
            ;
        if (r != 0)
            return done_call(c, r);
        return wait_child(c, pid, w);
    }
    idtype_t idtype = (idtype_t)c->a[0].l;
    siginfo_t *info = c->a[2].p;
    int options = (int)c->a[3].l;
    if (options & WNOHANG)
        return done_call(c, rip__sys_waitid(idtype, (id_t)c->a[1].l, info, options));
    if (idtype != P_PID || (options & (WSTOPPED | WCONTINUED)) || !info)
        return RIP_PX_OFFLOAD;
    int r;
    info->si_pid = 0;               /* WNOHANG leaves it 0 when the child runs on */
    while ((r = rip__sys_waitid(idtype, (id_t)c->a[1].l, info, options | WNOHANG)) == -1 &&
           errno == EINTR)
        ;
    if (r == -1 || info->si_pid != 0)
        return done_call(c, r);
    return wait_child(c, (pid_t)c->a[1].l, w);
}

/* Is path (relative to dirfd) a FIFO, whose open waits for its other end? */
static int is_fifo(int dirfd, const char *path) {
    struct stat st;
    return fstatat(dirfd, path, &st, 0) == 0 && S_ISFIFO(st.st_mode);
}

static int is_lock_wait(int cmd) {
    return cmd == F_SETLKW || cmd == F_OFD_SETLKW;
}

/* pread: one try that never waits for the disk. */
static int step_pread(rip_pxcall *c) {
    size_t len = (size_t)c->a[2].l;
    off_t off = (off_t)c->a[3].l;
    for (;;) {
        struct iovec v = { (char *)c->a[1].p + c->done, len - c->done };
        ssize_t n = preadv2((int)c->a[0].l, &v, 1, off + (off_t)c->done, RWF_NOWAIT);
        if (n > 0) {
            c->done += (size_t)n;
            if (c->done < len)
                continue;           /* a part was cached: the rest, or EOF, or a miss */
            return done(c, (long)c->done, 0);
        }
        if (n == 0)
            return done(c, (long)c->done, 0);
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN)
            return RIP_PX_OFFLOAD;  /* not in the page cache */
        if (errno == EOPNOTSUPP || errno == ENOSYS || errno == EINVAL) {
            if (len - c->done >= RIP_PX_DISK_MIN)
                return RIP_PX_OFFLOAD;
            n = rip__sys_pread((int)c->a[0].l, v.iov_base, v.iov_len, off + (off_t)c->done);
        }
        if (n == -1 && c->done)
            return done(c, (long)c->done, 0);
        return n == -1 ? done_call(c, -1) : done(c, (long)(c->done + (size_t)n), 0);
    }
}

int rip__pxc_step(rip_pxcall *c, rip_waiter *w) {
    if (c->waited) {                /* the child's pidfd said it changed, or the deadline */
        rip__wait_ended(w);
        c->waited = 0;
        if (w->status)
            return done(c, -1, w->status);
    }
    switch (c->kind) {
    case RIP_PXC_WAITPID:
    case RIP_PXC_WAITID:
    case RIP_PXC_WAIT4:
        return step_wait(c, w);
    case RIP_PXC_WAIT3:
        if ((int)c->a[1].l & WNOHANG)
            return done_call(c, rip__sys_wait3(c->a[0].p, (int)c->a[1].l, c->a[2].p));
        return RIP_PX_OFFLOAD;      /* any child: no one fd tells */
    case RIP_PXC_LOCKF: {
        int fd = (int)c->a[0].l, cmd = (int)c->a[1].l;
        off_t len = (off_t)c->a[2].l;
        if (cmd != F_LOCK)
            return done_call(c, rip__sys_lockf(fd, cmd, len));
        int r = rip__sys_lockf(fd, F_TLOCK, len);
        if (r == -1 && (errno == EAGAIN || errno == EACCES))
            return RIP_PX_OFFLOAD;  /* held: wait for it on the pool */
        return done_call(c, r);
    }
    case RIP_PXC_POPEN:
        pthread_sigmask(SIG_SETMASK, NULL, &c->own_mask);
        if (sigchld_holds && !sigismember(&sigchld_old, SIGCHLD))
            sigdelset(&c->own_mask, SIGCHLD);  /* held by a system in flight, not the program's */
        c->mask = &c->own_mask;
        return RIP_PX_OFFLOAD;
    case RIP_PXC_PCLOSE: {
        FILE *fp = c->a[0].p;
        if (fp && fp->_fileno >= 0)
            rip__fd_forget(fp->_fileno);    /* waits on the fd end with EBADF; it leaves the epoll set */
        return RIP_PX_OFFLOAD;
    }
    case RIP_PXC_FLOCK: {
        int fd = (int)c->a[0].l, op = (int)c->a[1].l;
        if (op & LOCK_NB || op & LOCK_UN)
            return done_call(c, rip__sys_flock(fd, op));
        int r = rip__sys_flock(fd, op | LOCK_NB);
        if (r == -1 && errno == EWOULDBLOCK)
            return RIP_PX_OFFLOAD;  /* held: wait for it on the pool */
        return done_call(c, r);
    }
    case RIP_PXC_FCNTL: {
        int fd = (int)c->a[0].l, cmd = (int)c->a[1].l;
        if (!is_lock_wait(cmd))
            return done_call(c, rip__sys_fcntl(fd, cmd, c->a[2].p));
        int r = rip__sys_fcntl(fd, cmd == F_SETLKW ? F_SETLK : F_OFD_SETLK, c->a[2].p);
        if (r == -1 && (errno == EAGAIN || errno == EACCES))
            return RIP_PX_OFFLOAD;  /* held: wait for it on the pool */
        return done_call(c, r);
    }
    case RIP_PXC_OPEN:
    case RIP_PXC_OPENAT: {
        int at = c->kind == RIP_PXC_OPENAT;
        int dirfd = at ? (int)c->a[0].l : AT_FDCWD, flags = (int)c->a[at + 1].l;
        const char *path = c->a[at].p;
        if (!(flags & O_NONBLOCK) && path && is_fifo(dirfd, path))
            return RIP_PX_OFFLOAD;  /* waits for the other end */
        return done_call(c, at ? rip__sys_openat(dirfd, path, flags, (mode_t)c->a[3].l)
                               : rip__sys_open(path, flags, (mode_t)c->a[2].l));
    }
    case RIP_PXC_PREAD:
        return step_pread(c);
    case RIP_PXC_PWRITE:
        if ((size_t)c->a[2].l >= RIP_PX_DISK_MIN)
            return RIP_PX_OFFLOAD;
        return done_call(c, (long)rip__sys_pwrite((int)c->a[0].l, c->a[1].p, (size_t)c->a[2].l,
                                                  (off_t)c->a[3].l));
    case RIP_PXC_SYSTEM:
        if (!sigchld_holds++) {     /* as glibc's system in its caller's thread */
            sigset_t chld;
            sigemptyset(&chld);
            sigaddset(&chld, SIGCHLD);
            pthread_sigmask(SIG_BLOCK, &chld, &sigchld_old);
        }
        c->sigchld_held = 1;
        c->mask = &sigchld_old;     /* constant while any system of this thread runs */
        return RIP_PX_OFFLOAD;
    default:                        /* getaddrinfo, getnameinfo, gethostbyname*, gethostbyaddr, fsync, fdatasync, wait, sync, syncfs */
        return RIP_PX_OFFLOAD;
    }
}

void *rip__pxc_blocking(void *arg) {
    rip_pxcall *c = arg;
    long r = -1;
    errno = 0;
    switch (c->kind) {
    case RIP_PXC_WAITPID:
        while ((r = rip__sys_waitpid((pid_t)c->a[0].l, c->a[1].p, (int)c->a[2].l)) == -1 &&
               errno == EINTR)
            ;
        break;
    case RIP_PXC_WAIT:
        while ((r = rip__sys_wait(c->a[0].p)) == -1 && errno == EINTR)
            ;
        break;
    case RIP_PXC_WAITID:
        while ((r = rip__sys_waitid((idtype_t)c->a[0].l, (id_t)c->a[1].l, c->a[2].p,
                                    (int)c->a[3].l)) == -1 && errno == EINTR)
            ;
        break;
    case RIP_PXC_GETADDRINFO:
        r = rip__sys_getaddrinfo(c->a[0].p, c->a[1].p, c->a[2].p, c->a[3].p);
        c->err = errno;             /* EAI_SYSTEM says errno has the reason */
        c->result = r;
        return c;
    case RIP_PXC_GETNAMEINFO:
        r = rip__sys_getnameinfo(c->a[0].p, (socklen_t)c->a[1].l, c->a[2].p, (socklen_t)c->a[3].l,
                                 c->a[4].p, (socklen_t)c->a[5].l, (int)c->a[6].l);
        c->err = errno;
        c->result = r;
        return c;
    case RIP_PXC_GETHOSTBYNAME:
    case RIP_PXC_GETHOSTBYNAME2:
        c->presult = c->kind == RIP_PXC_GETHOSTBYNAME ? rip__sys_gethostbyname(c->a[0].p)
                                                      : rip__sys_gethostbyname2(c->a[0].p, (int)c->a[1].l);
        c->herr = h_errno;
        c->err = errno;
        return c;
    case RIP_PXC_FSYNC:
        r = rip__sys_fsync((int)c->a[0].l);
        break;
    case RIP_PXC_WAIT4:
        while ((r = rip__sys_wait4((pid_t)c->a[0].l, c->a[1].p, (int)c->a[2].l, c->a[3].p)) == -1 &&
               errno == EINTR)
            ;
        break;
    case RIP_PXC_WAIT3:
        while ((r = rip__sys_wait3(c->a[0].p, (int)c->a[1].l, c->a[2].p)) == -1 && errno == EINTR)
            ;
        break;
    case RIP_PXC_GETHOSTBYADDR:
        c->presult = rip__sys_gethostbyaddr(c->a[0].p, (socklen_t)c->a[1].l, (int)c->a[2].l);
        c->herr = h_errno;
        c->err = errno;
        return c;
    case RIP_PXC_SYNC:
        rip__sys_sync();
        r = 0;
        break;
    case RIP_PXC_SYNCFS:
        r = rip__sys_syncfs((int)c->a[0].l);
        break;
    case RIP_PXC_LOCKF:
        while ((r = rip__sys_lockf((int)c->a[0].l, (int)c->a[1].l, (off_t)c->a[2].l)) == -1 &&
               errno == EINTR)
            ;
        break;
    case RIP_PXC_POPEN: {           /* under the caller's mask: the command inherits it, not the pool's (all blocked) */
        sigset_t pools;
        pthread_sigmask(SIG_SETMASK, c->mask, &pools);
        c->presult = rip__sys_popen(c->a[0].p, c->a[1].p);
        c->err = errno;
        pthread_sigmask(SIG_SETMASK, &pools, NULL);
        return c;
    }
    case RIP_PXC_PCLOSE:
        r = rip__sys_pclose(c->a[0].p);
        break;
    case RIP_PXC_FDATASYNC:
        r = rip__sys_fdatasync((int)c->a[0].l);
        break;
    case RIP_PXC_SYSTEM: {          /* under the caller's mask: the command inherits it, not the pool's (all blocked) */
        sigset_t pools;
        pthread_sigmask(SIG_SETMASK, c->mask, &pools);
        r = rip__sys_system(c->a[0].p);
        int err = errno;
        pthread_sigmask(SIG_SETMASK, &pools, NULL);
        errno = err;
        break;
    }
    case RIP_PXC_FLOCK:
        while ((r = rip__sys_flock((int)c->a[0].l, (int)c->a[1].l)) == -1 && errno == EINTR)
            ;
        break;
    case RIP_PXC_FCNTL:
        while ((r = rip__sys_fcntl((int)c->a[0].l, (int)c->a[1].l, c->a[2].p)) == -1 &&
               errno == EINTR)
            ;
        break;
    case RIP_PXC_OPEN:
        while ((r = rip__sys_open(c->a[0].p, (int)c->a[1].l, (mode_t)c->a[2].l)) == -1 &&
               errno == EINTR)
            ;
        break;
    case RIP_PXC_OPENAT:
        while ((r = rip__sys_openat((int)c->a[0].l, c->a[1].p, (int)c->a[2].l,
                                    (mode_t)c->a[3].l)) == -1 && errno == EINTR)
            ;
        break;
    case RIP_PXC_PREAD:
    case RIP_PXC_PWRITE: {
        char *at = (char *)c->a[1].p + c->done;
        size_t left = (size_t)c->a[2].l - c->done;
        off_t off = (off_t)c->a[3].l + (off_t)c->done;
        ssize_t n = c->kind == RIP_PXC_PREAD ? rip__sys_pread((int)c->a[0].l, at, left, off)
                                             : rip__sys_pwrite((int)c->a[0].l, at, left, off);
        if (n == -1 && c->done)     /* an error after some bytes: the count, as the system call */
            r = (long)c->done, errno = 0;
        else
            r = n == -1 ? -1 : (long)(c->done + (size_t)n);
        break;
    }
    }
    c->result = r;
    c->err = r == -1 ? errno : 0;
    return c;
}

void rip__pxc_timed_out(rip_pxcall *c) {
    c->result = -1;
    c->presult = NULL;
    c->err = ETIMEDOUT;
    c->herr = TRY_AGAIN;
}

void rip__pxc_deliver(rip_pxcall *c) {
    if (c->sigchld_held) {          /* the last system of this thread lets SIGCHLD in again */
        c->sigchld_held = 0;
        if (!--sigchld_holds)
            pthread_sigmask(SIG_SETMASK, &sigchld_old, NULL);
    }
    switch (c->kind) {
    case RIP_PXC_GETADDRINFO:
        if (c->result == EAI_SYSTEM)
            errno = c->err;
        if (c->err == ETIMEDOUT && c->result == -1)
            c->result = EAI_AGAIN, errno = ETIMEDOUT;  /* the deadline: a temporary failure */
        return;
    case RIP_PXC_GETNAMEINFO:
        if (c->result == EAI_SYSTEM)
            errno = c->err;
        if (c->err == ETIMEDOUT && c->result == -1)
            c->result = EAI_AGAIN, errno = ETIMEDOUT;
        return;
    case RIP_PXC_GETHOSTBYNAME:
    case RIP_PXC_GETHOSTBYNAME2:
    case RIP_PXC_GETHOSTBYADDR:
        if (!c->presult) {
            h_errno = c->herr;
            errno = c->err;
        }
        return;
    case RIP_PXC_POPEN:
        if (!c->presult)
            errno = c->err;
        return;
    default:
        if (c->result == -1)
            errno = c->err;         /* success leaves errno alone, as the system calls do */
    }
}

/* read and write on a regular file or block device (posix.c). */
ssize_t rip__px_disk_try(rip_pxop *op, int writing, const struct iovec *v, int cnt) {
    size_t left = op->len - op->done;
    if (!writing) {
        ssize_t n = preadv2(op->fd, v, cnt, -1, RWF_NOWAIT);
        if (n >= 0 || (errno != EAGAIN && errno != EOPNOTSUPP && errno != ENOSYS && errno != EINVAL))
            return n;
        if (errno == EAGAIN)
            return -2;              /* not in the page cache */
    }
    if (left >= RIP_PX_DISK_MIN)
        return -2;
    return writing ? rip__sys_writev(op->fd, v, cnt) : rip__sys_readv(op->fd, v, cnt);
}

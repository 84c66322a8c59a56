/* catch.c -- blocking calls made in a task by code ripper did not rip, on
 * the rip backend under --posix: a library compiled on its own, a plain
 * function ripper left plain (one used through a function pointer), a
 * library's call through a pointer.  Such code cannot suspend: it runs on
 * the task's C stack.  `ripcc --posix` links the rip backend with
 * -Wl,--wrap=NAME for every call of rip_posix.h (as ucontext), so that
 * code's read goes to __wrap_read here (the runtime's own calls and the
 * ripped code's rip_posix_read do not), which:
 *   - outside a task, or when the call cannot wait (the fd is ready, the
 *     program's own O_NONBLOCK, MSG_DONTWAIT, a zero timeout, WNOHANG,
 *     LOCK_NB, a free lock, a file that is not a FIFO, pread and pwrite
 *     of a file): calls the library, direct;
 *   - else says once on stderr, naming the call, that it was caught, and
 *     runs the call on the offload pool while this thread runs the other
 *     tasks from inside this one (rip__offload_nested): no stall of the
 *     scheduler.  The caught task resumes only when the tasks run inside
 *     it have returned to it: a task caught in turn inside delays it until
 *     its own call returns (nested, last in first out).
 * errno (and h_errno) come back from the pool's thread on failure. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/file.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "rip_private.h"
#include "core.h"
#include "../shared/sys_offload.h"

extern int __real_fcntl(int, int, ...) __attribute__((weak)); /* fcntl past __wrap_fcntl below */

/* Once per name: a caught call says so. */
static void caught(const char *name, volatile int *said, void *(*job)(void *), void *call) {
    if (!__atomic_exchange_n(said, 1, __ATOMIC_RELAXED))
        rip__warn("'%s' was called in a task by code ripper did not rip (a library built "
                  "on its own, or a call through a function pointer): it waits on the "
                  "offload pool while the other tasks run", name);
    rip__offload_nested(job, call);
}

/* caught, with job run under the caller's signal mask, which a command that
 * system or popen starts inherits (a pool thread blocks every signal). */
struct masked_job {
    void *(*job)(void *);           /* the call's job */
    void *call;                     /* its argument */
    sigset_t mask;                  /* the caller's signal mask */
};
static void *run_masked(void *p) {
    struct masked_job *m = p;
    sigset_t pools;
    pthread_sigmask(SIG_SETMASK, &m->mask, &pools);
    m->job(m->call);
    pthread_sigmask(SIG_SETMASK, &pools, NULL);
    return p;
}
static void caught_masked(const char *name, volatile int *said, void *(*job)(void *), void *call) {
    struct masked_job m = { .job = job, .call = call };
    pthread_sigmask(SIG_SETMASK, NULL, &m.mask);
    caught(name, said, run_masked, &m);
}

/* Did the program put fd in O_NONBLOCK (then its calls never wait)? */
static int own_nonblocking(int fd) {
    int fl = __real_fcntl ? __real_fcntl(fd, F_GETFL) : fcntl(fd, F_GETFL);
    return fl != -1 && (fl & O_NONBLOCK);
}

/* Would a blocking call on fd in direction `events` return at once? */
static int fd_ready(int fd, short events) {
    struct pollfd p = { .fd = fd, .events = events };
    int n;
    while ((n = rip__sys_poll_now(&p, 1)) == -1 && errno == EINTR)
        ;
    return n != 0 || own_nonblocking(fd); /* ready (or an error the call will report), or it never waits */
}

#define IN_TASK (rip__current() != NULL)
#define FAILS(r) ((r) == -1)
#define NULLS(r) ((r) == NULL)
#define NONZERO(r) ((r) != 0)

#define CALL_BODY(name, fails, init, args)                                     \
    if (!IN_TASK || direct)                                                    \
        return __real_##name args;                                             \
    static volatile int said;                                                  \
    struct name##_call c = init;                                               \
    CAUGHT(#name, &said, name##_job, &c);                                      \
    if (fails(c.r)) {                                                          \
        errno = c.err;                                                         \
        WHEN_HOST(c);                                                          \
    }                                                                          \
    return c.r;

#define WHEN_HOST(c) (void)0
#define CAUGHT caught         /* how CALL_BODY runs the job (system, popen: caught_masked) */

/* CATCHn(ret, name, T1..Tn, fails, DIRECT) defines __wrap_name and the
 * job that runs it on the pool: struct name_call holds the arguments
 * (a1..an), the result (r), errno (err) and, for the one-argument and
 * two-argument calls, h_errno (herr) as the pool's thread left them;
 * DIRECT, in terms of a1..an, says the call cannot wait; fails(r) that
 * it failed (errno then comes back). */
#define CATCH1(ret, name, T1, fails, DIRECT)                                   \
    extern ret __real_##name(T1) __attribute__((weak));                        \
    struct name##_call { T1 a1; ret r; int err; int herr; };                   \
    static void *name##_job(void *p) {                                         \
        struct name##_call *c = p;                                             \
        errno = 0;                                                             \
        c->r = __real_##name(c->a1);                                           \
        c->err = errno;                                                        \
        c->herr = h_errno;                                                     \
        return p;                                                              \
    }                                                                          \
    ret __wrap_##name(T1 a1) {                                                 \
        int direct = IN_TASK ? (DIRECT) : 1;                                                 \
        CALL_BODY(name, fails, { .a1 = a1 }, (a1))                                   \
    }

#define CATCH2(ret, name, T1, T2, fails, DIRECT)                               \
    extern ret __real_##name(T1, T2) __attribute__((weak));                    \
    struct name##_call { T1 a1; T2 a2; ret r; int err; int herr; };            \
    static void *name##_job(void *p) {                                         \
        struct name##_call *c = p;                                             \
        errno = 0;                                                             \
        c->r = __real_##name(c->a1, c->a2);                                    \
        c->err = errno;                                                        \
        c->herr = h_errno;                                                     \
        return p;                                                              \
    }                                                                          \
    ret __wrap_##name(T1 a1, T2 a2) {                                          \
        int direct = IN_TASK ? (DIRECT) : 1;                                                 \
        CALL_BODY(name, fails, { .a1 = a1 COMMA .a2 = a2 }, (a1, a2))                      \
    }

#define CATCH3(ret, name, T1, T2, T3, fails, DIRECT)                           \
    extern ret __real_##name(T1, T2, T3) __attribute__((weak));                \
    struct name##_call { T1 a1; T2 a2; T3 a3; ret r; int err; };               \
    static void *name##_job(void *p) {                                         \
        struct name##_call *c = p;                                             \
        errno = 0;                                                             \
        c->r = __real_##name(c->a1, c->a2, c->a3);                             \
        c->err = errno;                                                        \
        return p;                                                              \
    }                                                                          \
    ret __wrap_##name(T1 a1, T2 a2, T3 a3) {                                   \
        int direct = IN_TASK ? (DIRECT) : 1;                                                 \
        CALL_BODY(name, fails, { .a1 = a1 COMMA .a2 = a2 COMMA .a3 = a3 }, (a1, a2, a3))         \
    }

#define CATCH4(ret, name, T1, T2, T3, T4, fails, DIRECT)                       \
    extern ret __real_##name(T1, T2, T3, T4) __attribute__((weak));            \
    struct name##_call { T1 a1; T2 a2; T3 a3; T4 a4; ret r; int err; };        \
    static void *name##_job(void *p) {                                         \
        struct name##_call *c = p;                                             \
        errno = 0;                                                             \
        c->r = __real_##name(c->a1, c->a2, c->a3, c->a4);                      \
        c->err = errno;                                                        \
        return p;                                                              \
    }                                                                          \
    ret __wrap_##name(T1 a1, T2 a2, T3 a3, T4 a4) {                            \
        int direct = IN_TASK ? (DIRECT) : 1;                                                 \
        CALL_BODY(name, fails, { .a1 = a1 COMMA .a2 = a2 COMMA .a3 = a3 COMMA .a4 = a4 }, (a1, a2, a3, a4)) \
    }

#define CATCH5(ret, name, T1, T2, T3, T4, T5, fails, DIRECT)                   \
    extern ret __real_##name(T1, T2, T3, T4, T5) __attribute__((weak));        \
    struct name##_call { T1 a1; T2 a2; T3 a3; T4 a4; T5 a5; ret r; int err; }; \
    static void *name##_job(void *p) {                                         \
        struct name##_call *c = p;                                             \
        errno = 0;                                                             \
        c->r = __real_##name(c->a1, c->a2, c->a3, c->a4, c->a5);               \
        c->err = errno;                                                        \
        return p;                                                              \
    }                                                                          \
    ret __wrap_##name(T1 a1, T2 a2, T3 a3, T4 a4, T5 a5) {                     \
        int direct = IN_TASK ? (DIRECT) : 1;                                                 \
        CALL_BODY(name, fails, { .a1 = a1 COMMA .a2 = a2 COMMA .a3 = a3 COMMA .a4 = a4 COMMA .a5 = a5 },     \
                  (a1, a2, a3, a4, a5))                                        \
    }

#define CATCH6(ret, name, T1, T2, T3, T4, T5, T6, fails, DIRECT)               \
    extern ret __real_##name(T1, T2, T3, T4, T5, T6) __attribute__((weak));    \
    struct name##_call { T1 a1; T2 a2; T3 a3; T4 a4; T5 a5; T6 a6; ret r; int err; }; \
    static void *name##_job(void *p) {                                         \
        struct name##_call *c = p;                                             \
        errno = 0;                                                             \
        c->r = __real_##name(c->a1, c->a2, c->a3, c->a4, c->a5, c->a6);        \
        c->err = errno;                                                        \
        return p;                                                              \
    }                                                                          \
    ret __wrap_##name(T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6) {              \
        int direct = IN_TASK ? (DIRECT) : 1;                                                 \
        CALL_BODY(name, fails, { .a1 = a1 COMMA .a2 = a2 COMMA .a3 = a3 COMMA .a4 = a4 COMMA .a5 = a5 COMMA .a6 = a6 }, \
                  (a1, a2, a3, a4, a5, a6))                                    \
    }

#define CATCH7(ret, name, T1, T2, T3, T4, T5, T6, T7, fails, DIRECT)           \
    extern ret __real_##name(T1, T2, T3, T4, T5, T6, T7) __attribute__((weak)); \
    struct name##_call { T1 a1; T2 a2; T3 a3; T4 a4; T5 a5; T6 a6; T7 a7; ret r; int err; }; \
    static void *name##_job(void *p) {                                         \
        struct name##_call *c = p;                                             \
        errno = 0;                                                             \
        c->r = __real_##name(c->a1, c->a2, c->a3, c->a4, c->a5, c->a6, c->a7); \
        c->err = errno;                                                        \
        return p;                                                              \
    }                                                                          \
    ret __wrap_##name(T1 a1, T2 a2, T3 a3, T4 a4, T5 a5, T6 a6, T7 a7) {       \
        int direct = IN_TASK ? (DIRECT) : 1;                                                 \
        CALL_BODY(name, fails, { .a1 = a1 COMMA .a2 = a2 COMMA .a3 = a3 COMMA .a4 = a4 COMMA .a5 = a5 COMMA .a6 = a6 COMMA .a7 = a7 }, \
                  (a1, a2, a3, a4, a5, a6, a7))                                \
    }

#define COMMA ,

/* The fd calls: direct when the fd is ready or the call never waits. */
CATCH3(ssize_t, read, int, void *, size_t, FAILS, fd_ready(a1, POLLIN))
CATCH3(ssize_t, write, int, const void *, size_t, FAILS, fd_ready(a1, POLLOUT))
CATCH3(ssize_t, readv, int, const struct iovec *, int, FAILS, fd_ready(a1, POLLIN))
CATCH3(ssize_t, writev, int, const struct iovec *, int, FAILS, fd_ready(a1, POLLOUT))
CATCH4(ssize_t, recv, int, void *, size_t, int, FAILS, (a4 & MSG_DONTWAIT) || fd_ready(a1, POLLIN))
CATCH4(ssize_t, send, int, const void *, size_t, int, FAILS,
       (a4 & MSG_DONTWAIT) || fd_ready(a1, POLLOUT))
CATCH6(ssize_t, recvfrom, int, void *, size_t, int, struct sockaddr *, socklen_t *, FAILS,
       (a4 & MSG_DONTWAIT) || fd_ready(a1, POLLIN))
CATCH6(ssize_t, sendto, int, const void *, size_t, int, const struct sockaddr *, socklen_t, FAILS,
       (a4 & MSG_DONTWAIT) || fd_ready(a1, POLLOUT))
CATCH3(ssize_t, recvmsg, int, struct msghdr *, int, FAILS, (a3 & MSG_DONTWAIT) || fd_ready(a1, POLLIN))
CATCH3(ssize_t, sendmsg, int, const struct msghdr *, int, FAILS,
       (a3 & MSG_DONTWAIT) || fd_ready(a1, POLLOUT))
CATCH3(int, accept, int, struct sockaddr *, socklen_t *, FAILS, fd_ready(a1, POLLIN))
CATCH4(int, accept4, int, struct sockaddr *, socklen_t *, int, FAILS, fd_ready(a1, POLLIN))
CATCH3(int, connect, int, const struct sockaddr *, socklen_t, FAILS, own_nonblocking(a1))
/* Waits with a timeout: direct when it is zero. */
CATCH3(int, poll, struct pollfd *, nfds_t, int, FAILS, a3 == 0)
CATCH5(int, select, int, fd_set *, fd_set *, fd_set *, struct timeval *, FAILS,
       a5 && a5->tv_sec == 0 && a5->tv_usec == 0)
CATCH4(int, epoll_wait, int, struct epoll_event *, int, int, FAILS, a4 == 0)
CATCH1(unsigned int, sleep, unsigned int, NONZERO, a1 == 0)
CATCH1(int, usleep, useconds_t, FAILS, a1 == 0)
CATCH2(int, nanosleep, const struct timespec *, struct timespec *, FAILS,
       !a1 || (a1->tv_sec == 0 && a1->tv_nsec == 0))
/* The calls with no non-blocking form (core/pxcall.c says which wait). */
CATCH3(pid_t, waitpid, pid_t, int *, int, FAILS, (a3 & WNOHANG) != 0)
CATCH1(pid_t, wait, int *, FAILS, 0)
CATCH4(int, waitid, idtype_t, id_t, siginfo_t *, int, FAILS, (a4 & WNOHANG) != 0)
CATCH4(int, getaddrinfo, const char *, const char *, const struct addrinfo *, struct addrinfo **,
       NONZERO, 0)
CATCH7(int, getnameinfo, const struct sockaddr *, socklen_t, char *, socklen_t, char *, socklen_t,
       int, NONZERO, 0)
#undef WHEN_HOST
#define WHEN_HOST(c) (h_errno = (c).herr)
CATCH1(struct hostent *, gethostbyname, const char *, NULLS, 0)
CATCH2(struct hostent *, gethostbyname2, const char *, int, NULLS, 0)
#undef WHEN_HOST
#define WHEN_HOST(c) (void)0
CATCH1(int, fsync, int, FAILS, 0)
CATCH1(int, fdatasync, int, FAILS, 0)

/* system: run under the caller's signal mask (caught_masked). */
#undef CAUGHT
#define CAUGHT caught_masked
CATCH1(int, system, const char *, FAILS, 0)
#undef CAUGHT
#define CAUGHT caught
CATCH2(int, flock, int, int, FAILS,
       (a2 & (LOCK_NB | LOCK_UN)) || __real_flock(a1, a2 | LOCK_NB) == 0 || errno != EWOULDBLOCK)
CATCH4(ssize_t, pread, int, void *, size_t, off_t, FAILS, 1)
CATCH4(ssize_t, pwrite, int, const void *, size_t, off_t, FAILS, 1)

/* The variadic three: their optional argument made explicit. */
struct fcntl_call {
    int a1, a2;                     /* fd, cmd */
    void *a3;                       /* the lock */
    int r;                          /* fcntl's result */
    int err;                        /* the pool thread's errno after it */
};
static void *fcntl_job(void *p) {
    struct fcntl_call *c = p;
    errno = 0;
    c->r = __real_fcntl(c->a1, c->a2, c->a3);
    c->err = errno;
    return p;
}
int __wrap_fcntl(int fd, int cmd, ...) {
    va_list ap;
    va_start(ap, cmd);
    void *arg = va_arg(ap, void *);    /* an int or a pointer, read as glibc reads it */
    va_end(ap);
    int waits = cmd == F_SETLKW || cmd == F_OFD_SETLKW;
    if (!IN_TASK || !waits)
        return __real_fcntl(fd, cmd, arg);
    int r = __real_fcntl(fd, cmd == F_SETLKW ? F_SETLK : F_OFD_SETLK, arg);
    if (r == 0 || (errno != EAGAIN && errno != EACCES))
        return r;                   /* taken, or an error the waiting call would give too */
    static volatile int said;
    struct fcntl_call c = { fd, cmd, arg, 0, 0 };
    caught("fcntl", &said, fcntl_job, &c);
    if (c.r == -1)
        errno = c.err;
    return c.r;
}

static int is_fifo(int dirfd, const char *path) {
    struct stat st;
    return path && fstatat(dirfd, path, &st, 0) == 0 && S_ISFIFO(st.st_mode);
}

extern int __real_openat(int, const char *, int, ...) __attribute__((weak));
struct openat_call {
    int dirfd;                      /* openat's arguments (AT_FDCWD for open) */
    const char *path;
    int flags;
    mode_t mode;
    int r;                          /* the new fd, or -1 */
    int err;                        /* the pool thread's errno after it */
};
static void *openat_job(void *p) {
    struct openat_call *c = p;
    errno = 0;
    c->r = __real_openat(c->dirfd, c->path, c->flags, c->mode);
    c->err = errno;
    return p;
}

static int open_caught(int dirfd, const char *path, int flags, mode_t mode) {
    static volatile int said;
    struct openat_call c = { dirfd, path, flags, mode, 0, 0 };
    caught("open", &said, openat_job, &c);
    if (c.r == -1)
        errno = c.err;
    return c.r;
}

extern int __real_open(const char *, int, ...) __attribute__((weak));
int __wrap_open(const char *path, int flags, ...) {
    mode_t mode = 0;
    RIP_MODE_OF(flags, flags, mode);
    if (!IN_TASK || (flags & O_NONBLOCK) || !is_fifo(AT_FDCWD, path))
        return __real_open(path, flags, mode);
    return open_caught(AT_FDCWD, path, flags, mode);
}

int __wrap_openat(int dirfd, const char *path, int flags, ...) {
    mode_t mode = 0;
    RIP_MODE_OF(flags, flags, mode);
    if (!IN_TASK || (flags & O_NONBLOCK) || !is_fifo(dirfd, path))
        return __real_openat(dirfd, path, flags, mode);
    return open_caught(dirfd, path, flags, mode);
}

/* The later block (core/pxcall.c says which wait). */
CATCH4(pid_t, wait4, pid_t, int *, int, struct rusage *, FAILS, (a3 & WNOHANG) != 0)
CATCH3(pid_t, wait3, int *, int, struct rusage *, FAILS, (a2 & WNOHANG) != 0)
CATCH1(int, syncfs, int, FAILS, 0)
CATCH3(int, lockf, int, int, off_t, FAILS,
       a2 != F_LOCK || __real_lockf(a1, F_TLOCK, a3) == 0 || (errno != EAGAIN && errno != EACCES))

/* gethostbyaddr: h_errno comes back too (CATCH3 carries no herr). */
extern struct hostent *__real_gethostbyaddr(const void *, socklen_t, int) __attribute__((weak));
struct gethostbyaddr_call {
    const void *addr;               /* gethostbyaddr's arguments */
    socklen_t len;
    int type;
    struct hostent *r;              /* its result */
    int err, herr;                  /* the pool thread's errno and h_errno after it */
};
static void *gethostbyaddr_job(void *p) {
    struct gethostbyaddr_call *c = p;
    errno = 0;
    c->r = __real_gethostbyaddr(c->addr, c->len, c->type);
    c->err = errno;
    c->herr = h_errno;
    return p;
}
struct hostent *__wrap_gethostbyaddr(const void *addr, socklen_t len, int type) {
    if (!IN_TASK)
        return __real_gethostbyaddr(addr, len, type);
    static volatile int said;
    struct gethostbyaddr_call c = { addr, len, type, NULL, 0, 0 };
    caught("gethostbyaddr", &said, gethostbyaddr_job, &c);
    if (!c.r) {
        errno = c.err;
        h_errno = c.herr;
    }
    return c.r;
}

/* sync: no result. */
extern void __real_sync(void) __attribute__((weak));
static void *sync_job(void *p) {
    __real_sync();
    return p;
}
void __wrap_sync(void) {
    if (!IN_TASK) {
        __real_sync();
        return;
    }
    static volatile int said;
    caught("sync", &said, sync_job, NULL);
}

/* popen: run under the caller's signal mask (caught_masked), as system. */
#undef CAUGHT
#define CAUGHT caught_masked
CATCH2(FILE *, popen, const char *, const char *, NULLS, 0)
#undef CAUGHT
#define CAUGHT caught

/* pclose: the stream's fd leaves the scheduler's epoll set first (its
 * waiters wake with EBADF), as fclose. */
extern int __real_pclose(FILE *) __attribute__((weak));
struct pclose_call {
    FILE *fp;                       /* pclose's argument */
    int r;                          /* its result */
    int err;                        /* the pool thread's errno after it */
};
static void *pclose_job(void *p) {
    struct pclose_call *c = p;
    errno = 0;
    c->r = __real_pclose(c->fp);
    c->err = errno;
    return p;
}
int __wrap_pclose(FILE *fp) {
    if (!IN_TASK)
        return __real_pclose(fp);
    if (fp && fp->_fileno >= 0)
        rip__fd_forget(fp->_fileno);
    static volatile int said;
    struct pclose_call c = { fp, 0, 0 };
    caught("pclose", &said, pclose_job, &c);
    if (c.r == -1)
        errno = c.err;
    return c.r;
}

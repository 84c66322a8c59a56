/* pxcall.h -- the calls of rip_posix.h that have no non-blocking form
 * (waitpid, getaddrinfo, fsync, system, flock, open, pread...), stepped
 * like an fd call by the rip and ucontext backends (pxcall.c).  A step
 * either finishes the call at once (WNOHANG, LOCK_NB, a lock nobody
 * holds, cached file data), or queues the task on an fd (a child's
 * pidfd), or says the call must block: the backend then runs
 * rip__pxc_blocking on the offload pool while the task waits. */
#ifndef RIP_PXCALL_H
#define RIP_PXCALL_H

#include <signal.h>
#include <sys/types.h>
#include "core.h"

enum { RIP_PXC_WAITPID, RIP_PXC_WAIT, RIP_PXC_WAITID, RIP_PXC_GETADDRINFO, RIP_PXC_GETNAMEINFO,
       RIP_PXC_GETHOSTBYNAME, RIP_PXC_GETHOSTBYNAME2, RIP_PXC_FSYNC, RIP_PXC_FDATASYNC,
       RIP_PXC_SYSTEM, RIP_PXC_FLOCK, RIP_PXC_FCNTL, RIP_PXC_OPEN, RIP_PXC_OPENAT,
       RIP_PXC_PREAD, RIP_PXC_PWRITE,
       /* the later block */
       RIP_PXC_WAIT4, RIP_PXC_WAIT3, RIP_PXC_GETHOSTBYADDR, RIP_PXC_SYNC, RIP_PXC_SYNCFS,
       RIP_PXC_LOCKF, RIP_PXC_POPEN, RIP_PXC_PCLOSE };

typedef union {
    long l;                         /* an integer argument (int, pid_t, off_t, socklen_t) */
    void *p;                        /* a pointer argument */
} rip_pxarg;

typedef struct {
    int kind;                       /* RIP_PXC_* */
    rip_pxarg a[7];                 /* the call's arguments, in order (fcntl's third, open's mode included) */
    int pidfd;                      /* waitpid, waitid, wait4: the child's pidfd while the task waits on it, else -1 */
    int waited;                     /* queued on pidfd: the next step begins by ending that wait */
    size_t done;                    /* pread, pwrite: bytes moved before the rest went to the pool */
    int sigchld_held;               /* system: this call blocked SIGCHLD in the scheduler's thread */
    const void *mask;               /* system, popen: the caller's signal mask (a sigset_t), which the command inherits */
    sigset_t own_mask;              /* popen: that mask, kept here */
    long result;                    /* when done: an integer result (int, pid_t, ssize_t) */
    void *presult;                  /* when done: gethostbyname's (gethostbyaddr's, popen's) result */
    int err;                        /* when done: errno (the pool thread's, carried back) */
    int herr;                       /* when done: h_errno (gethostbyname*, gethostbyaddr) */
} rip_pxcall;

int   rip__pxc_step(rip_pxcall *c, rip_waiter *w); /* 1 done (result, err set), 0 w queued: wait, RIP_PX_OFFLOAD: run rip__pxc_blocking(c) on the pool */
void *rip__pxc_blocking(void *c);             /* the call itself, blocking (an offload job): sets result, err */
void  rip__pxc_timed_out(rip_pxcall *c);      /* the task's deadline dropped the job before it ran: -1 and ETIMEDOUT */
void  rip__pxc_deliver(rip_pxcall *c);        /* done: errno (on failure) and h_errno into the calling thread */

/* read and write of rip_posix.h on a regular file or block device
 * (posix.c calls it): one try that never waits for the disk. */
ssize_t rip__px_disk_try(rip_pxop *op, int writing, const struct iovec *v, int cnt); /* the count, or -1 and errno, or -2 (the rest must be read or written on the pool) */
void rip__px_disk_blocking(rip_pxop *op);     /* the rest read or written blocking (an offload job): sets result, err */

#define RIP_PX_DISK_MIN (256 * 1024) /* a write (or a read where the kernel cannot tell a cache miss) of at least this many bytes goes to the pool: its copy costs about an offload round trip (docs/posix.md) */

#endif /* RIP_PXCALL_H */

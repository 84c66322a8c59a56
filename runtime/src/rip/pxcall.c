/* pxcall.c -- the calls of rip_posix.h with no non-blocking form on the
 * rip backend: one hand-written frame for all, stepping core/pxcall.c,
 * waiting on a child's pidfd or on the offload pool between steps. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include "rip_private.h"
#include "../core/pxcall.h"
#include "../shared/sys_offload.h"     /* RIP_MODE_OF */
#include "rip_posix.h"

struct pxc_frame {
    rip_frame hdr;
    union { int i; pid_t pid; ssize_t n; struct hostent *h; FILE *fp; } result; /* RIP_RESULT slot, as the call's type */
    rip_pxcall c;                   /* the call in progress */
    rip_waiter waiter;              /* its place on the pidfd's wait list */
    rip_job job;                    /* the call on the offload pool */
};

static int pxc_done(struct pxc_frame *F) {
    rip__pxc_deliver(&F->c);
    switch (F->c.kind) {
    case RIP_PXC_GETHOSTBYNAME:
    case RIP_PXC_GETHOSTBYNAME2:
    case RIP_PXC_GETHOSTBYADDR:
        F->result.h = F->c.presult;
        break;
    case RIP_PXC_POPEN:
        F->result.fp = F->c.presult;
        break;
    case RIP_PXC_PREAD:
    case RIP_PXC_PWRITE:
        F->result.n = (ssize_t)F->c.result;
        break;
    default:
        F->result.i = (int)F->c.result;
    }
    return 1;
}

static int pxc_resume(rip_frame *f, rip_frame *done) {
    struct pxc_frame *F = (struct pxc_frame *)f;
    (void)done;
    if (f->state == 2) {            /* back from the offload pool */
        rip__wait_ended(&F->job.wait);
        if (F->job.wait.status == ETIMEDOUT)
            rip__pxc_timed_out(&F->c);
        return pxc_done(F);
    }
    int r = rip__pxc_step(&F->c, &F->waiter);
    if (r == 0) {
        f->state = 1;
        rip__current()->impl = f;
        return 0;
    }
    if (r == RIP_PX_OFFLOAD) {
        if (rip__deadline_passed()) {
            rip__pxc_timed_out(&F->c);
            return pxc_done(F);
        }
        F->job.fn = rip__pxc_blocking;
        F->job.arg = &F->c;
        if (rip__offload_begin(&F->job) == -1) {
            rip__pxc_blocking(&F->c);   /* no pool: block this scheduler instead */
            return pxc_done(F);
        }
        f->state = 2;
        rip__current()->impl = f;
        return 0;
    }
    return pxc_done(F);
}

static rip_frame *pxc_frame(int kind, rip_pxarg a0, rip_pxarg a1, rip_pxarg a2, rip_pxarg a3) {
    struct pxc_frame *F = rip__frame_alloc(sizeof *F, pxc_resume);
    F->c = (rip_pxcall){ .kind = kind, .a = { a0, a1, a2, a3 }, .pidfd = -1 };
    return &F->hdr;
}

#define L(x) ((rip_pxarg){ .l = (long)(x) })
#define P(x) ((rip_pxarg){ .p = (void *)(x) })
#define NONE L(0)

rip_frame *rip__new_rip_posix_waitpid(pid_t pid, int *status, int options) {
    return pxc_frame(RIP_PXC_WAITPID, L(pid), P(status), L(options), NONE);
}

rip_frame *rip__new_rip_posix_wait(int *status) {
    return pxc_frame(RIP_PXC_WAIT, P(status), NONE, NONE, NONE);
}

rip_frame *rip__new_rip_posix_waitid(idtype_t idtype, id_t id, siginfo_t *info, int options) {
    return pxc_frame(RIP_PXC_WAITID, L(idtype), L(id), P(info), L(options));
}

rip_frame *rip__new_rip_posix_getaddrinfo(const char *node, const char *service,
                                          const struct addrinfo *hints, struct addrinfo **res) {
    return pxc_frame(RIP_PXC_GETADDRINFO, P(node), P(service), P(hints), P(res));
}

rip_frame *rip__new_rip_posix_getnameinfo(const struct sockaddr *addr, socklen_t addrlen,
                                          char *host, socklen_t hostlen, char *serv,
                                          socklen_t servlen, int flags) {
    rip_frame *f = pxc_frame(RIP_PXC_GETNAMEINFO, P(addr), L(addrlen), P(host), L(hostlen));
    struct pxc_frame *F = (struct pxc_frame *)f;
    F->c.a[4] = P(serv);
    F->c.a[5] = L(servlen);
    F->c.a[6] = L(flags);
    return f;
}

rip_frame *rip__new_rip_posix_gethostbyname(const char *name) {
    return pxc_frame(RIP_PXC_GETHOSTBYNAME, P(name), NONE, NONE, NONE);
}

rip_frame *rip__new_rip_posix_gethostbyname2(const char *name, int af) {
    return pxc_frame(RIP_PXC_GETHOSTBYNAME2, P(name), L(af), NONE, NONE);
}

rip_frame *rip__new_rip_posix_fsync(int fd) {
    return pxc_frame(RIP_PXC_FSYNC, L(fd), NONE, NONE, NONE);
}

rip_frame *rip__new_rip_posix_fdatasync(int fd) {
    return pxc_frame(RIP_PXC_FDATASYNC, L(fd), NONE, NONE, NONE);
}

rip_frame *rip__new_rip_posix_system(const char *command) {
    return pxc_frame(RIP_PXC_SYSTEM, P(command), NONE, NONE, NONE);
}

rip_frame *rip__new_rip_posix_flock(int fd, int operation) {
    return pxc_frame(RIP_PXC_FLOCK, L(fd), L(operation), NONE, NONE);
}

/* fcntl's third argument is an int or a pointer: read as a pointer, as
 * glibc's fcntl reads it, and passed on so. */
rip_frame *rip__new_rip_posix_fcntl(int fd, int cmd, ...) {
    va_list ap;
    va_start(ap, cmd);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    return pxc_frame(RIP_PXC_FCNTL, L(fd), L(cmd), P(arg), NONE);
}

rip_frame *rip__new_rip_posix_open(const char *path, int flags, ...) {
    mode_t mode = 0;
    RIP_MODE_OF(flags, flags, mode);
    return pxc_frame(RIP_PXC_OPEN, P(path), L(flags), L(mode), NONE);
}

rip_frame *rip__new_rip_posix_openat(int dirfd, const char *path, int flags, ...) {
    mode_t mode = 0;
    RIP_MODE_OF(flags, flags, mode);
    return pxc_frame(RIP_PXC_OPENAT, L(dirfd), P(path), L(flags), L(mode));
}

rip_frame *rip__new_rip_posix_pread(int fd, void *buf, size_t count, off_t offset) {
    return pxc_frame(RIP_PXC_PREAD, L(fd), P(buf), L(count), L(offset));
}

rip_frame *rip__new_rip_posix_pwrite(int fd, const void *buf, size_t count, off_t offset) {
    return pxc_frame(RIP_PXC_PWRITE, L(fd), P(buf), L(count), L(offset));
}

/* The later block. */
rip_frame *rip__new_rip_posix_wait4(pid_t pid, int *status, int options, struct rusage *ru) {
    return pxc_frame(RIP_PXC_WAIT4, L(pid), P(status), L(options), P(ru));
}

rip_frame *rip__new_rip_posix_wait3(int *status, int options, struct rusage *ru) {
    return pxc_frame(RIP_PXC_WAIT3, P(status), L(options), P(ru), NONE);
}

rip_frame *rip__new_rip_posix_gethostbyaddr(const void *addr, socklen_t len, int type) {
    return pxc_frame(RIP_PXC_GETHOSTBYADDR, P(addr), L(len), L(type), NONE);
}

rip_frame *rip__new_rip_posix_sync(void) {
    return pxc_frame(RIP_PXC_SYNC, NONE, NONE, NONE, NONE);
}

rip_frame *rip__new_rip_posix_syncfs(int fd) {
    return pxc_frame(RIP_PXC_SYNCFS, L(fd), NONE, NONE, NONE);
}

rip_frame *rip__new_rip_posix_lockf(int fd, int cmd, off_t len) {
    return pxc_frame(RIP_PXC_LOCKF, L(fd), L(cmd), L(len), NONE);
}

rip_frame *rip__new_rip_posix_popen(const char *command, const char *type) {
    return pxc_frame(RIP_PXC_POPEN, P(command), P(type), NONE, NONE);
}

rip_frame *rip__new_rip_posix_pclose(FILE *fp) {
    return pxc_frame(RIP_PXC_PCLOSE, P(fp), NONE, NONE, NONE);
}

RIP__RUNTIME_FRAME(pxc_resume, "a POSIX call");

/* pxcall.c -- the offload block of rip_posix.h on the ucontext backend,
 * and its link-time wrappers (__wrap_NAME: rip_posix_NAME inside a task,
 * the C library's NAME anywhere else), as posix.c does for the fd calls. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include "../core/pxcall.h"
#include "uc.h"
#include "rip_posix.h"
#include "../shared/sys_offload.h"

#define IN_TASK (rip__current() != NULL)

/* Step the call, parking between steps; its result is in c. */
static void run(rip_pxcall *c) {
    rip_waiter w;
    int r;
    while ((r = rip__pxc_step(c, &w)) != 1) {
        if (r == RIP_PX_OFFLOAD) {
            if (rip__deadline_passed())
                rip__pxc_timed_out(c);
            else if (!rip_offload(rip__pxc_blocking, c))
                rip__pxc_timed_out(c);  /* the deadline dropped it before it ran */
            break;
        }
        rip__uc_park();
    }
    rip__pxc_deliver(c);
}

#define L(x) ((rip_pxarg){ .l = (long)(x) })
#define P(x) ((rip_pxarg){ .p = (void *)(x) })
#define CALL(k, ...) (rip_pxcall){ .kind = (k), .a = { __VA_ARGS__ }, .pidfd = -1 }

static long run_int(rip_pxcall c) {
    run(&c);
    return c.result;
}

pid_t rip_posix_waitpid(pid_t pid, int *status, int options) {
    if (!IN_TASK)
        return rip__sys_waitpid(pid, status, options);
    return (pid_t)run_int(CALL(RIP_PXC_WAITPID, L(pid), P(status), L(options)));
}

pid_t rip_posix_wait(int *status) {
    if (!IN_TASK)
        return rip__sys_wait(status);
    return (pid_t)run_int(CALL(RIP_PXC_WAIT, P(status)));
}

int rip_posix_waitid(idtype_t idtype, id_t id, siginfo_t *info, int options) {
    if (!IN_TASK)
        return rip__sys_waitid(idtype, id, info, options);
    return (int)run_int(CALL(RIP_PXC_WAITID, L(idtype), L(id), P(info), L(options)));
}

int rip_posix_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
                          struct addrinfo **res) {
    if (!IN_TASK)
        return rip__sys_getaddrinfo(node, service, hints, res);
    return (int)run_int(CALL(RIP_PXC_GETADDRINFO, P(node), P(service), P(hints), P(res)));
}

int rip_posix_getnameinfo(const struct sockaddr *addr, socklen_t addrlen, char *host,
                          socklen_t hostlen, char *serv, socklen_t servlen, int flags) {
    if (!IN_TASK)
        return rip__sys_getnameinfo(addr, addrlen, host, hostlen, serv, servlen, flags);
    return (int)run_int(CALL(RIP_PXC_GETNAMEINFO, P(addr), L(addrlen), P(host), L(hostlen),
                             P(serv), L(servlen), L(flags)));
}

static struct hostent *run_host(rip_pxcall c) {
    run(&c);
    return c.presult;
}

struct hostent *rip_posix_gethostbyname(const char *name) {
    if (!IN_TASK)
        return rip__sys_gethostbyname(name);
    return run_host(CALL(RIP_PXC_GETHOSTBYNAME, P(name)));
}

struct hostent *rip_posix_gethostbyname2(const char *name, int af) {
    if (!IN_TASK)
        return rip__sys_gethostbyname2(name, af);
    return run_host(CALL(RIP_PXC_GETHOSTBYNAME2, P(name), L(af)));
}

int rip_posix_fsync(int fd) {
    if (!IN_TASK)
        return rip__sys_fsync(fd);
    return (int)run_int(CALL(RIP_PXC_FSYNC, L(fd)));
}

int rip_posix_fdatasync(int fd) {
    if (!IN_TASK)
        return rip__sys_fdatasync(fd);
    return (int)run_int(CALL(RIP_PXC_FDATASYNC, L(fd)));
}

int rip_posix_system(const char *command) {
    if (!IN_TASK)
        return rip__sys_system(command);
    return (int)run_int(CALL(RIP_PXC_SYSTEM, P(command)));
}

int rip_posix_flock(int fd, int operation) {
    if (!IN_TASK)
        return rip__sys_flock(fd, operation);
    return (int)run_int(CALL(RIP_PXC_FLOCK, L(fd), L(operation)));
}

static int fcntl_arg(int fd, int cmd, void *arg) {
    if (!IN_TASK)
        return rip__sys_fcntl(fd, cmd, arg);
    return (int)run_int(CALL(RIP_PXC_FCNTL, L(fd), L(cmd), P(arg)));
}

int rip_posix_fcntl(int fd, int cmd, ...) {
    va_list ap;
    va_start(ap, cmd);
    void *arg = va_arg(ap, void *);    /* an int or a pointer, read as glibc reads it */
    va_end(ap);
    return fcntl_arg(fd, cmd, arg);
}

static int open_mode(const char *path, int flags, mode_t mode) {
    if (!IN_TASK)
        return rip__sys_open(path, flags, mode);
    return (int)run_int(CALL(RIP_PXC_OPEN, P(path), L(flags), L(mode)));
}

static int openat_mode(int dirfd, const char *path, int flags, mode_t mode) {
    if (!IN_TASK)
        return rip__sys_openat(dirfd, path, flags, mode);
    return (int)run_int(CALL(RIP_PXC_OPENAT, L(dirfd), P(path), L(flags), L(mode)));
}

int rip_posix_open(const char *path, int flags, ...) {
    mode_t mode = 0;
    RIP_MODE_OF(flags, flags, mode);
    return open_mode(path, flags, mode);
}

int rip_posix_openat(int dirfd, const char *path, int flags, ...) {
    mode_t mode = 0;
    RIP_MODE_OF(flags, flags, mode);
    return openat_mode(dirfd, path, flags, mode);
}

ssize_t rip_posix_pread(int fd, void *buf, size_t count, off_t offset) {
    if (!IN_TASK)
        return rip__sys_pread(fd, buf, count, offset);
    return (ssize_t)run_int(CALL(RIP_PXC_PREAD, L(fd), P(buf), L(count), L(offset)));
}

ssize_t rip_posix_pwrite(int fd, const void *buf, size_t count, off_t offset) {
    if (!IN_TASK)
        return rip__sys_pwrite(fd, buf, count, offset);
    return (ssize_t)run_int(CALL(RIP_PXC_PWRITE, L(fd), P(buf), L(count), L(offset)));
}

/* The later block. */
pid_t rip_posix_wait4(pid_t pid, int *status, int options, struct rusage *ru) {
    if (!IN_TASK)
        return rip__sys_wait4(pid, status, options, ru);
    return (pid_t)run_int(CALL(RIP_PXC_WAIT4, L(pid), P(status), L(options), P(ru)));
}

pid_t rip_posix_wait3(int *status, int options, struct rusage *ru) {
    if (!IN_TASK)
        return rip__sys_wait3(status, options, ru);
    return (pid_t)run_int(CALL(RIP_PXC_WAIT3, P(status), L(options), P(ru)));
}

struct hostent *rip_posix_gethostbyaddr(const void *addr, socklen_t len, int type) {
    if (!IN_TASK)
        return rip__sys_gethostbyaddr(addr, len, type);
    return run_host(CALL(RIP_PXC_GETHOSTBYADDR, P(addr), L(len), L(type)));
}

void rip_posix_sync(void) {
    if (!IN_TASK)
        rip__sys_sync();
    else
        (void)run_int(CALL(RIP_PXC_SYNC, L(0)));
}

int rip_posix_syncfs(int fd) {
    if (!IN_TASK)
        return rip__sys_syncfs(fd);
    return (int)run_int(CALL(RIP_PXC_SYNCFS, L(fd)));
}

int rip_posix_lockf(int fd, int cmd, off_t len) {
    if (!IN_TASK)
        return rip__sys_lockf(fd, cmd, len);
    return (int)run_int(CALL(RIP_PXC_LOCKF, L(fd), L(cmd), L(len)));
}

FILE *rip_posix_popen(const char *command, const char *type) {
    if (!IN_TASK)
        return rip__sys_popen(command, type);
    rip_pxcall c = CALL(RIP_PXC_POPEN, P(command), P(type));
    run(&c);
    return c.presult;
}

int rip_posix_pclose(FILE *fp) {
    if (!IN_TASK)
        return rip__sys_pclose(fp);
    return (int)run_int(CALL(RIP_PXC_PCLOSE, P(fp)));
}

/* The wrappers (ripcc --posix links with -Wl,--wrap=NAME for each): the
 * rip_posix_ forms above already call the library outside a task. */
pid_t __wrap_waitpid(pid_t pid, int *status, int options) { return rip_posix_waitpid(pid, status, options); }
pid_t __wrap_wait(int *status) { return rip_posix_wait(status); }
int __wrap_waitid(idtype_t idtype, id_t id, siginfo_t *info, int options) {
    return rip_posix_waitid(idtype, id, info, options);
}
int __wrap_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
                       struct addrinfo **res) {
    return rip_posix_getaddrinfo(node, service, hints, res);
}
int __wrap_getnameinfo(const struct sockaddr *addr, socklen_t addrlen, char *host,
                       socklen_t hostlen, char *serv, socklen_t servlen, int flags) {
    return rip_posix_getnameinfo(addr, addrlen, host, hostlen, serv, servlen, flags);
}
struct hostent *__wrap_gethostbyname(const char *name) { return rip_posix_gethostbyname(name); }
struct hostent *__wrap_gethostbyname2(const char *name, int af) {
    return rip_posix_gethostbyname2(name, af);
}
int __wrap_fsync(int fd) { return rip_posix_fsync(fd); }
int __wrap_fdatasync(int fd) { return rip_posix_fdatasync(fd); }
int __wrap_system(const char *command) { return rip_posix_system(command); }
int __wrap_flock(int fd, int operation) { return rip_posix_flock(fd, operation); }
int __wrap_fcntl(int fd, int cmd, ...) {
    va_list ap;
    va_start(ap, cmd);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    return fcntl_arg(fd, cmd, arg);
}
int __wrap_open(const char *path, int flags, ...) {
    mode_t mode = 0;
    RIP_MODE_OF(flags, flags, mode);
    return open_mode(path, flags, mode);
}
int __wrap_openat(int dirfd, const char *path, int flags, ...) {
    mode_t mode = 0;
    RIP_MODE_OF(flags, flags, mode);
    return openat_mode(dirfd, path, flags, mode);
}
ssize_t __wrap_pread(int fd, void *buf, size_t count, off_t offset) {
    return rip_posix_pread(fd, buf, count, offset);
}
ssize_t __wrap_pwrite(int fd, const void *buf, size_t count, off_t offset) {
    return rip_posix_pwrite(fd, buf, count, offset);
}
pid_t __wrap_wait4(pid_t pid, int *status, int options, struct rusage *ru) {
    return rip_posix_wait4(pid, status, options, ru);
}
pid_t __wrap_wait3(int *status, int options, struct rusage *ru) { return rip_posix_wait3(status, options, ru); }
struct hostent *__wrap_gethostbyaddr(const void *addr, socklen_t len, int type) {
    return rip_posix_gethostbyaddr(addr, len, type);
}
void __wrap_sync(void) { rip_posix_sync(); }
int __wrap_syncfs(int fd) { return rip_posix_syncfs(fd); }
int __wrap_lockf(int fd, int cmd, off_t len) { return rip_posix_lockf(fd, cmd, len); }
FILE *__wrap_popen(const char *command, const char *type) { return rip_posix_popen(command, type); }
int __wrap_pclose(FILE *fp) { return rip_posix_pclose(fp); }

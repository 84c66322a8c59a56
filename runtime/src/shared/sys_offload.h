/* sys_offload.h -- the C library calls of the offload block of
 * rip_posix.h (core/pxcall.c) as the runtime itself makes them: past the
 * --wrap wrappers (see sys.h, whose RIP__SYS this uses). */
#ifndef RIP_SYS_OFFLOAD_H
#define RIP_SYS_OFFLOAD_H

#include <fcntl.h>
#include <netdb.h>
#include <stdlib.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "sys.h"

/* open's mode is there only with O_CREAT or O_TMPFILE, as glibc reads it. */
#define RIP_NEEDS_MODE(flags) ((flags) & O_CREAT || ((flags) & O_TMPFILE) == O_TMPFILE)
#define RIP_MODE_OF(flags, last, mode) do {                                   \
        if (RIP_NEEDS_MODE(flags)) {                                          \
            va_list ap_;                                                      \
            va_start(ap_, last);                                              \
            mode = va_arg(ap_, mode_t);                                       \
            va_end(ap_);                                                      \
        }                                                                     \
    } while (0)

RIP__SYS(pid_t, waitpid, (pid_t pid, int *status, int options), (pid, status, options))
RIP__SYS(pid_t, wait, (int *status), (status))
RIP__SYS(int, waitid, (idtype_t idtype, id_t id, siginfo_t *info, int options),
         (idtype, id, info, options))
RIP__SYS(int, getaddrinfo, (const char *node, const char *service, const struct addrinfo *hints,
                            struct addrinfo **res), (node, service, hints, res))
RIP__SYS(int, getnameinfo, (const struct sockaddr *addr, socklen_t addrlen, char *host,
                            socklen_t hostlen, char *serv, socklen_t servlen, int flags),
         (addr, addrlen, host, hostlen, serv, servlen, flags))
RIP__SYS(struct hostent *, gethostbyname, (const char *name), (name))
RIP__SYS(struct hostent *, gethostbyname2, (const char *name, int af), (name, af))
RIP__SYS(int, fsync, (int fd), (fd))
RIP__SYS(int, fdatasync, (int fd), (fd))
RIP__SYS(int, system, (const char *command), (command))
RIP__SYS(int, flock, (int fd, int operation), (fd, operation))
RIP__SYS(ssize_t, pread, (int fd, void *buf, size_t n, off_t off), (fd, buf, n, off))
RIP__SYS(ssize_t, pwrite, (int fd, const void *buf, size_t n, off_t off), (fd, buf, n, off))

/* The later block (issue 22 point 1: wait3/wait4, gethostbyaddr, sync,
 * syncfs, lockf, popen, pclose). */
RIP__SYS(pid_t, wait4, (pid_t pid, int *status, int options, struct rusage *ru),
         (pid, status, options, ru))
RIP__SYS(pid_t, wait3, (int *status, int options, struct rusage *ru), (status, options, ru))
RIP__SYS(struct hostent *, gethostbyaddr, (const void *addr, socklen_t len, int type),
         (addr, len, type))
RIP__SYS(int, syncfs, (int fd), (fd))
RIP__SYS(int, lockf, (int fd, int cmd, off_t len), (fd, cmd, len))
RIP__SYS(FILE *, popen, (const char *command, const char *type), (command, type))
RIP__SYS(int, pclose, (FILE *fp), (fp))
extern void __real_sync(void) __attribute__((weak));
static inline void rip__sys_sync(void) {   /* void: no `return f()` */
    if (__real_sync)
        __real_sync();
    else
        sync();
}

/* The variadic three, their optional argument made explicit. */
extern int __real_fcntl(int fd, int cmd, ...) __attribute__((weak));
static inline int rip__sys_fcntl(int fd, int cmd, void *arg) {
    return __real_fcntl ? __real_fcntl(fd, cmd, arg) : fcntl(fd, cmd, arg);
}
extern int __real_open(const char *path, int flags, ...) __attribute__((weak));
static inline int rip__sys_open(const char *path, int flags, mode_t mode) {
    return __real_open ? __real_open(path, flags, mode) : open(path, flags, mode);
}
extern int __real_openat(int dirfd, const char *path, int flags, ...) __attribute__((weak));
static inline int rip__sys_openat(int dirfd, const char *path, int flags, mode_t mode) {
    return __real_openat ? __real_openat(dirfd, path, flags, mode) : openat(dirfd, path, flags, mode);
}

#endif

/* wrapforms.c -- the other names a plain build calls for the wrapped
 * calls of rip_posix.h, on rip (rip/catch.c) and ucontext
 * (ucontext/posix.c, pxcall.c): _FORTIFY_SOURCE's checked forms and
 * -D_FILE_OFFSET_BITS=64's names.  Each does what glibc's does (its
 * check), then goes to the backend's __wrap_NAME, which decides between
 * the task's call and the library's. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdarg.h>
#include <sys/socket.h>
#include <sys/types.h>
#include "../shared/sys_offload.h"

/* The backend's wrappers. */
ssize_t __wrap_read(int fd, void *buf, size_t n);
ssize_t __wrap_recv(int fd, void *buf, size_t n, int flags);
ssize_t __wrap_recvfrom(int fd, void *buf, size_t n, int flags, struct sockaddr *a,
                        socklen_t *l);
ssize_t __wrap_pread(int fd, void *buf, size_t n, off_t offset);
ssize_t __wrap_pwrite(int fd, const void *buf, size_t n, off_t offset);
int __wrap_open(const char *path, int flags, ...);
int __wrap_openat(int dirfd, const char *path, int flags, ...);
int __wrap_fcntl(int fd, int cmd, ...);
int __wrap_lockf(int fd, int cmd, off_t len);

void __chk_fail(void) __attribute__((noreturn));

ssize_t __wrap___read_chk(int fd, void *buf, size_t n, size_t buflen) {
    if (n > buflen)
        __chk_fail();
    return __wrap_read(fd, buf, n);
}

ssize_t __wrap___recv_chk(int fd, void *buf, size_t n, size_t buflen, int flags) {
    if (n > buflen)
        __chk_fail();
    return __wrap_recv(fd, buf, n, flags);
}

ssize_t __wrap___recvfrom_chk(int fd, void *buf, size_t n, size_t buflen, int flags,
                              struct sockaddr *a, socklen_t *l) {
    if (n > buflen)
        __chk_fail();
    return __wrap_recvfrom(fd, buf, n, flags, a, l);
}

ssize_t __wrap___pread_chk(int fd, void *buf, size_t n, off_t offset, size_t buflen) {
    if (n > buflen)
        __chk_fail();
    return __wrap_pread(fd, buf, n, offset);
}

/* open with a flags value the compiler cannot see and no mode: glibc's
 * check (O_CREAT or O_TMPFILE needs a mode: it aborts), then the call. */
extern int __real___open_2(const char *, int) __attribute__((weak));
extern int __real___openat_2(int, const char *, int) __attribute__((weak));

int __wrap___open_2(const char *path, int flags) {
    if (RIP_NEEDS_MODE(flags))
        return __real___open_2(path, flags);
    return __wrap_open(path, flags);
}

int __wrap___openat_2(int dirfd, const char *path, int flags) {
    if (RIP_NEEDS_MODE(flags))
        return __real___openat_2(dirfd, path, flags);
    return __wrap_openat(dirfd, path, flags);
}

/* -D_FILE_OFFSET_BITS=64's names: one file offset size on 64-bit Linux,
 * so the same calls. */
int __wrap_open64(const char *path, int flags, ...) {
    mode_t mode = 0;
    RIP_MODE_OF(flags, flags, mode);
    return __wrap_open(path, flags | O_LARGEFILE, mode);
}

int __wrap_openat64(int dirfd, const char *path, int flags, ...) {
    mode_t mode = 0;
    RIP_MODE_OF(flags, flags, mode);
    return __wrap_openat(dirfd, path, flags | O_LARGEFILE, mode);
}

int __wrap_fcntl64(int fd, int cmd, ...) {
    va_list ap;
    va_start(ap, cmd);
    void *arg = va_arg(ap, void *);
    va_end(ap);
    return __wrap_fcntl(fd, cmd, arg);
}

ssize_t __wrap_pread64(int fd, void *buf, size_t count, off_t offset) {
    return __wrap_pread(fd, buf, count, offset);
}

ssize_t __wrap_pwrite64(int fd, const void *buf, size_t count, off_t offset) {
    return __wrap_pwrite(fd, buf, count, offset);
}

int __wrap_lockf64(int fd, int cmd, off_t len) {
    return __wrap_lockf(fd, cmd, len);
}

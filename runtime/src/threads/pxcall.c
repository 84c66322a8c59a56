/* pxcall.c -- the offload block of rip_posix.h on the threads backend:
 * each task is a thread, so each is the call itself. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <netdb.h>
#include <stdarg.h>
#include <stdlib.h>
#include <stdio.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "rip_posix.h"
#include "../shared/sys_offload.h"     /* RIP_MODE_OF */

pid_t rip_posix_waitpid(pid_t pid, int *status, int options) { return waitpid(pid, status, options); }
pid_t rip_posix_wait(int *status) { return wait(status); }
int rip_posix_waitid(idtype_t idtype, id_t id, siginfo_t *info, int options) {
    return waitid(idtype, id, info, options);
}
int rip_posix_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
                          struct addrinfo **res) {
    return getaddrinfo(node, service, hints, res);
}
int rip_posix_getnameinfo(const struct sockaddr *addr, socklen_t addrlen, char *host,
                          socklen_t hostlen, char *serv, socklen_t servlen, int flags) {
    return getnameinfo(addr, addrlen, host, hostlen, serv, servlen, flags);
}
struct hostent *rip_posix_gethostbyname(const char *name) { return gethostbyname(name); }
struct hostent *rip_posix_gethostbyname2(const char *name, int af) { return gethostbyname2(name, af); }
int rip_posix_fsync(int fd) { return fsync(fd); }
int rip_posix_fdatasync(int fd) { return fdatasync(fd); }
int rip_posix_system(const char *command) { return system(command); }
int rip_posix_flock(int fd, int operation) { return flock(fd, operation); }
int rip_posix_fcntl(int fd, int cmd, ...) {
    va_list ap;
    va_start(ap, cmd);
    void *arg = va_arg(ap, void *);    /* an int or a pointer, read as glibc reads it */
    va_end(ap);
    return fcntl(fd, cmd, arg);
}
int rip_posix_open(const char *path, int flags, ...) {
    mode_t mode = 0;
    RIP_MODE_OF(flags, flags, mode);
    return open(path, flags, mode);
}
int rip_posix_openat(int dirfd, const char *path, int flags, ...) {
    mode_t mode = 0;
    RIP_MODE_OF(flags, flags, mode);
    return openat(dirfd, path, flags, mode);
}
ssize_t rip_posix_pread(int fd, void *buf, size_t count, off_t offset) {
    return pread(fd, buf, count, offset);
}
ssize_t rip_posix_pwrite(int fd, const void *buf, size_t count, off_t offset) {
    return pwrite(fd, buf, count, offset);
}
pid_t rip_posix_wait4(pid_t pid, int *status, int options, struct rusage *ru) {
    return wait4(pid, status, options, ru);
}
pid_t rip_posix_wait3(int *status, int options, struct rusage *ru) { return wait3(status, options, ru); }
struct hostent *rip_posix_gethostbyaddr(const void *addr, socklen_t len, int type) {
    return gethostbyaddr(addr, len, type);
}
void rip_posix_sync(void) { sync(); }
int rip_posix_syncfs(int fd) { return syncfs(fd); }
int rip_posix_lockf(int fd, int cmd, off_t len) { return lockf(fd, cmd, len); }
FILE *rip_posix_popen(const char *command, const char *type) { return popen(command, type); }
int rip_posix_pclose(FILE *fp) { return pclose(fp); }

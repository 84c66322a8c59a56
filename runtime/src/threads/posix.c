/* posix.c -- the calls of rip_posix.h on the threads backend: each task is
 * a thread, so each is the system call itself. */
#define _GNU_SOURCE                 /* accept4, ppoll, __sysv_signal */
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "rip_posix.h"

ssize_t rip_posix_read(int fd, void *buf, size_t count) { return read(fd, buf, count); }
ssize_t rip_posix_write(int fd, const void *buf, size_t count) { return write(fd, buf, count); }
ssize_t rip_posix_recv(int fd, void *buf, size_t len, int flags) { return recv(fd, buf, len, flags); }
ssize_t rip_posix_send(int fd, const void *buf, size_t len, int flags) { return send(fd, buf, len, flags); }
ssize_t rip_posix_recvfrom(int fd, void *buf, size_t len, int flags, struct sockaddr *src,
                           socklen_t *srclen) {
    return recvfrom(fd, buf, len, flags, src, srclen);
}
ssize_t rip_posix_sendto(int fd, const void *buf, size_t len, int flags,
                         const struct sockaddr *dest, socklen_t destlen) {
    return sendto(fd, buf, len, flags, dest, destlen);
}
int rip_posix_accept(int fd, struct sockaddr *addr, socklen_t *addrlen) {
    return accept(fd, addr, addrlen);
}
int rip_posix_accept4(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags) {
    return accept4(fd, addr, addrlen, flags);
}
int rip_posix_connect(int fd, const struct sockaddr *addr, socklen_t addrlen) {
    return connect(fd, addr, addrlen);
}
ssize_t rip_posix_readv(int fd, const struct iovec *iov, int n) { return readv(fd, iov, n); }
ssize_t rip_posix_writev(int fd, const struct iovec *iov, int n) { return writev(fd, iov, n); }
ssize_t rip_posix_recvmsg(int fd, struct msghdr *msg, int flags) { return recvmsg(fd, msg, flags); }
ssize_t rip_posix_sendmsg(int fd, const struct msghdr *msg, int flags) { return sendmsg(fd, msg, flags); }
int rip_posix_select(int n, fd_set *r, fd_set *w, fd_set *e, struct timeval *t) {
    return select(n, r, w, e, t);
}
int rip_posix_epoll_wait(int epfd, struct epoll_event *ev, int max, int timeout) {
    return epoll_wait(epfd, ev, max, timeout);
}
int rip_posix_poll(struct pollfd *fds, nfds_t nfds, int timeout) { return poll(fds, nfds, timeout); }
unsigned int rip_posix_sleep(unsigned int seconds) { return sleep(seconds); }
int rip_posix_usleep(useconds_t usec) { return usleep(usec); }
int rip_posix_nanosleep(const struct timespec *req, struct timespec *rem) { return nanosleep(req, rem); }
int rip_posix_ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *tmo, const sigset_t *m) {
    return ppoll(fds, nfds, tmo, m);
}
int rip_posix_pselect(int n, fd_set *r, fd_set *w, fd_set *e, const struct timespec *t,
                      const sigset_t *m) {
    return pselect(n, r, w, e, t, m);
}
int rip_posix_epoll_pwait(int epfd, struct epoll_event *ev, int max, int timeout, const sigset_t *m) {
    return epoll_pwait(epfd, ev, max, timeout, m);
}
int rip_posix_clock_nanosleep(clockid_t clock, int flags, const struct timespec *req,
                              struct timespec *rem) {
    return clock_nanosleep(clock, flags, req, rem);
}
int rip_posix_sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
    return sigaction(sig, act, old);
}
rip_posix_handler rip_posix_signal(int sig, rip_posix_handler handler) { return signal(sig, handler); }
rip_posix_handler rip_posix___sysv_signal(int sig, rip_posix_handler handler) {
    return __sysv_signal(sig, handler);
}
int rip_posix_siginterrupt(int sig, int flag) {
    struct sigaction act;
    if (sigaction(sig, NULL, &act) == -1)
        return -1;
    act.sa_flags = flag ? act.sa_flags & ~SA_RESTART : act.sa_flags | SA_RESTART;
    return sigaction(sig, &act, NULL);
}
int rip_posix_close(int fd) { return close(fd); }
int rip_posix_pause(void) { return pause(); }
int rip_posix_sigsuspend(const sigset_t *mask) { return sigsuspend(mask); }

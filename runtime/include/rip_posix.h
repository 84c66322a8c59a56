/* rip_posix.h -- the POSIX calls of `ripper --posix`, for ripped code and
 * the runtime's link-time wrappers only: not the user API (that is rip.h).
 *
 * Each rip_posix_NAME has libc's NAME's exact signature and contract, the
 * waiting done by suspending the calling task instead of its thread:
 * the same results, short counts, errno values and EOF as the system call;
 * an fd the program put in O_NONBLOCK itself, or a MSG_DONTWAIT call, never
 * waits (EAGAIN, as from the kernel); no file status flag of the program's
 * fds is changed (connect excepted, for the one system call: see there).
 * `ripper --posix` calls them for the program's read, write... ; on the
 * ucontext backend the linker sends the program's calls to __wrap_NAME,
 * which is rip_posix_NAME inside a task and the real call outside one; on
 * threads they are the real calls.
 *
 * A handled signal interrupts a waiting call as signal(7) says (EINTR;
 * the count moved so far; restarted under SA_RESTART where the kernel
 * restarts it): the program's handlers are installed through
 * rip_posix_sigaction, which records each delivery (core/psignal.c says
 * which task's wait a signal ends).
 *
 * Differences from the system calls, all documented in README ("POSIX
 * mode"): timeouts (sleeps, poll, select, SO_RCVTIMEO/SO_SNDTIMEO) are rounded up
 * to whole milliseconds, plus one (the runtime's clock counts whole
 * milliseconds: never shorter than asked); the task's rip.h deadline, if it set one, limits the
 * waits (ETIMEDOUT). */
#ifndef RIP_POSIX_H
#define RIP_POSIX_H

#include <poll.h>
#include <signal.h>
#include <stddef.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "rip.h"

#ifdef __cplusplus
extern "C" {
#endif

RIP_ASYNC ssize_t rip_posix_read(int fd, void *buf, size_t count);        /* read(2) */
RIP_ASYNC ssize_t rip_posix_write(int fd, const void *buf, size_t count); /* write(2): a blocking fd gets every byte (or the count written before an error) */
RIP_ASYNC ssize_t rip_posix_recv(int fd, void *buf, size_t len, int flags);       /* recv(2), MSG_WAITALL too */
RIP_ASYNC ssize_t rip_posix_send(int fd, const void *buf, size_t len, int flags); /* send(2) */
RIP_ASYNC ssize_t rip_posix_recvfrom(int fd, void *buf, size_t len, int flags,
                                     struct sockaddr *src, socklen_t *srclen);   /* recvfrom(2) */
RIP_ASYNC ssize_t rip_posix_sendto(int fd, const void *buf, size_t len, int flags,
                                   const struct sockaddr *dest, socklen_t destlen); /* sendto(2) */
RIP_ASYNC int rip_posix_accept(int fd, struct sockaddr *addr, socklen_t *addrlen);  /* accept(2) */
RIP_ASYNC int rip_posix_accept4(int fd, struct sockaddr *addr, socklen_t *addrlen, int flags); /* accept4(2): the new fd gets exactly `flags` */
RIP_ASYNC int rip_posix_connect(int fd, const struct sockaddr *addr, socklen_t addrlen); /* connect(2): a blocking socket is put in O_NONBLOCK for the connect(2) call alone */
RIP_ASYNC ssize_t rip_posix_readv(int fd, const struct iovec *iov, int iovcnt);  /* readv(2) */
RIP_ASYNC ssize_t rip_posix_writev(int fd, const struct iovec *iov, int iovcnt); /* writev(2): a blocking fd gets every byte */
RIP_ASYNC ssize_t rip_posix_recvmsg(int fd, struct msghdr *msg, int flags);       /* recvmsg(2), MSG_WAITALL too */
RIP_ASYNC ssize_t rip_posix_sendmsg(int fd, const struct msghdr *msg, int flags); /* sendmsg(2): control data with the first bytes */
RIP_ASYNC int rip_posix_select(int nfds, fd_set *readfds, fd_set *writefds, fd_set *exceptfds,
                               struct timeval *timeout); /* select(2): a poll; timeout updated to the time not slept (milliseconds), as Linux does */
RIP_ASYNC int rip_posix_epoll_wait(int epfd, struct epoll_event *events, int maxevents,
                                   int timeout);                          /* epoll_wait(2) */
RIP_ASYNC int rip_posix_poll(struct pollfd *fds, nfds_t nfds, int timeout); /* poll(2): rip_poll without a deadline */
RIP_ASYNC unsigned int rip_posix_sleep(unsigned int seconds);             /* sleep(3): 0, or the whole seconds not slept (a signal) */
RIP_ASYNC int rip_posix_usleep(useconds_t usec);                          /* usleep(3): 0, or -1 and EINTR */
RIP_ASYNC int rip_posix_nanosleep(const struct timespec *req, struct timespec *rem); /* nanosleep(2): 0, or -1 and EINTR (rem filled), EINVAL (bad req) or EFAULT (NULL req) */

typedef void (*rip_posix_handler)(int);       /* a signal handler (glibc's sighandler_t) */

/* Signals, close and the calls with a signal mask (issue 22,
 * EINTR; core/psignal.c). */
RIP_ASYNC int rip_posix_ppoll(struct pollfd *fds, nfds_t nfds, const struct timespec *tmo,
                              const sigset_t *sigmask);                   /* ppoll(2): a signal sigmask blocks does not end it */
RIP_ASYNC int rip_posix_pselect(int nfds, fd_set *readfds, fd_set *writefds, fd_set *exceptfds,
                                const struct timespec *timeout, const sigset_t *sigmask); /* pselect(2) */
RIP_ASYNC int rip_posix_epoll_pwait(int epfd, struct epoll_event *events, int maxevents,
                                    int timeout, const sigset_t *sigmask); /* epoll_pwait(2) */
RIP_ASYNC int rip_posix_clock_nanosleep(clockid_t clock, int flags, const struct timespec *req,
                                        struct timespec *rem);            /* clock_nanosleep(2): 0 or an error number (EINTR...), TIMER_ABSTIME too */
RIP_ASYNC int rip_posix_pause(void);                                      /* pause(2): -1 and EINTR once a handled signal came */
RIP_ASYNC int rip_posix_sigsuspend(const sigset_t *mask);                 /* sigsuspend(2): the same, a signal mask blocks ending nothing */
int rip_posix_sigaction(int sig, const struct sigaction *act, struct sigaction *old); /* sigaction(2): a handler is installed behind the runtime's trampoline; old is the program's */
rip_posix_handler rip_posix_signal(int sig, rip_posix_handler handler);             /* signal(2), glibc's BSD semantics (SA_RESTART) */
rip_posix_handler rip_posix___sysv_signal(int sig, rip_posix_handler handler);     /* ISO C's signal in glibc (SA_RESETHAND | SA_NODEFER) */
int rip_posix_siginterrupt(int sig, int flag);                            /* siginterrupt(3) */
int rip_posix_close(int fd);                                              /* close(2): tasks waiting on fd wake with EBADF */

/* Calls with no non-blocking form (core/pxcall.c): run on the offload
 * pool while the task waits, unless they can return at once (WNOHANG,
 * LOCK_NB, a lock nobody holds, cached file data) or wait on an fd (a
 * waitpid for one child: its pidfd).  errno and h_errno come back to the
 * caller's thread.  See README ("POSIX mode") for when each goes where. */
struct addrinfo;
struct hostent;
RIP_ASYNC pid_t rip_posix_waitpid(pid_t pid, int *status, int options);  /* waitpid(2) */
RIP_ASYNC pid_t rip_posix_wait(int *status);                             /* wait(2) */
RIP_ASYNC int rip_posix_waitid(idtype_t idtype, id_t id, siginfo_t *info, int options); /* waitid(2) */
RIP_ASYNC int rip_posix_getaddrinfo(const char *node, const char *service,
                                    const struct addrinfo *hints, struct addrinfo **res); /* getaddrinfo(3) */
RIP_ASYNC int rip_posix_getnameinfo(const struct sockaddr *addr, socklen_t addrlen, char *host,
                                    socklen_t hostlen, char *serv, socklen_t servlen,
                                    int flags);                           /* getnameinfo(3) */
RIP_ASYNC struct hostent *rip_posix_gethostbyname(const char *name);     /* gethostbyname(3): h_errno set */
RIP_ASYNC struct hostent *rip_posix_gethostbyname2(const char *name, int af); /* gethostbyname2(3) */
RIP_ASYNC int rip_posix_fsync(int fd);                                   /* fsync(2) */
RIP_ASYNC int rip_posix_fdatasync(int fd);                               /* fdatasync(2) */
RIP_ASYNC int rip_posix_system(const char *command);                     /* system(3): SIGCHLD blocked in the scheduler's thread meanwhile */
RIP_ASYNC int rip_posix_flock(int fd, int operation);                    /* flock(2) */
RIP_ASYNC int rip_posix_fcntl(int fd, int cmd, ...);                     /* fcntl(2): only F_SETLKW waits */
RIP_ASYNC int rip_posix_open(const char *path, int flags, ...);          /* open(2): a FIFO's open waits on the pool */
RIP_ASYNC int rip_posix_openat(int dirfd, const char *path, int flags, ...); /* openat(2) */
RIP_ASYNC ssize_t rip_posix_pread(int fd, void *buf, size_t count, off_t offset);        /* pread(2) */
RIP_ASYNC ssize_t rip_posix_pwrite(int fd, const void *buf, size_t count, off_t offset); /* pwrite(2) */

#ifdef __cplusplus
}
#endif
#endif /* RIP_POSIX_H */

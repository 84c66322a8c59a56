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
 * Differences from the system calls, all documented in README ("POSIX
 * mode"): a signal does not interrupt a waiting call (as if every handler
 * had SA_RESTART; sleep returns 0, nanosleep never fails with EINTR);
 * timeouts (sleeps, poll, select, SO_RCVTIMEO/SO_SNDTIMEO) are rounded up
 * to whole milliseconds, plus one (the runtime's clock counts whole
 * milliseconds: never shorter than asked); the task's rip.h deadline, if it set one, limits the
 * waits (ETIMEDOUT). */
#ifndef RIP_POSIX_H
#define RIP_POSIX_H

#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stddef.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>
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
RIP_ASYNC unsigned int rip_posix_sleep(unsigned int seconds);             /* sleep(3): 0 */
RIP_ASYNC int rip_posix_usleep(useconds_t usec);                          /* usleep(3): 0 */
RIP_ASYNC int rip_posix_nanosleep(const struct timespec *req, struct timespec *rem); /* nanosleep(2): 0, or -1 and EINVAL (bad req) or EFAULT (NULL req) */

/* stdio (glibc): on sockets, pipes and terminals the task waits where the
 * library's call would block its thread; the same bytes, buffering, flags
 * (ferror, feof, clearerr) and results as the library's (README, "POSIX
 * mode"); a regular file goes straight to the library. */
RIP_ASYNC size_t rip_posix_fwrite(const void *p, size_t size, size_t n, FILE *fp); /* fwrite(3) */
RIP_ASYNC int rip_posix_fputs(const char *s, FILE *fp);                  /* fputs(3) */
RIP_ASYNC int rip_posix_fputc(int c, FILE *fp);                          /* fputc(3) */
RIP_ASYNC int rip_posix_putc(int c, FILE *fp);                           /* putc(3) */
RIP_ASYNC int rip_posix_putchar(int c);                                  /* putchar(3) */
RIP_ASYNC int rip_posix_puts(const char *s);                             /* puts(3) */
RIP_ASYNC int rip_posix_vfprintf(FILE *fp, const char *fmt, va_list ap); /* vfprintf(3) */
RIP_ASYNC int rip_posix_vprintf(const char *fmt, va_list ap);            /* vprintf(3) */
RIP_ASYNC int rip_posix_fprintf(FILE *fp, const char *fmt, ...);         /* fprintf(3) */
RIP_ASYNC int rip_posix_printf(const char *fmt, ...);                    /* printf(3) */
RIP_ASYNC int rip_posix_dprintf(int fd, const char *fmt, ...);          /* dprintf(3): every byte, or -1 */
RIP_ASYNC int rip_posix_vdprintf(int fd, const char *fmt, va_list ap);   /* vdprintf(3) */
RIP_ASYNC int rip_posix_fflush(FILE *fp);                                /* fflush(3), NULL too */
RIP_ASYNC int rip_posix_fclose(FILE *fp);                                /* fclose(3) */
RIP_ASYNC char *rip_posix_fgets(char *s, int n, FILE *fp);               /* fgets(3) */
RIP_ASYNC int rip_posix_fgetc(FILE *fp);                                 /* fgetc(3) */
RIP_ASYNC int rip_posix_getc(FILE *fp);                                  /* getc(3) */
RIP_ASYNC int rip_posix_getchar(void);                                   /* getchar(3) */
RIP_ASYNC ssize_t rip_posix_getdelim(char **line, size_t *n, int delim, FILE *fp); /* getdelim(3) */
RIP_ASYNC ssize_t rip_posix_getline(char **line, size_t *n, FILE *fp);   /* getline(3) */
RIP_ASYNC size_t rip_posix_fread(void *p, size_t size, size_t n, FILE *fp); /* fread(3) */

#ifdef __cplusplus
}
#endif
#endif /* RIP_POSIX_H */

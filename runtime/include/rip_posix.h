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
 * Differences from the system calls, all documented in docs/posix.md:
 * timeouts (sleeps, poll, select, SO_RCVTIMEO/SO_SNDTIMEO) are rounded up
 * to whole milliseconds, plus one (the runtime's clock counts whole
 * milliseconds: never shorter than asked); the task's rip.h deadline, if it set one, limits the
 * waits (ETIMEDOUT). */
#ifndef RIP_POSIX_H
#define RIP_POSIX_H

#include <poll.h>
#include <signal.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
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
 * caller's thread.  See docs/posix.md for when each goes where. */
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
/* The later block, the same way. */
struct rusage;
RIP_ASYNC pid_t rip_posix_wait4(pid_t pid, int *status, int options, struct rusage *ru); /* wait4(2): one child by its pidfd, as waitpid */
RIP_ASYNC pid_t rip_posix_wait3(int *status, int options, struct rusage *ru);            /* wait3(2) */
RIP_ASYNC struct hostent *rip_posix_gethostbyaddr(const void *addr, socklen_t len, int type); /* gethostbyaddr(3): h_errno set */
RIP_ASYNC void rip_posix_sync(void);                                      /* sync(2) */
RIP_ASYNC int rip_posix_syncfs(int fd);                                   /* syncfs(2) */
RIP_ASYNC int rip_posix_lockf(int fd, int cmd, off_t len);                /* lockf(3): only F_LOCK waits (F_TLOCK tried first) */
RIP_ASYNC FILE *rip_posix_popen(const char *command, const char *type); /* popen(3): on the pool, under the caller's signal mask; the stream is a pipe, for the stdio calls below */
RIP_ASYNC int rip_posix_pclose(FILE *fp);                                 /* pclose(3): pending output written and the child waited for on the pool */

/* pthreads as tasks (issue 22, point 1, third bullet).  Same signatures
 * and error numbers as libc's; a thread is a task, pthread_t a value of
 * the runtime's (pthread.c), a pthread_mutex_t or pthread_cond_t the
 * user's storage, holding the runtime's object (made on first use, so the
 * static initializers work).  The waits (join, lock, cond wait) suspend
 * the task.  In ripped code the start routine is its frame constructor. */
typedef RIP_ASYNC_FN(void *, rip_posix_start_fn, (void *arg)); /* a start routine */
int rip_posix_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                             rip_posix_start_fn *start, void *arg); /* pthread_create(3): a task; attr's detach state kept, its stack size not (0, or EAGAIN, EINVAL) */
int rip_posix_pthread_create_extern(pthread_t *thread, const pthread_attr_t *attr,
                                    rip_posix_start_fn *ripped, void *(*plain)(void *), void *arg); /* rip: pthread_create of another file's start routine, ripped (its constructor, a weak reference) or plain */
int rip_posix_pthread_create_plain(pthread_t *thread, const pthread_attr_t *attr,
                                   void *(*start)(void *), void *arg); /* rip: pthread_create taken as a function pointer: start, a plain function, runs as a task */
RIP_ASYNC int rip_posix_pthread_join(pthread_t thread, void **retval); /* pthread_join(3): 0, ESRCH (no such thread), EINVAL (detached, or joined already), EDEADLK (itself) */
RIP_ASYNC __attribute__((__noreturn__)) void rip_posix_pthread_exit(void *retval); /* pthread_exit(3): the task ends with retval (destructors run); from main, the program ends when the last task does, status 0 */
int rip_posix_pthread_detach(pthread_t thread);      /* pthread_detach(3): 0, ESRCH, EINVAL */
pthread_t rip_posix_pthread_self(void);              /* pthread_self(3) */
int rip_posix_pthread_equal(pthread_t a, pthread_t b); /* pthread_equal(3) */
int rip_posix_pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr); /* 0, EINVAL, ENOMEM; type normal, recursive or errorcheck */
int rip_posix_pthread_mutex_destroy(pthread_mutex_t *m); /* 0, or EBUSY (held or waited on) */
RIP_ASYNC int rip_posix_pthread_mutex_lock(pthread_mutex_t *m); /* 0, EDEADLK (errorcheck relock), ENOMEM */
RIP_ASYNC int rip_posix_pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abstime); /* 0, ETIMEDOUT (CLOCK_REALTIME abstime passed), EINVAL, EDEADLK */
int rip_posix_pthread_mutex_trylock(pthread_mutex_t *m); /* 0, EBUSY */
int rip_posix_pthread_mutex_unlock(pthread_mutex_t *m);  /* 0, EPERM (errorcheck, recursive: not the holder) */
int rip_posix_pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr); /* 0, EINVAL, ENOMEM; the attr's clock kept */
int rip_posix_pthread_cond_destroy(pthread_cond_t *c);   /* 0, or EBUSY (waited on) */
RIP_ASYNC int rip_posix_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m); /* 0, EPERM (m not held) */
RIP_ASYNC int rip_posix_pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
                                               const struct timespec *abstime); /* 0, ETIMEDOUT (abstime on c's clock passed; m held again), EINVAL, EPERM */
int rip_posix_pthread_cond_signal(pthread_cond_t *c);    /* 0 */
int rip_posix_pthread_cond_broadcast(pthread_cond_t *c); /* 0 */
int rip_posix_pthread_key_create(pthread_key_t *key, void (*destructor)(void *)); /* 0, EAGAIN; destructors run at the end of each task with a value */
int rip_posix_pthread_key_delete(pthread_key_t key);     /* 0, EINVAL */
void *rip_posix_pthread_getspecific(pthread_key_t key);  /* the calling task's value, or NULL */
int rip_posix_pthread_setspecific(pthread_key_t key, const void *value); /* 0, EINVAL, ENOMEM */
int rip_posix_pthread_rwlock_init(pthread_rwlock_t *l, const pthread_rwlockattr_t *attr); /* 0, ENOMEM; readers preferred (glibc's default) whatever attr says */
int rip_posix_pthread_rwlock_destroy(pthread_rwlock_t *l); /* 0, or EBUSY (held or waited on) */
RIP_ASYNC int rip_posix_pthread_rwlock_rdlock(pthread_rwlock_t *l); /* 0, EDEADLK (the caller holds it for writing) */
RIP_ASYNC int rip_posix_pthread_rwlock_wrlock(pthread_rwlock_t *l); /* 0, EDEADLK */
RIP_ASYNC int rip_posix_pthread_rwlock_timedrdlock(pthread_rwlock_t *l, const struct timespec *abstime); /* 0, ETIMEDOUT (CLOCK_REALTIME), EINVAL, EDEADLK */
RIP_ASYNC int rip_posix_pthread_rwlock_timedwrlock(pthread_rwlock_t *l, const struct timespec *abstime); /* likewise */
int rip_posix_pthread_rwlock_tryrdlock(pthread_rwlock_t *l); /* 0, EBUSY, EDEADLK */
int rip_posix_pthread_rwlock_trywrlock(pthread_rwlock_t *l); /* 0, EBUSY, EDEADLK */
int rip_posix_pthread_rwlock_unlock(pthread_rwlock_t *l);    /* 0, EPERM (not locked) */
int rip_posix_pthread_once(pthread_once_t *once, void (*init)(void)); /* 0: init has run once, by whichever task came first */
int rip_posix_pthread_kill(pthread_t thread, int sig); /* pthread_kill(3): 0 (sig 0: it exists; else the handler ran and thread's interruptible wait ended as signal(7) says), ESRCH, EINVAL (core/psignal.c) */
void *rip_posix_tls(void **slot, const void *image, size_t size, size_t align); /* the calling task's copy of a __thread variable (image, size, align: the variable; slot: its index, 0 until first use), made from image at its first use; outside any task image itself */

/* stdio (glibc): on sockets, pipes and terminals the task waits where the
 * library's call would block its thread; the same bytes, buffering, flags
 * (ferror, feof, clearerr) and results as the library's (docs/posix.md);
 * a regular file goes straight to the library. */
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
/* The scanf family (issue 22): glibc's own conversions, its result and
 * errno; the input it takes and leaves in the stream's buffer is glibc's
 * (the task waits where glibc's read would block). */
RIP_ASYNC int rip_posix_scanf(const char *fmt, ...);                     /* scanf(3) */
RIP_ASYNC int rip_posix_fscanf(FILE *fp, const char *fmt, ...);          /* fscanf(3) */
RIP_ASYNC int rip_posix_vscanf(const char *fmt, va_list ap);             /* vscanf(3) */
RIP_ASYNC int rip_posix_vfscanf(FILE *fp, const char *fmt, va_list ap);  /* vfscanf(3) */

#ifdef __cplusplus
}
#endif
#endif /* RIP_POSIX_H */

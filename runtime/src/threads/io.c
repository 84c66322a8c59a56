/* io.c -- file descriptor calls and their deadlines for the `threads`
 * backend.
 *
 * The libtask shape, as on the other backends: try the system call in a
 * way that never blocks (shared/nonblock.h); on EAGAIN wait in poll();
 * retry.
 * EINTR is retried.  Several tasks may wait on one fd: all wake, one wins,
 * the others find EAGAIN and wait again.  close(2) does not wake a thread
 * in poll(2), so a waiter registers itself under its fd, and rip_close
 * sends each one RIP_THR_SIGNAL: a waiter blocks that signal except inside
 * ppoll, which returns EINTR, and the waiter sees the fd's close generation
 * moved (it fails with EBADF, as on the other backends).  poll never waits
 * past the task's deadline (then the call fails with ETIMEDOUT), and an
 * idle waiter costs no wake-ups.  While waiting the task counts as busy,
 * so rip_run does not call a wait for I/O a deadlock.  Nothing else is
 * known of an fd number: one closed with close(2) and reused is simply a
 * new file to poll. */
#define _GNU_SOURCE                 /* ppoll */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdatomic.h>
#include <time.h>
#include <unistd.h>

#include "threads.h"
#include "../shared/nonblock.h"

#define FD_SLOTS 65536              /* fds with a close generation (higher: none) */
#define RIP_THR_SIGNAL (SIGRTMIN + 7) /* interrupts a waiter's ppoll on rip_close */

static _Atomic unsigned close_gen[FD_SLOTS];     /* bumped by rip_close(fd) */
static __thread int64_t deadline = -1; /* the task's rip_set_deadline, -1 for none */

/* A thread waiting in ppoll on an fd, for rip_close to interrupt. */
typedef struct fd_waiter {
    struct fd_waiter *next, *prev;  /* others waiting on the same fd */
    pthread_t thread;               /* the waiting thread */
} fd_waiter;

static pthread_mutex_t waiters_mu = PTHREAD_MUTEX_INITIALIZER; /* guards waiters */
static fd_waiter *waiters[FD_SLOTS]; /* by fd: threads in ppoll on it */
static pthread_once_t signal_once = PTHREAD_ONCE_INIT;

static void on_signal(int sig) {
    (void)sig;                      /* only to make ppoll return EINTR */
}

static void install_signal(void) {
    struct sigaction sa = { .sa_handler = on_signal };  /* no SA_RESTART */
    sigemptyset(&sa.sa_mask);
    sigaction(RIP_THR_SIGNAL, &sa, NULL);
}

int64_t rip_thr_deadline(void) {
    return deadline;
}

int64_t rip_set_deadline(int64_t at_ms) {
    int64_t previous = deadline;
    deadline = at_ms < 0 ? -1 : at_ms;
    return previous;
}

/* ---- per-fd state ---------------------------------------------------- */

static int tracked(int fd) {
    return fd >= 0 && fd < FD_SLOTS;
}

static unsigned generation(int fd) {
    return tracked(fd) ? atomic_load(&close_gen[fd]) : 0;
}

/* ---- waiting --------------------------------------------------------- */

static void register_waiter(int fd, fd_waiter *w) {
    w->thread = pthread_self();
    w->prev = NULL;
    pthread_mutex_lock(&waiters_mu);
    if ((w->next = waiters[fd]))
        w->next->prev = w;
    waiters[fd] = w;
    pthread_mutex_unlock(&waiters_mu);
}

static void unregister_waiter(int fd, fd_waiter *w) {
    pthread_mutex_lock(&waiters_mu);
    if (w->prev)
        w->prev->next = w->next;
    else
        waiters[fd] = w->next;
    if (w->next)
        w->next->prev = w->prev;
    pthread_mutex_unlock(&waiters_mu);
}

/* Block RIP_THR_SIGNAL, rip_close's wake-up, so that it is delivered only
 * inside ppoll: the mask before in *old, the one to wait under in *waiting. */
static void block_wakeup(sigset_t *old, sigset_t *waiting) {
    sigset_t block;
    pthread_once(&signal_once, install_signal);
    sigemptyset(&block);
    sigaddset(&block, RIP_THR_SIGNAL);
    pthread_sigmask(SIG_BLOCK, &block, old);
    *waiting = *old;
    sigdelset(waiting, RIP_THR_SIGNAL);
}

/* Wait until fd is ready for `events`: 0, or -1 with EBADF once rip_close'd
 * (gen is the close generation when the call began), ETIMEDOUT at the
 * deadline, or poll's errno.  A deadline already past never waits. */
static int wait_ready(int fd, short events, unsigned gen) {
    struct pollfd pfd = { .fd = fd, .events = events, .revents = 0 };
    sigset_t old, waiting;
    fd_waiter self;
    int rc = -1;
    block_wakeup(&old, &waiting);
    if (tracked(fd))
        register_waiter(fd, &self);
    rip_thr_busy_begin();
    rip_thr_wait_note(events & POLLOUT ? RIP_THR_FD_WRITE : RIP_THR_FD_READ, NULL, fd, 0, 0);
    for (;;) {
        struct timespec ts, *timeout = NULL;
        if (deadline >= 0) {
            int64_t left = deadline - rip_now_ms();
            if (left <= 0) {
                errno = ETIMEDOUT;
                break;
            }
            ts.tv_sec = left / 1000;
            ts.tv_nsec = (left % 1000) * 1000000;
            timeout = &ts;
        }
        if (generation(fd) != gen) {    /* before ppoll: a signal sent since is pending */
            errno = EBADF;
            break;
        }
        int n = ppoll(&pfd, 1, timeout, &waiting);
        if (n > 0 && (pfd.revents & POLLNVAL)) {
            errno = EBADF;
            break;
        }
        if (n > 0 && generation(fd) == gen) {
            rc = 0;
            break;
        }
        if (n < 0 && errno != EINTR)
            break;
    }
    int saved = errno;
    rip_thr_wait_note(RIP_THR_NONE, NULL, 0, 0, 0);
    rip_thr_busy_end();
    if (tracked(fd))
        unregister_waiter(fd, &self);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    return rc;
}

/* A call failed with errno: 1 to try it again (interrupted, or fd became
 * ready), 0 to fail with errno. */
static int again(int fd, short events, unsigned gen) {
    if (errno == EINTR)
        return 1;
    if (errno != EAGAIN && errno != EWOULDBLOCK)
        return 0;
    return wait_ready(fd, events, gen) == 0;
}

/* ---- the calls ------------------------------------------------------- */

ssize_t rip_read(int fd, void *buf, size_t len) {
    rip_thr_in_a_task(__func__);
    unsigned gen = generation(fd);
    ssize_t n;
    while ((n = rip__try_read(fd, buf, len)) < 0 && again(fd, POLLIN, gen))
        ;
    return n;
}

ssize_t rip_write(int fd, const void *buf, size_t len) {
    rip_thr_in_a_task(__func__);
    const unsigned char *p = buf;
    size_t done = 0;
    unsigned gen = generation(fd);
    while (done < len) {
        ssize_t n = rip__try_write(fd, p + done, len - done);
        if (n >= 0)
            done += (size_t)n;
        else if (!again(fd, POLLOUT, gen))
            return -1;
    }
    return (ssize_t)len;
}

int rip_accept(int fd, struct sockaddr *addr, socklen_t *len) {
    rip_thr_in_a_task(__func__);
    unsigned gen = generation(fd);
    int s;
    while ((s = rip__try_accept(fd, addr, len)) < 0 && again(fd, POLLIN, gen))
        ;
    return s;
}

/* A connect that is in progress (or was interrupted by a signal: it goes
 * on in the background) is over when the socket is writable; its outcome
 * is in SO_ERROR. */
int rip_connect(int fd, const struct sockaddr *addr, socklen_t len) {
    rip_thr_in_a_task(__func__);
    unsigned gen = generation(fd);
    if (rip__try_connect(fd, addr, len) == 0)
        return 0;
    if (errno != EINPROGRESS && errno != EINTR)
        return -1;
    if (wait_ready(fd, POLLOUT, gen) == -1)
        return -1;
    int err = 0;
    socklen_t errlen = sizeof err;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &errlen) == -1)
        return -1;
    if (err != 0) {
        errno = err;
        return -1;
    }
    return 0;
}

int rip_close(int fd) {
    if (tracked(fd)) {
        atomic_fetch_add(&close_gen[fd], 1);
        pthread_mutex_lock(&waiters_mu);
        for (fd_waiter *w = waiters[fd]; w; w = w->next)
            pthread_kill(w->thread, RIP_THR_SIGNAL);
        pthread_mutex_unlock(&waiters_mu);
    }
    return close(fd);
}

/* ---- rip_poll ---------------------------------------------------------- */

/* poll(2) itself, with the wait in ppoll so that rip_close of a polled fd
 * interrupts it (each fd's waiter list, as for one fd above); then poll
 * again without waiting, which reports a closed fd POLLNVAL.  The wait
 * ends at the earlier of poll's own timeout (0) and the task's deadline
 * (-1 and ETIMEDOUT). */
int rip_poll(struct pollfd *fds, nfds_t n, int timeout_ms) {
    rip_thr_in_a_task(__func__);
    int64_t until = timeout_ms >= 0 ? rip_now_ms() + timeout_ms : -1;
    fd_waiter *selves = NULL;
    sigset_t old, waiting;
    int result;
    block_wakeup(&old, &waiting);
    if (timeout_ms != 0 && n > 0) {
        if (!(selves = calloc(n, sizeof *selves))) {
            pthread_sigmask(SIG_SETMASK, &old, NULL);
            return -1;
        }
        for (nfds_t i = 0; i < n; i++)
            if (tracked(fds[i].fd))
                register_waiter(fds[i].fd, &selves[i]);
    }
    rip_thr_busy_begin();
    for (;;) {
        result = poll(fds, n, 0);
        if (result == -1 && errno == EINTR)
            continue;
        if (result != 0 || timeout_ms == 0)
            break;
        int64_t now = rip_now_ms(), end = until;
        int by_deadline = deadline >= 0 && (until < 0 || deadline < until);
        if (by_deadline)
            end = deadline;
        if (end >= 0 && now >= end) {
            if (by_deadline) {
                errno = ETIMEDOUT;
                result = -1;
            }
            break;
        }
        struct timespec ts, *timeout = NULL;
        if (end >= 0) {
            ts.tv_sec = (end - now) / 1000;
            ts.tv_nsec = ((end - now) % 1000) * 1000000;
            timeout = &ts;
        }
        if (ppoll(fds, n, timeout, &waiting) == -1 && errno != EINTR) {
            result = -1;
            break;
        }
    }
    int saved = errno;
    rip_thr_busy_end();
    if (selves) {
        for (nfds_t i = 0; i < n; i++)
            if (tracked(fds[i].fd))
                unregister_waiter(fds[i].fd, &selves[i]);
        free(selves);
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    return result;
}

/* psignal.c -- signals in POSIX mode (rip and ucontext backends): a
 * handled signal interrupts a waiting call as signal(7) says, and close
 * wakes the tasks waiting on the fd.
 *
 * How the runtime learns a handler ran: `ripcc --posix` links with
 * -Wl,--wrap=sigaction (and signal, __sysv_signal, siginterrupt), so the
 * program's handler is installed behind a trampoline: the kernel runs
 * the trampoline, which calls the program's handler exactly as the kernel
 * would have (SA_SIGINFO or not, the same sa_mask and flags), then counts
 * the delivery (rip__sig_delivered, and per signal the count at its latest
 * delivery and its handler's SA_RESTART) and writes to an eventfd the
 * scheduler's loop watches, so a loop blocked in epoll_wait wakes (the
 * signal may land on another thread).  sigaction asked for the old action
 * gets the program's, never the trampoline.  The handler runs once, from
 * the kernel's delivery; the runtime only reads the counts.
 *
 * Which wait a signal interrupts: every task of a scheduler runs on its
 * one thread, so they share one signal mask (sigprocmask and
 * pthread_sigmask in a task change it for all; on ucontext the runtime
 * hands it to every context, ucontext/sched.c).  Linux gives a
 * process-directed signal to the main thread when that thread does not
 * block it, so the first task (main under --posix) is the one
 * interrupted, if it waits in an interruptible call that began before the
 * delivery; any other task's wait goes on, as another thread's would.
 * Once the first task has ended, the oldest interruptible wait is.  A
 * signal a task sends itself (raise, pthread_kill of its own thread: a
 * thread-directed signal, delivered while it runs) ends no wait, as it
 * would end no other thread's.
 *
 * pthread_kill of another task (a thread-directed signal): the runtime
 * sends it to its own thread, so the handler runs at once, once, as the
 * process's (a default action, ignore or terminate, is the kernel's own);
 * when the handler ran, the target task's interruptible wait, and no
 * other, ends as signal(7) says (below).  A signal the thread blocks stays
 * pending and, once let in, ends no wait.
 *
 * ppoll, pselect and epoll_pwait apply their mask during the wait: a
 * signal it blocks ends nothing (its handler still runs: the thread's mask
 * is every task's); a signal the thread blocks and the mask lets in is
 * let in while such a call waits (the loop blocks in epoll_pwait with
 * the thread's mask less those, rip__signals_wait_mask) and ends that
 * call, as the kernel's ppoll would: the pselect pattern (block SIGCHLD,
 * test a flag, pselect with SIGCHLD let in) works.
 *
 * What a signal does to a wait (signal(7)): poll, select, epoll_wait,
 * their p- forms and the sleeps always end (EINTR; sleep returns the whole
 * seconds not slept, nanosleep fills rem); read, write, recv, send,
 * accept, connect... go on when the handler has SA_RESTART, else end with
 * EINTR, or the count when some bytes moved (then under SA_RESTART too);
 * a socket call limited by SO_RCVTIMEO/SO_SNDTIMEO always ends; a signal
 * a ppoll/pselect/epoll_pwait mask blocks ends nothing.
 *
 * The loop dispatches on its own thread between task runs
 * (rip__signals_check: one relaxed load per turn of the loop), so a wait
 * ends after its handler has returned, as the kernel's call does. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <pthread.h>
#include <string.h>
#include <sys/eventfd.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>
#include "pxthread.h"
#include "rip_posix.h"
#include "../shared/sys.h"

#define NSIGS 65                    /* Linux's _NSIG: signals 1..64 */

typedef struct {
    struct sigaction act;           /* the program's action, as it set it */
    int ours;                       /* the trampoline is installed in its place */
} program_action;

static program_action actions[NSIGS];
uint64_t rip__sig_delivered;        /* handled deliveries so far */
static uint64_t last_of[NSIGS];     /* rip__sig_delivered just after each signal's latest delivery */
static int restart_of[NSIGS];       /* SA_RESTART of the handler that ran for it */
static int wake_fd = -1;            /* the eventfd a delivery writes (made with the first trampoline) */

static __thread struct {
    rip_intr *first, *last;         /* the interruptible waits of this scheduler, oldest first */
    int watching;                   /* wake_fd is in this scheduler's loop */
    int in_handler;                 /* trampolines running on this thread */
    int masked;                     /* waits on the list with a mask (ppoll, pselect, epoll_pwait) */
    volatile sig_atomic_t directed_ran;             /* the signal whose handler the running task's own signal (raise, pthread_kill) ran last, or 0 */
    volatile sig_atomic_t directed_restart;         /* that handler's SA_RESTART */
} T;

int rip__in_signal_handler(void) {
    return T.in_handler > 0;
}

static void trampoline(int sig, siginfo_t *si, void *uc) {
    program_action *a = &actions[sig];
    struct sigaction act = a->act;  /* the handler may change it */
    if (act.sa_flags & SA_RESETHAND) {  /* the kernel reset it to SIG_DFL already */
        memset(&a->act, 0, sizeof a->act);
        a->act.sa_handler = SIG_DFL;
        a->ours = 0;
    }
    T.in_handler++;
    if (act.sa_flags & SA_SIGINFO)
        act.sa_sigaction(sig, si, uc);
    else
        act.sa_handler(sig);
    T.in_handler--;
    int saved = errno;
    if (si && si->si_code == SI_TKILL && si->si_pid == getpid() && rip__current()) {
        T.directed_ran = sig;       /* raise() or pthread_kill by the running task: directed at it (it waits on nothing) or at the task pthread_kill names */
        T.directed_restart = (act.sa_flags & SA_RESTART) != 0;
        errno = saved;
        return;
    }
    __atomic_store_n(&restart_of[sig], (act.sa_flags & SA_RESTART) != 0, __ATOMIC_RELAXED);
    uint64_t n = __atomic_add_fetch(&rip__sig_delivered, 1, __ATOMIC_SEQ_CST);
    __atomic_store_n(&last_of[sig], n, __ATOMIC_SEQ_CST);
    if (wake_fd >= 0) {
        uint64_t one = 1;
        if (rip__sys_write(wake_fd, &one, sizeof one) < 0) {
            /* full (2^64 - 2 unread): the loop is awake already */
        }
    }
    errno = saved;
}

/* A function to call, not SIG_DFL or SIG_IGN (sa_handler and sa_sigaction
 * share their storage: either way the same bits). */
static int is_handler(const struct sigaction *act) {
    return act->sa_handler != SIG_DFL && act->sa_handler != SIG_IGN && act->sa_handler != SIG_ERR;
}

/* A child of fork(2) makes an epoll set of its own (poll.c): wake_fd is
 * watched again at its next wait. */
static void after_fork_in_child(void) {
    T.watching = 0;
}

int rip_posix_sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
    if (sig <= 0 || sig >= NSIGS || (act && (sig == SIGKILL || sig == SIGSTOP)))
        return rip__sys_sigaction(sig, act, old);   /* its EINVAL */
    sigset_t just, saved;
    sigemptyset(&just);
    sigaddset(&just, sig);
    rip__sys_pthread_sigmask(SIG_BLOCK, &just, &saved);      /* no trampoline of sig reads the table meanwhile */
    struct sigaction was;
    int r = 0;
    if (actions[sig].ours)
        was = actions[sig].act;
    else
        r = rip__sys_sigaction(sig, NULL, &was);
    if (r == 0 && act) {
        if (is_handler(act)) {
            if (wake_fd < 0) {
                wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);   /* none: waits still end when the loop's epoll_wait does */
                pthread_atfork(NULL, NULL, after_fork_in_child);
            }
            struct sigaction real = *act;
            real.sa_sigaction = trampoline;
            real.sa_flags |= SA_SIGINFO;
            program_action before = actions[sig];
            actions[sig].act = *act;
            if ((r = rip__sys_sigaction(sig, &real, NULL)) == 0)
                actions[sig].ours = 1;
            else
                actions[sig] = before;  /* the kernel kept the old one */
        } else if ((r = rip__sys_sigaction(sig, act, NULL)) == 0) {
            actions[sig].ours = 0;
        }
    }
    int err = errno;
    rip__sys_pthread_sigmask(SIG_SETMASK, &saved, NULL);
    errno = err;
    if (r == 0 && old)
        *old = was;
    return r;
}

/* signal(2) as glibc's: BSD semantics (SA_RESTART, the signal blocked in
 * its handler); __sysv_signal (what strict ISO C's signal is): a handler
 * run once, not blocked in itself, no restart. */
static rip_posix_handler set_handler(int sig, rip_posix_handler handler, int flags) {
    struct sigaction act, old;
    memset(&act, 0, sizeof act);
    act.sa_handler = handler;
    act.sa_flags = flags;
    sigemptyset(&act.sa_mask);
    if (!(flags & SA_NODEFER) && sig > 0 && sig < NSIGS)
        sigaddset(&act.sa_mask, sig);
    if (handler == SIG_ERR || rip_posix_sigaction(sig, &act, &old) == -1) {
        errno = EINVAL;
        return SIG_ERR;
    }
    return old.sa_handler;
}

rip_posix_handler rip_posix_signal(int sig, rip_posix_handler handler) {
    return set_handler(sig, handler, SA_RESTART);
}

rip_posix_handler rip_posix___sysv_signal(int sig, rip_posix_handler handler) {
    return set_handler(sig, handler, SA_RESETHAND | SA_NODEFER);
}

int rip_posix_siginterrupt(int sig, int flag) {
    struct sigaction act;
    if (rip_posix_sigaction(sig, NULL, &act) == -1)
        return -1;
    if (flag)
        act.sa_flags &= ~SA_RESTART;
    else
        act.sa_flags |= SA_RESTART;
    return rip_posix_sigaction(sig, &act, NULL);
}

/* The loop's callback for wake_fd: empty it (the counts say the rest). */
static void drain(int fd, unsigned events, void *data) {
    uint64_t n;
    (void)events, (void)data;
    while (rip__sys_read(fd, &n, sizeof n) > 0)
        ;
}

void rip__intr_begin(rip_intr *r, rip_waiter *w, rip_cancel_fn *cancel, void *on, int key,
                     int restartable, const size_t *moved, const sigset_t *mask) {
    r->task = rip__current();
    r->w = w;
    r->cancel = cancel;
    r->on = on;
    r->key = key;
    r->restartable = restartable;
    r->moved = moved;
    r->mask = mask;
    r->since = __atomic_load_n(&rip__sig_delivered, __ATOMIC_SEQ_CST);
    r->next = NULL;
    r->prev = T.last;
    if (T.last)
        T.last->next = r;
    else
        T.first = r;
    T.last = r;
    r->listed = 1;
    r->held = 0;
    T.masked += mask != NULL;
    if (wake_fd >= 0) {             /* a trampoline exists: the loop polls, so its write wakes it */
        if (!T.watching && rip__loop_watch(wake_fd, RIP_EV_READ, drain, NULL) == 0)
            T.watching = 1;
        if (T.watching) {
            rip__loop_hold(1);
            r->held = 1;
        }
    }
}

static void unlist(rip_intr *r) {
    if (r->prev)
        r->prev->next = r->next;
    else
        T.first = r->next;
    if (r->next)
        r->next->prev = r->prev;
    else
        T.last = r->prev;
    r->listed = 0;
    T.masked -= r->mask != NULL;
    if (r->held) {
        rip__loop_hold(-1);
        r->held = 0;
    }
}

void rip__intr_end(rip_intr *r) {
    if (r->listed)
        unlist(r);
    else if (r->held) {
        rip__loop_hold(-1);
        r->held = 0;
    }
}

/* The wait signal `sig`, delivered as number `at`, interrupts: one whose
 * mask let in a signal the thread blocks (ppoll, pselect, epoll_pwait:
 * the kernel delivered it there), else the first task's, else (it ended)
 * the oldest; NULL for none. */
static rip_intr *target(int sig, uint64_t at, const sigset_t *blocked) {
    rip_intr *r = T.first;
    if (sigismember(blocked, sig)) {
        while (r && !(r->mask && !sigismember(r->mask, sig)))
            r = r->next;
    } else if (rip__sched.first) {
        while (r && r->task != rip__sched.first)
            r = r->next;
    }
    if (!r || r->since >= at)
        return NULL;                /* it began after the handler ran */
    if (r->mask && sigismember(r->mask, sig))
        return NULL;
    if (r->restartable && __atomic_load_n(&restart_of[sig], __ATOMIC_RELAXED) &&
            !(r->moved && *r->moved))
        return NULL;                /* SA_RESTART: the call goes on */
    return r;
}

void rip__signals_dispatch(void) {
    uint64_t now = __atomic_load_n(&rip__sig_delivered, __ATOMIC_SEQ_CST);
    sigset_t blocked;
    rip__sys_pthread_sigmask(SIG_BLOCK, NULL, &blocked);
    for (int sig = 1; sig < NSIGS; sig++) {
        uint64_t at = __atomic_load_n(&last_of[sig], __ATOMIC_SEQ_CST);
        if (at <= rip__sched.sig_seen)
            continue;
        rip_intr *r = target(sig, at, &blocked);
        if (!r)
            continue;
        unlist(r);
        if (r->cancel(r->w, r->on, r->key)) {
            r->w->status = EINTR;
            rip__ready(r->task);
        }
    }
    rip__sched.sig_seen = now;
    rip__dump_asked();              /* RIP_DUMP_SIGNAL counts as a delivery too */
}

/* End task's interruptible wait, if it has one, as a signal `sig` whose
 * handler has SA_RESTART `restart` would end a thread's. */
static void interrupt_task(rip_task *task, int sig, int restart) {
    rip_intr *r = T.first;
    while (r && r->task != task)
        r = r->next;
    if (!r || (r->mask && sigismember(r->mask, sig)))
        return;                     /* no wait, or its ppoll mask blocks sig */
    if (r->restartable && restart && !(r->moved && *r->moved))
        return;                     /* SA_RESTART: the call goes on */
    unlist(r);
    if (r->cancel(r->w, r->on, r->key)) {
        r->w->status = EINTR;
        rip__ready(r->task);
    }
}

int rip_posix_pthread_kill(pthread_t id, int sig) {
    if (sig < 0 || sig >= NSIGS || sig == 32 || sig == 33)
        return EINVAL;              /* glibc: 32 and 33 are its own (SIGCANCEL, SIGSETXID) */
    rip_task *task = NULL;
    int err = rip__px_thread_task(id, &task);
    if (err || sig == 0 || !task)
        return err;                 /* an ended thread not yet joined: glibc sends nothing, 0 */
    int saved = errno;
    T.directed_ran = 0;
    if (syscall(SYS_tgkill, getpid(), (pid_t)syscall(SYS_gettid), sig) == -1) {
        err = errno;
        errno = saved;
        return err;
    }
    errno = saved;
    if (task != rip__current() && T.directed_ran == sig)
        interrupt_task(task, sig, T.directed_restart);
    return 0;
}

const sigset_t *rip__signals_wait_mask(sigset_t *buf) {
    if (!T.masked)
        return NULL;
    sigset_t blocked;
    int opened = 0;
    rip__sys_pthread_sigmask(SIG_BLOCK, NULL, &blocked);
    *buf = blocked;
    for (rip_intr *r = T.first; r; r = r->next) {
        if (!r->mask)
            continue;
        for (int sig = 1; sig < NSIGS; sig++) {
            if (sigismember(buf, sig) && !sigismember(r->mask, sig)) {
                sigdelset(buf, sig);
                opened = 1;
            }
        }
    }
    if (!opened)
        return NULL;
    /* Signals already pending that a wait lets in: delivered now, their
     * handlers run as in the kernel's ppoll (a wait with timeout 0 might
     * not deliver them). */
    rip__sys_pthread_sigmask(SIG_SETMASK, buf, NULL);
    rip__sys_pthread_sigmask(SIG_SETMASK, &blocked, NULL);
    return buf;
}

void rip__signals_end(void) {
    T.watching = 0;                 /* the loop's epoll set is gone */
    T.first = T.last = NULL;
    T.masked = 0;
}

/* close(2): the tasks waiting on the fd wake with EBADF (a thread would
 * wait on), and what the loop knew of the fd is forgotten; no system call
 * more than close (the kernel takes the file out of the epoll set).
 * shutdown(2) needs nothing: the kernel's wakeup reaches epoll as it
 * reaches a blocked thread (tests/test_posix_signals.py). */
int rip_posix_close(int fd) {
    if (rip__current() && !T.in_handler)    /* (a handler that longjmps out leaves in_handler set: close then only closes, as before) */
        rip__fd_renew(fd);
    return rip__sys_close(fd);
}

/* The sleeps: a timer a signal ends (status EINTR) before it expires
 * (status ETIMEDOUT). */
static int sleep_expired(rip_waiter *w, void *on, int key) {
    (void)w, (void)on, (void)key;
    return 1;
}

static int sleep_interrupted(rip_waiter *w, void *on, int key) {
    rip_timer *tm = on;
    (void)w, (void)key;
    if (!tm->w)
        return 0;                   /* expired: its task is queued already */
    rip__timer_cancel(tm);
    return 1;
}

static void monotonic(struct timespec *ts) {
    clock_gettime(CLOCK_MONOTONIC, ts);
}

void rip__px_sleep_begin(rip_pxsleep *s, const struct timespec *rel) {
    monotonic(&s->end);
    s->end.tv_sec += rel->tv_sec;
    s->end.tv_nsec += rel->tv_nsec;
    if (s->end.tv_nsec >= 1000000000L) {
        s->end.tv_sec++;
        s->end.tv_nsec -= 1000000000L;
    }
    int64_t ms = (int64_t)rel->tv_sec * 1000 + (rel->tv_nsec + 999999) / 1000000;
    s->w.status = 0;
    s->timer.w = &s->w;
    s->timer.cancel = sleep_expired;
    s->timer.on = NULL;
    s->timer.key = 0;
    rip__timer_start(&s->timer, rip_now_ms() + rip__px_ms_at_least(ms));
    rip__intr_begin(&s->intr, &s->w, sleep_interrupted, &s->timer, 0, 0, NULL, NULL);
}

int rip__px_sleep_end(rip_pxsleep *s, struct timespec *rem) {
    rip__intr_end(&s->intr);
    if (s->w.status != EINTR)
        return 0;
    if (rem) {
        struct timespec now;
        monotonic(&now);
        int64_t left = ((int64_t)s->end.tv_sec - now.tv_sec) * 1000000000 + (s->end.tv_nsec - now.tv_nsec);
        if (left < 0)
            left = 0;
        rem->tv_sec = left / 1000000000;
        rem->tv_nsec = left % 1000000000;
    }
    return -1;
}

int rip__px_sleep_request(int kind, const void *arg, struct timespec *rel) {
    if (kind == 0) {
        *rel = (struct timespec){ *(const unsigned *)arg, 0 };
    } else if (kind == 1) {
        useconds_t us = *(const useconds_t *)arg;
        *rel = (struct timespec){ us / 1000000, (long)(us % 1000000) * 1000 };
    } else {
        const struct timespec *req = arg;
        if (!req) {
            errno = EFAULT;
            return -1;
        }
        if (req->tv_sec < 0 || req->tv_nsec < 0 || req->tv_nsec > 999999999) {
            errno = EINVAL;
            return -1;
        }
        *rel = *req;
    }
    return 0;
}

int rip__px_clock_request(clockid_t clock, int flags, const struct timespec *req,
                          struct timespec *rel) {
    if (!req)
        return EFAULT;
    if (req->tv_sec < 0 || req->tv_nsec < 0 || req->tv_nsec > 999999999)
        return EINVAL;
    if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC && clock != CLOCK_BOOTTIME &&
            clock != CLOCK_TAI)
        return clock == CLOCK_THREAD_CPUTIME_ID ? EINVAL : ENOTSUP;
    *rel = *req;
    if (flags & TIMER_ABSTIME) {
        struct timespec now;
        if (clock_gettime(clock, &now) == -1)
            return errno;
        int64_t left = ((int64_t)req->tv_sec - now.tv_sec) * 1000000000 + (req->tv_nsec - now.tv_nsec);
        if (left < 0)
            left = 0;
        *rel = (struct timespec){ left / 1000000000, left % 1000000000 };
    }
    return 0;
}

/* The link-time wrappers (ripcc --posix, rip and ucontext): the program's
 * calls come here, in a task or not; the runtime's own go past them
 * (shared/sys.h). */
int __wrap_sigaction(int sig, const struct sigaction *act, struct sigaction *old) {
    return rip_posix_sigaction(sig, act, old);
}

rip_posix_handler __wrap_signal(int sig, rip_posix_handler handler) {
    return rip_posix_signal(sig, handler);
}

rip_posix_handler __wrap___sysv_signal(int sig, rip_posix_handler handler) {
    return rip_posix___sysv_signal(sig, handler);
}

int __wrap_siginterrupt(int sig, int flag) {
    return rip_posix_siginterrupt(sig, flag);
}

int __wrap_close(int fd) {
    return rip_posix_close(fd);
}

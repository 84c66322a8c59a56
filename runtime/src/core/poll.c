/* poll.c -- the event loop of the rip and ucontext backends: one epoll
 * instance per scheduler, each fd registered (edge-triggered, for reading
 * and writing) on its first wait and forgotten on rip_close.  The
 * scheduler polls when its run queue is empty, and now and then while it
 * is not.  Readiness is cached: an fd that said EAGAIN is not tried again
 * until an event says it changed (RIP_FD_RDEMPTY, RIP_FD_WRFULL).
 *
 * A number closed behind the runtime's back (close(2), dup2 over it, a
 * library) leaves the epoll set with its file, and may come back as a new
 * file.  Adding the fd again tells: EEXIST is the same file, and a number
 * added before that the set takes again names a new file, whose old
 * waiters can never be woken by an event: they fail with EBADF, as after
 * rip_close.  That check is a system call, so a wait on an fd already in
 * the set is trusted at first: most end with an event within a poll or
 * two (a keep-alive connection's next request), which proves the file is
 * the watched one.  A trusted wait still going after VERIFY_POLLS polls is
 * checked then, and while any is pending a poll blocks at most VERIFY_MS:
 * a reused number costs its waiter a few milliseconds, never a hang.
 *
 * A number closed while a task waits on it, and not reused (or reused by
 * a file the runtime never sees), sends no event either: epoll drops a
 * closed file from its set in silence.  So every SWEEP_MS the loop checks
 * the waits that nothing has proven alive since the sweep before (the
 * same adding again: EBADF, or a new file), and while tasks wait on fds
 * a poll blocks at most until the next sweep: such a waiter fails with
 * EBADF within 2 * SWEEP_MS, at one system call per waited fd per second
 * (an idle keep-alive connection's).
 *
 * Besides the tasks' fd waits the loop serves any other event source in
 * the shape of Redis ae's aeCreateFileEvent: rip__loop_watch(fd, mask,
 * proc, data) calls proc from the loop whenever fd has an event of mask
 * (offload.c's eventfd is one such client; the loop knows none by name).
 * A source that awaits events while no task waits on an fd holds the loop
 * (rip__loop_hold), so that it polls rather than ends or sleeps blind. */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>
#include "core.h"
#include "../shared/sys.h"

#define VERIFY_POLLS 2              /* polls whose events may end a trusted wait before it is checked */
#define VERIFY_MS 5                 /* the longest a poll blocks while a check is pending */
#define SWEEP_MS 500                /* how often waits no event or check has proven alive are checked */
#define FD_EVENTS (EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET)

typedef struct {
    rip_waitlist readers;           /* tasks waiting until fd is readable */
    rip_waitlist writers;           /* tasks waiting until fd is writable */
    unsigned flags;                 /* RIP_FD_* */
    unsigned trusted;               /* its waiters with `trusted` set */
    int queued;                     /* it is in P.checks */
    unsigned long proven;           /* P.sweeps when adding it to the set last showed the number names the watched file */
    rip_event_fn *proc;             /* a watcher's callback (rip__loop_watch), else NULL */
    void *data;                     /* its argument */
} fd_state;

typedef struct {
    int fd;                         /* an fd with trusted waits */
    unsigned long poll;             /* P.polls when it was queued */
} fd_check;

static __thread struct {
    int open;                       /* epfd is valid */
    int epfd;                       /* the epoll instance, made when the scheduler starts */
    fd_state *fds;                  /* indexed by fd */
    int nfds;                       /* entries in fds */
    long waiting;                   /* waiters queued on all fds */
    long held;                      /* events watchers await (rip__loop_hold) */
    unsigned long polls;            /* rip__poll calls so far */
    fd_check *checks;               /* ring of fds to check, oldest first */
    size_t check_head, check_len, check_cap; /* its first, length and size (a power of 2) */
    unsigned long sweeps;           /* sweeps so far: the fds' `proven` stamps */
    int64_t next_sweep_ms;          /* rip_now_ms() of the next sweep; 0 = none due (no waiter yet) */
} P;

static fd_state *state(int fd) {
    rip_assert(fd >= 0);
    if (fd >= P.nfds) {
        int n = P.nfds ? P.nfds : 64;
        while (n <= fd)
            n *= 2;
        fd_state *grown = realloc(P.fds, (size_t)n * sizeof *grown);
        if (!grown)
            rip__fatal("out of memory for the fd table");
        memset(grown + P.nfds, 0, (size_t)(n - P.nfds) * sizeof *grown);
        P.fds = grown;
        P.nfds = n;
    }
    return &P.fds[fd];
}

unsigned rip__fd_flags(int fd) {
    return fd < P.nfds ? P.fds[fd].flags : 0;
}

void rip__fd_set_flags(int fd, unsigned flags) {
    state(fd)->flags |= flags;
}

static void wake(fd_state *s, rip_waiter *w, int status) {
    P.waiting--;
    s->trusted -= (unsigned)w->mark;
    w->status = status;
    if (w->elem) {                  /* one of a group (rip_poll): the first readies the task */
        rip_fd_group *g = w->elem;
        if (g->woken)
            return;
        g->woken = 1;
    }
    rip__ready(w->task);
}

static void wake_all(fd_state *s, rip_waitlist *l, int status) {
    rip_waiter *w;
    while ((w = rip__wl_pop(l)))
        wake(s, w, status);
}

/* The file s described is gone: its waiters fail (never retried, the
 * number names another file now or soon), its flags are forgotten. */
static void drop(fd_state *s) {
    wake_all(s, &s->readers, EBADF);
    wake_all(s, &s->writers, EBADF);
    s->flags = 0;
}

/* fd's trusted waits were checked: the number still names the watched
 * file. */
static void trust_checked(fd_state *s) {
    rip_waitlist *lists[2] = { &s->readers, &s->writers };
    for (int i = 0; i < 2; i++)
        for (rip_waiter *w = lists[i]->head; w; w = w->next)
            w->mark = 0;
    s->trusted = 0;
}

/* The number names another file than the watched one: l's untrusted
 * waiters, on the file that had it, fail with EBADF; its trusted ones, on
 * the new file, keep waiting if it is `watched` now, else wake with
 * `status`. */
static void settle(fd_state *s, rip_waitlist *l, int watched, int status) {
    rip_waitlist keep = { NULL, NULL };
    rip_waiter *w;
    while ((w = rip__wl_pop(l))) {
        if (!w->mark || !watched) {
            wake(s, w, w->mark ? status : EBADF);
        } else {
            w->mark = 0;
            s->trusted--;
            rip__wl_push(&keep, w);
        }
    }
    *l = keep;
}

void rip__fd_renew(int fd) {
    if (fd >= 0 && fd < P.nfds)
        drop(&P.fds[fd]);
}

static void after_fork_in_child(void);

static void register_atfork(void) {
    pthread_atfork(NULL, NULL, after_fork_in_child);
}

/* A child of fork(2) shares its parent's epoll instance, so the events
 * of either could end up in the other: the child forks off a set of its
 * own, empty, and every fd it waits on is added to it again. */
static void after_fork_in_child(void) {
    if (!P.open)
        return;
    rip__sys_close(P.epfd);
    P.open = 0;
    for (int fd = 0; fd < P.nfds; fd++)
        P.fds[fd].flags = 0;
}

/* The child of a fork in a task runs only that task: the fds the others
 * waited on, and the watchers (whose owners forget their sources in the
 * child: rip__offload_forked), are dropped without a wake. */
void rip__poll_forked(void) {
    after_fork_in_child();          /* already run if it was registered first: then a no-op */
    for (int fd = 0; fd < P.nfds; fd++) {
        fd_state *s = &P.fds[fd];
        *s = (fd_state){ .proven = s->proven };
    }
    P.waiting = 0;
    P.held = 0;
    P.check_head = P.check_len = 0;
    P.next_sweep_ms = 0;
}

int rip__poll_begin(void) {
    static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
    rip__sys_pthread_once(&atfork_once, register_atfork);
    if (!P.open) {
        if ((P.epfd = epoll_create1(EPOLL_CLOEXEC)) == -1)
            return -1;
        P.open = 1;
    }
    return 0;
}

/* 1 when fd was added, 0 when this file was in the set already, or -1
 * and errno (no fd left for the epoll set, no kernel memory for the
 * watch): the fd call that needed it fails, the scheduler goes on. */
static int add_to_set(int fd, uint32_t events) {
    if (rip__poll_begin() == -1)
        return -1;
    struct epoll_event ev = { .events = events, .data.fd = fd };
    if (epoll_ctl(P.epfd, EPOLL_CTL_ADD, fd, &ev) == 0)
        return 1;
    return errno == EEXIST ? 0 : -1;
}

/* Queue fd to be checked unless it is: 0, or -1 when out of memory. */
static int check_later(int fd, fd_state *s) {
    if (s->queued)
        return 0;
    if (P.check_len == P.check_cap) {
        size_t cap = P.check_cap ? 2 * P.check_cap : 64;
        fd_check *grown = malloc(cap * sizeof *grown);
        if (!grown)
            return -1;
        for (size_t i = 0; i < P.check_len; i++)   /* unwrap the ring */
            grown[i] = P.checks[(P.check_head + i) & (P.check_cap - 1)];
        free(P.checks);
        P.checks = grown;
        P.check_head = 0;
        P.check_cap = cap;
    }
    P.checks[(P.check_head + P.check_len++) & (P.check_cap - 1)] = (fd_check){ fd, P.polls };
    s->queued = 1;
    return 0;
}

int rip__fd_wait(int fd, int dir, rip_waiter *w, rip_fd_group *g) {
    fd_state *s = state(fd);
    int trusted = (s->flags & RIP_FD_REGISTERED) && check_later(fd, s) == 0;
    if (!trusted) {
        int added = add_to_set(fd, FD_EVENTS);
        if (added == -1)
            return -1;
        if (added && (s->flags & RIP_FD_REGISTERED))
            drop(s);                /* closed behind our back and reused */
        s->flags |= RIP_FD_REGISTERED;
        s->proven = P.sweeps;
    }
    w->task = rip__current();
    w->elem = g;
    w->status = 0;
    w->mark = trusted;
    s->trusted += (unsigned)trusted;
    rip__wl_push(dir == RIP_FD_READ ? &s->readers : &s->writers, w);
    P.waiting++;
    return 0;
}

/* Check the trusted waits on fd: adding it again to the set says whether
 * the number still names the watched file (EEXIST). */
static void check(int fd, fd_state *s) {
    int added = add_to_set(fd, FD_EVENTS);
    if (added >= 0)
        s->proven = P.sweeps;
    if (added == 0) {
        trust_checked(s);
        return;
    }
    /* A new file: watched now (an event will come), or closed (EBADF), or
     * one epoll cannot watch (EPERM: always ready, so the call tries
     * again), or no memory for the watch. */
    int status = added == 1 || errno == EPERM ? 0 : errno;
    settle(s, &s->readers, added == 1, status);
    settle(s, &s->writers, added == 1, status);
    s->flags = added == 1 ? RIP_FD_REGISTERED : 0;
}

/* Check the trusted waits that have lasted VERIFY_POLLS polls. */
static void check_old_waits(void) {
    while (P.check_len) {
        fd_check *c = &P.checks[P.check_head];
        if (P.polls - c->poll <= VERIFY_POLLS)
            break;                  /* VERIFY_POLLS polls have not all looked for its events */
        int fd = c->fd;
        P.check_head = (P.check_head + 1) & (P.check_cap - 1);
        P.check_len--;
        fd_state *s = &P.fds[fd];
        s->queued = 0;
        if (s->trusted)             /* else events ended them: the file is the watched one */
            check(fd, s);
    }
}

/* Check every fd whose waits nothing has proven alive since the sweep
 * before this one: a close epoll did not report fails them with EBADF. */
static void sweep(void) {
    unsigned long since = P.sweeps++;
    for (int fd = 0; fd < P.nfds; fd++) {
        fd_state *s = &P.fds[fd];
        if ((s->readers.head || s->writers.head) && s->proven < since)
            check(fd, s);
    }
}

/* Sweep when one is due; the longest the next poll may block (-1: no
 * limit) so that the one after comes in time. */
static int sweep_due(int timeout_ms) {
    if (!P.waiting) {
        P.next_sweep_ms = 0;        /* nothing to check until a task waits again */
        return timeout_ms;
    }
    int64_t now = rip_now_ms();
    if (!P.next_sweep_ms)
        P.next_sweep_ms = now + SWEEP_MS;
    if (now >= P.next_sweep_ms) {
        sweep();
        P.next_sweep_ms = now + SWEEP_MS;
    }
    int64_t left = P.next_sweep_ms - now;
    return timeout_ms < 0 || timeout_ms > left ? (int)left : timeout_ms;
}

int rip__fd_cancel(rip_waiter *w, void *on, int key) {
    int fd = key >> 1, dir = key & 1;
    (void)on;                       /* the fd table moves as it grows: the key names the list */
    rip_waitlist *l = dir == RIP_FD_READ ? &state(fd)->readers : &state(fd)->writers;
    if (!rip__wl_cancel(w, l, 0))
        return 0;                   /* already woken */
    P.waiting--;
    state(fd)->trusted -= (unsigned)w->mark;
    return 1;
}

void rip__fd_forget(int fd) {
    if (fd < 0 || fd >= P.nfds)
        return;
    fd_state *s = &P.fds[fd];
    if (s->flags & RIP_FD_REGISTERED)
        epoll_ctl(P.epfd, EPOLL_CTL_DEL, fd, NULL);
    drop(s);
}

void rip__fd_each(void (*fn)(int fd, int dir, rip_waiter *w, void *ctx), void *ctx) {
    for (int fd = 0; fd < P.nfds; fd++) {
        for (rip_waiter *w = P.fds[fd].readers.head; w; w = w->next)
            fn(fd, RIP_FD_READ, w, ctx);
        for (rip_waiter *w = P.fds[fd].writers.head; w; w = w->next)
            fn(fd, RIP_FD_WRITE, w, ctx);
    }
}

long rip__fd_waits(void) {
    return P.waiting;
}

long rip__loop_waiting(void) {
    return P.waiting + P.held;
}

int rip__loop_watch(int fd, unsigned mask, rip_event_fn *proc, void *data) {
    rip_assert(proc != NULL && mask != 0);
    uint32_t events = EPOLLET | (mask & RIP_EV_READ ? EPOLLIN : 0) | (mask & RIP_EV_WRITE ? EPOLLOUT : 0);
    fd_state *s = state(fd);
    rip_assert(!s->readers.head && !s->writers.head); /* tasks wait on it: it is theirs */
    if (add_to_set(fd, events) == -1)
        return -1;
    s->proc = proc;
    s->data = data;
    return 0;
}

void rip__loop_unwatch(int fd) {
    if (fd < 0 || fd >= P.nfds || !P.fds[fd].proc)
        return;
    epoll_ctl(P.epfd, EPOLL_CTL_DEL, fd, NULL);
    P.fds[fd].proc = NULL;
    P.fds[fd].data = NULL;
}

void rip__loop_hold(long n) {
    P.held += n;
    rip_assert(P.held >= 0);
}

void rip__poll(int timeout_ms) {
    struct epoll_event events[256];
    if (!P.open)
        return;
    P.polls++;
    check_old_waits();
    timeout_ms = sweep_due(timeout_ms);
    if (rip__runq.head)
        timeout_ms = 0;             /* a check woke a task */
    else if (P.check_len && (timeout_ms < 0 || timeout_ms > VERIFY_MS))
        timeout_ms = VERIFY_MS;     /* a check is due soon */
    sigset_t mask;                  /* a ppoll-like wait lets in signals the thread blocks */
    const sigset_t *let_in = rip__signals_wait_mask(&mask);
    int n = let_in ? rip__sys_epoll_pwait(P.epfd, events, 256, timeout_ms, let_in)
                   : rip__sys_epoll_wait(P.epfd, events, 256, timeout_ms);
    if (n == -1 && errno != EINTR)
        rip__fatal("epoll_wait: %s", strerror(errno));
    for (int i = 0; i < n; i++) {
        int fd = events[i].data.fd;
        uint32_t ev = events[i].events;
        fd_state *s = state(fd);
        if (s->proc) {              /* a watcher's source */
            s->proc(fd, (ev & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR) ? RIP_EV_READ : 0) |
                        (ev & (EPOLLOUT | EPOLLHUP | EPOLLERR) ? RIP_EV_WRITE : 0), s->data);
            continue;
        }
        if (s->trusted)
            trust_checked(s);       /* an event for fd: it is the watched file */
        if (ev & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
            s->flags &= ~RIP_FD_RDEMPTY;
            wake_all(s, &s->readers, 0);
        }
        if (ev & (EPOLLOUT | EPOLLHUP | EPOLLERR)) {
            s->flags &= ~RIP_FD_WRFULL;
            wake_all(s, &s->writers, 0);
        }
    }
}

void rip__poll_end(void) {
    rip_assert(P.waiting == 0 && P.held == 0);
    if (P.open)
        rip__sys_close(P.epfd);
    free(P.fds);
    free(P.checks);
    P.open = 0;
    P.fds = NULL;
    P.nfds = 0;
    P.checks = NULL;
    P.check_head = P.check_len = P.check_cap = 0;
    P.next_sweep_ms = 0;
}

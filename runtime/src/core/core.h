/* core.h -- the scheduler core shared by the rip and ucontext backends.
 *
 * Both backends keep the scheduling contract of rip.h through this one
 * implementation of the run queue, timers, channels and wait groups, so
 * the same program prints the same bytes under both.  Nothing here ever
 * suspends: an operation that must wait queues a waiter and returns
 * RIP_WAIT, and the backend suspends the task its own way (a frame state
 * in rip, swapcontext in ucontext).  Waking appends to the run queue. */
#ifndef RIP_CORE_H
#define RIP_CORE_H

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include "rip.h"                    /* first: these objects are built for no one backend */
#include "rip_frame.h"              /* the task, waiter, run queue and channel, which ripped code inlines */
#include "../shared/fatal.h"
#include "../shared/limits.h"

/* Always-on assertion: invariants hold in release builds too. */
#define rip_assert(e) \
    ((e) ? (void)0 : rip__assert_fail(#e, __FILE__, __LINE__))
void rip__assert_fail(const char *expr, const char *file, int line);

#define RIP_WAIT 2                  /* "must wait": the caller suspends */

typedef struct rip__task rip_task;
typedef struct rip__waiter rip_waiter;
typedef struct rip__waitlist rip_waitlist;

/* Every wait is a waiter queued on something (a channel's, a wait
 * group's or an fd's wait list) plus the way to take it off again, as
 * libdill's clauses: a deadline ends any wait the same way, by calling
 * its cancel hook.  `on` and `key` say where it waits (a wait list, or an
 * fd and direction); the hook returns 1 when it took w off, 0 when w was
 * not there (already woken: its task is queued to run). */
typedef int rip_cancel_fn(rip_waiter *w, void *on, int key);

typedef struct rip_timer rip_timer;
struct rip_timer {
    int64_t deadline_ms;            /* rip_now_ms() value at which to wake */
    uint64_t seq;                   /* order the sleeps began: ties wake in it */
    size_t index;                   /* place in the timer heap, or RIP_TIMER_LISTED */
    rip_timer *prev, *next;         /* neighbours in the deadline list, when listed */
    rip_task *task;                 /* the sleeping task */
    rip_waiter *w;                  /* a wait it limits (a deadline), else NULL (a sleep); NULL once expired */
    rip_cancel_fn *cancel;          /* takes w off what it waits on */
    void *on;                       /* cancel's `on` */
    int key;                        /* cancel's `key` */
};

#define RIP_TIMER_LISTED SIZE_MAX    /* rip_timer.index of a timer in the deadline list */

/* Backend hook, called by the core: run queued tasks, each until it
 * suspends or ends, at most `budget` of them; 1 if the budget ran out with
 * tasks still queued, else 0.  Each backend makes it of rip__run_queue
 * below with its own run function, which inlines into the loop. */
int rip__backend_run_queue(unsigned budget);

/* Backend hook, called by the core when the loop goes idle after many
 * tasks ended (at most once a second, beside malloc_trim): give back what
 * a spike left held that the next tasks do not need warm. */
void rip__backend_trim(void);

/* Scheduler: one per thread (rip_run_workers runs several, sharing
 * nothing).  Its run queue is rip__runq (rip_frame.h), on its own so that
 * ripped code reaches it: the hot calls (the running task, making a task
 * ready) inline there. */
struct rip__sched {
    rip_timer **timers;             /* heap of sleeping tasks, earliest first */
    size_t ntimers;                 /* timers in the heap */
    rip_timer *listed_first;        /* timers begun in deadline order (a sorted list beside */
    rip_timer *listed_last;         /*   the heap: O(1) for timeouts of one length) */
    size_t timer_cap;               /* its capacity */
    uint64_t timer_seq;             /* sleeps begun so far */
    long live;                      /* tasks started and not yet ended */
    long ended_untrimmed;           /* tasks ended since the loop last gave memory back */
    int64_t next_trim_ms;           /* rip_now_ms() before which it does not again */
    long max_tasks;                 /* RIP_MAX_TASKS (-1: none), read on the first spawn; 0 until then */
    int worker;                     /* rip_worker_id() */
    long slow;                      /* tasks with a deadline plus selects waiting: channel operations take the core's path while any */
    rip_task *first;                /* the first task started (main under --posix), NULL once it ended: signals interrupt its waits (psignal.c) */
    uint64_t sig_seen;              /* rip__sig_delivered when this scheduler last dispatched signals */
    int forked;                     /* this is a child of fork(2) made in a task: only `kept` tasks run (fork.c) */
    rip_task **kept;                /* when forked: the forking task and the tasks started since */
    size_t nkept, kept_cap;         /* their number, the array's size */
};
extern __thread struct rip__sched rip__sched;

/* n more (n < 0: fewer) reasons for channel operations to take the core's
 * path: ripped code's inline paths run only while rip__runq.fast names
 * the run queue (one compare, the owner check's). */
static inline void rip__slow(long n) {
    rip__sched.slow += n;
    rip_assert(rip__sched.slow >= 0);
    rip__runq.fast = rip__sched.slow ? NULL : &rip__runq;
}

/* Workers share nothing: a channel or wait group made by one (owner) may
 * not be used by another. */
static inline void rip__check_owner(const struct rip__runq *owner, const char *what) {
    if (owner != &rip__runq)
        rip__fatal("a %s made by another worker used by worker %d: workers share nothing",
                   what, rip__sched.worker);
}

/* fork(2) in a task (fork.c): the child runs only the forking task's code
 * path, as a threaded program's child runs only the forking thread. */
int  rip__fork_keeps(const rip_task *t);      /* in a forked child: may t run (the forking task, or one started since)? */
void rip__fork_setup(void);                   /* register the child's handler (once; the scheduler starts) */
void rip__fork_kept_ends(const rip_task *t);  /* in a forked child: t has finished */
void rip__sched_forked(void);                 /* sched.c: drop every task, timer and count but the current task's */
void rip__poll_forked(void);                  /* poll.c: a new epoll set, every fd wait and watcher dropped */
void rip__offload_forked(void);               /* offload.c: no pool thread, job or wakeup fd of the parent's */
/* errno per thread (POSIX mode's threads, pthread.c): once a task has a
 * pthread record, each such task's errno is restored when it runs and
 * saved when it stops, so another task's calls in between leave it as
 * it was, as a thread's. */
extern __thread int rip__px_errno_on;         /* some task has a pthread record */
int *rip__px_errno_slot(const rip_task *t);   /* t's saved errno, or NULL (no record) */

static inline void rip__px_errno_save(const rip_task *t) {
    int *slot = rip__px_errno_slot(t);
    if (slot)
        *slot = errno;
}

static inline void rip__run_own_errno(rip_task *t, void (*run)(rip_task *t)) {
    int *slot = rip__px_errno_slot(t);
    if (slot)
        errno = *slot;
    run(t);
    rip__px_errno_save(t);          /* no slot: t ended */
}

/* The loop of rip__backend_run_queue: `run` runs one task. */
static inline int rip__run_queue(unsigned budget, void (*run)(rip_task *t)) {
    struct rip__runq *q = &rip__runq;
    rip_task *t;
    int64_t turn = rip_now_ms();    /* one clock read a turn of up to `budget` runs */
    for (; budget > 0 && (t = q->head); budget--) {
        if (!(q->head = t->next))
            q->tail = NULL;
        t->ran_ms = turn;           /* a task that waits now has waited since (rip_dump_tasks): a store to a line just read */
        if (__builtin_expect(!q->fast, 0) && rip__sched.forked && !rip__fork_keeps(t))
            continue;               /* a task of the parent, woken in the child by a channel or lock (a forked child is never on the fast path: one load of a line already read) */
        q->current = t;
        if (__builtin_expect(rip__px_errno_on, 0)) {
            rip__run_own_errno(t, run);
        } else {
            run(t);
            if (__builtin_expect(rip__px_errno_on, 0))  /* t made the first record */
                rip__px_errno_save(t);
        }
    }
    q->current = NULL;
    return budget == 0 && q->head;
}

/* A spawn is about to start a task: end the program if RIP_MAX_TASKS
 * are live already. */
static inline void rip__spawn_check(void) {
    if (__builtin_expect(!rip__sched.max_tasks, 0))
        rip__sched.max_tasks = rip__max_tasks_env();
    if (rip__sched.max_tasks > 0 && rip__sched.live >= rip__sched.max_tasks)
        rip__max_tasks_reached(rip__sched.max_tasks, rip__sched.worker);
}

void rip__task_started(rip_task *t);          /* count a new task (then ready it) */
int64_t rip__deadline(const rip_task *t);     /* t's rip_set_deadline, or -1 (deadline.c) */
void rip__deadline_drop(const rip_task *t);   /* t ends: forget its deadline */
void rip__deadlines_end(void);                /* the scheduler is done: forget them all */

/* Deadlines on waits (deadline.c): the current task's deadline limits
 * whatever it waits on, through the wait's cancel hook. */
int  rip__deadline_passed(void);              /* the current task's deadline has come: a call that must wait fails with ETIMEDOUT instead */
void rip__wait_limit(rip_waiter *w, rip_cancel_fn *cancel, void *on, int key); /* w was just queued by the current task: at its deadline, cancel(w, on, key) and wake it with status ETIMEDOUT */
void rip__wait_ended(rip_waiter *w);          /* the current task runs again after waiting on w: disarm its deadline (w->status tells a timeout) */
rip_cancel_fn rip__wl_cancel;                 /* take w off the rip_waitlist `on`: 1, or 0 if it is not on it */
void rip__task_ended(void);                   /* the current task has finished */
int  rip__px_tasks_mapped(void);              /* some task has a pthread_t (pthread.c) */
void rip__px_task_ended(rip_task *t);         /* t ends: its pthread_t's thread ends too (pthread.c) */
int  rip__sched_loop(void);                   /* run until all end (0) or deadlock (-1) */
void rip__sched_task_gone(void) __attribute__((noreturn)); /* the current task has ended in plain code (its frames freed, rip__task_ended): back to the scheduler loop that ran it, its C stack dropped */
void rip__timer_start(rip_timer *tm, int64_t at_ms); /* wake the current task at at_ms; a deadline (tm->w) cancels its wait and sets the waiter's status to ETIMEDOUT */
void rip__sleep_begin(rip_timer *tm, int64_t ms); /* queue the current task on a timer */
void rip__timer_cancel(rip_timer *tm);        /* take a deadline that has not expired off the heap */

struct rip_job;
/* rip_dump_tasks (dump.c) and what it reads: each walk calls fn for every
 * item, and is done only when a dump or rip_stats asks. */
void rip__dump(FILE *out, const char *why);  /* the dump of this scheduler; why: its heading's reason (NULL: asked) */
void rip__dump_asked(void);                  /* the loop, after a signal: dump if RIP_DUMP_SIGNAL's came since the last */
void rip__dump_setup(void);                  /* the loop starts: install RIP_DUMP_SIGNAL's handler (once) and watch its wake fd */
void rip__dump_end(void);                    /* the scheduler is done: stop watching it */
int  rip__dump_watching(void);               /* the loop's epoll set holds RIP_DUMP_SIGNAL's eventfd: an idle loop sleeps in epoll_wait, which a signal on another thread wakes */
void rip__timers_each(void (*fn)(rip_timer *tm, void *ctx), void *ctx); /* sched.c: every armed timer */
long rip__timers_armed(void);                 /* sched.c: their number */
void rip__chan_each(void (*fn)(rip_chan *c, void *ctx), void *ctx);     /* chan.c: every channel made on this thread and not freed */
void rip__wg_each(void (*fn)(rip_wg *wg, long count, rip_waitlist *waiters, void *ctx), void *ctx); /* wg.c: every wait group made on this thread */
void rip__mutex_each(void (*fn)(rip_mutex *m, rip_task *holder, rip_waitlist *waiters, void *ctx), void *ctx); /* mutex.c: every mutex made on this thread */
void rip__cond_each(void (*fn)(rip_cond *c, rip_waitlist *waiters, void *ctx), void *ctx); /* mutex.c: every condition variable */
void rip__fd_each(void (*fn)(int fd, int dir, rip_waiter *w, void *ctx), void *ctx); /* poll.c: every fd wait */
long rip__fd_waits(void);                     /* poll.c: their number */
void rip__offload_each(void (*fn)(struct rip_job *job, void *ctx), void *ctx); /* offload.c: every job of this scheduler not yet drained */
void rip__offload_counts(long *queued, long *busy, long *threads); /* offload.c: jobs queued (all schedulers), pool threads busy and started */
int  rip__deadline_timer(const rip_timer *tm); /* deadline.c: is tm its task's rip_set_deadline timer? */
struct rip_dump_out;
void rip__backend_chain(struct rip_dump_out *o, rip_task *t, int running); /* the backend: print t's call chain, innermost first, a line per level (dumpline.h) */
void rip__backend_stats(struct rip_stats *st); /* the backend: its frame_bytes and pooled_bytes */

/* Channels and wait groups: RIP_WAIT means w was queued. */
int rip__chan_send(rip_chan *c, const void *elem, rip_waiter *w); /* 0, -1 and EPIPE (closed) or ETIMEDOUT, RIP_WAIT */
int rip__chan_recv(rip_chan *c, void *elem, rip_waiter *w);       /* 1, 0 closed, -1 and ETIMEDOUT, RIP_WAIT */
int rip__chan_sent(rip_waiter *w);            /* a woken sender's result: 0, or -1 and EPIPE or ETIMEDOUT */
int rip__chan_received(rip_waiter *w);        /* a woken receiver's result: 1, 0, or -1 and ETIMEDOUT */
int rip__wg_wait(rip_wg *wg, rip_waiter *w);                      /* 0, -1 and ETIMEDOUT, RIP_WAIT */
int rip__wg_waited(rip_waiter *w);            /* a woken waiter's result: 0, or -1 and ETIMEDOUT */

/* Mutexes and condition variables (mutex.c). */
int rip__mutex_lock(rip_mutex *m, rip_waiter *w);                 /* 0, -1 and EDEADLK or ETIMEDOUT, RIP_WAIT */
enum { RIP__LOCK, RIP__TRYLOCK, RIP__UNLOCK };
int rip__mutex_outside(rip_mutex *m, int op); /* RIP__LOCK, RIP__TRYLOCK or RIP__UNLOCK m outside any task (constructors, destructors), which never waits: 0, or -1 and EBUSY, EDEADLK, EPERM; a lock that would wait is fatal */
int rip__mutex_lock_nested(rip_mutex *m, int64_t at_ms); /* lock from plain code in a task: if m is held, the other tasks run from inside this one (rip__sched_nested) until it is handed over or, at_ms >= 0, that rip_now_ms() time passes; 0, or -1 and EDEADLK or ETIMEDOUT */
int rip__mutex_locked(rip_waiter *w);         /* a woken locker's result: 0 (it holds m), or -1 and ETIMEDOUT */
typedef struct {
    rip_waiter w;                   /* its place on the condition variable, then on the mutex */
    rip_cond *c;                    /* the condition variable */
    rip_mutex *m;                   /* the mutex, held by the caller */
    long depth;                     /* the caller's lock depth on m, restored with m */
    int phase;                      /* 0 not begun, 1 waiting on c (or moved onto m by a signal), 2 relocking m after a timeout */
    int result;                     /* when done: 0 or -1 */
    int err;                        /* when done: errno for -1 (EPERM, ETIMEDOUT) */
} rip_condop;
int rip__cond_step(rip_condop *op);          /* rip_cond_wait stepped: 1 done (result, err set), 0 queued: wait */
int rip__cond_wait_nested(rip_condop *op, int64_t at_ms); /* the whole wait from plain code in a task, the other tasks run nested meanwhile (rip__sched_nested), until at_ms if >= 0: 0, or EPERM or ETIMEDOUT */

/* rip_chan_select, stepped like an fd call (chan.c). */
typedef struct {
    rip_chan_case *cases;           /* the caller's cases */
    int n;                          /* their number */
    int timeout_ms;                 /* -1 waits without end, 0 never waits */
    int by_deadline;                /* the timer is the task's deadline (ETIMEDOUT), not the timeout (EAGAIN) */
    void *group;                    /* the waiters while queued (chan.c), else NULL */
    rip_timer timer;                /* armed at the earlier of the timeout and the deadline */
    rip_waiter timeout;             /* the timer's waiter */
    int result;                     /* when done: the case's index, or -1 */
    int err;                        /* when done: errno for -1, or EPIPE for a send case on a closed channel */
} rip_selectop;
int rip__select_step(rip_selectop *op);       /* 1 done (result, err set), 0 queued: wait */

/* The event loop (poll.c). */
#define RIP_FD_READ 0
#define RIP_FD_WRITE 1
#define RIP_FD_REGISTERED 1u        /* added to the epoll set (the number may have been reused since) */
#define RIP_FD_RDEMPTY 2u           /* known unreadable: EAGAIN seen, no event since */
#define RIP_FD_WRFULL 4u            /* known unwritable: EAGAIN seen, no event since */
typedef struct {
    int woken;                      /* a waiter of the group was woken (or its timeout came): the task is queued */
} rip_fd_group;                     /* fd waits of one task at once (rip_poll): the first wake readies it */
int  rip__fd_wait(int fd, int dir, rip_waiter *w, rip_fd_group *g); /* queue w until fd is ready (status 0) or closed (EBADF), one of group g (NULL: none): 0, or -1 and errno (EPERM: epoll cannot watch it) */
void rip__fd_forget(int fd);                  /* fd is closing: wake its waiters with EBADF, unregister */
unsigned rip__fd_flags(int fd);               /* RIP_FD_* of fd */
void rip__fd_set_flags(int fd, unsigned flags);
void rip__fd_renew(int fd);                   /* a new file took this number: wake the old one's waiters with EBADF, forget its flags */
rip_cancel_fn rip__fd_cancel;                 /* take w off the wait list of fd key >> 1, direction key & 1: 1, or 0 if it was not on it */
void rip__poll(int timeout_ms);               /* wake tasks whose fds are ready, call watchers; -1 waits */
int  rip__poll_begin(void);                   /* make the epoll set now, while fds are free: 0 or -1 (then on first wait) */
void rip__poll_end(void);                     /* the scheduler is done: release the epoll set */

/* Event sources other than the tasks' fd waits (Redis ae's shape). */
#define RIP_EV_READ 1u
#define RIP_EV_WRITE 2u
typedef void rip_event_fn(int fd, unsigned events, void *data); /* events: RIP_EV_* that came */
int  rip__loop_watch(int fd, unsigned mask, rip_event_fn *proc, void *data); /* call proc(fd, events, data) from the loop on each event of mask (RIP_EV_*; edge-triggered) on fd: 0, or -1 and errno */
void rip__loop_unwatch(int fd);               /* stop watching fd (before closing it) */
void rip__loop_hold(long n);                  /* n more (n < 0: fewer) events some watcher awaits: the loop polls while any are */
long rip__loop_waiting(void);                 /* waiters queued on fds plus events held for: the loop must poll */

/* Offload (offload.c). */
typedef struct rip_job rip_job;
struct rip_job {
    rip_job *next;                  /* pool queue, then the scheduler's done list */
    void *(*fn)(void *);            /* the blocking function */
    void *arg;                      /* its argument */
    void *result;                   /* fn(arg), once done */
    rip_task *task;                 /* the waiting task */
    struct rip_offload_home *home;  /* its scheduler's done list */
    rip_waiter wait;                /* the task's wait: status ETIMEDOUT when its deadline took the job off the queue */
    rip_job *fl_prev, *fl_next;     /* neighbours among the scheduler's jobs not yet drained (rip_dump_tasks) */
};
int  rip__offload_begin(rip_job *job);       /* queue job (fn, arg set): 0, the task must wait (under its deadline, which drops the job if no thread has taken it yet); -1: no pool, run it in place */
void rip__offload_end(void);                  /* the scheduler is done: release its eventfd */
void *rip__offload_nested(void *(*fn)(void *), void *arg); /* fn(arg) on the pool while this scheduler runs the other tasks from inside the current one (which cannot suspend: it is in code ripper did not rip), rip__park; fn(arg) in place if there is no pool */
int rip__in_signal_handler(void);          /* is a program's signal handler running on this thread (psignal.c)? */
int rip__nested_below(const rip_task *t);   /* is t running rip__sched_nested further down this thread's stack? */
void rip__sched_nested(volatile int *done, const char *call); /* run other tasks, timers and fd waits until *done (call: the waiting call, for the fatal error if nothing could ever set it); the current task stays current, not queued */
extern __thread size_t rip__nested_count;   /* tasks running rip__sched_nested on this thread */
int  rip__can_park(void);             /* may the calling code wait for the current task to be readied: in a task (on rip, not in a signal handler, which runs inside the code it interrupts) */
void rip__park(const char *call);     /* wait until the current task is readied (its waiter queued; call: the waiting call, for a deadlock's message): ucontext switches to the scheduler; rip runs the other tasks from inside this one (rip__sched_nested) */

/* fd calls (io.c). */
enum { RIP_IO_READ, RIP_IO_WRITE, RIP_IO_ACCEPT, RIP_IO_CONNECT };
typedef struct {
    int kind;                       /* RIP_IO_* */
    int fd;                         /* the fd */
    void *buf;                      /* read into / write from */
    size_t len;                     /* bytes to read or write */
    size_t done;                    /* bytes written so far; connect: started */
    struct sockaddr *addr;          /* accept: peer address out */
    socklen_t *addrlen;             /* accept: its length in/out */
    const struct sockaddr *caddr;   /* connect: address */
    socklen_t caddrlen;             /* connect: its length */
    int waited;                     /* queued on the fd: the next step begins by ending that wait */
    ssize_t result;                 /* when done: the call's result */
    int err;                        /* when done: its errno */
} rip_io;
int rip__io_step(rip_io *op, rip_waiter *w); /* 1 done (result, err set), 0 w queued: wait */

/* Waits a handled signal may interrupt (psignal.c, POSIX mode): a call
 * that waits registers one; the scheduler loop, seeing a delivery newer
 * than the wait, ends it as signal(7) says: cancel(w, on, key), status
 * EINTR, the task readied. */
typedef struct rip_intr rip_intr;
struct rip_intr {
    rip_intr *prev, *next;          /* neighbours in the scheduler's list, oldest first */
    rip_task *task;                 /* the waiting task */
    rip_waiter *w;                  /* its wait: cancel(w, on, key) takes it off (1), or 0 if already woken */
    rip_cancel_fn *cancel;
    void *on;
    int key;
    int restartable;                /* read, accept...: a signal whose handler has SA_RESTART lets it go on */
    const size_t *moved;            /* bytes the call moved so far (then any signal ends it: the count), or NULL */
    const sigset_t *mask;           /* signals that do not interrupt it (ppoll's mask), or NULL */
    uint64_t since;                 /* rip__sig_delivered when it began: only later deliveries end it */
    int listed;                     /* on the list (not yet interrupted or ended) */
    int held;                       /* it holds the loop (rip__loop_hold), so the loop polls the wake fd */
};
extern uint64_t rip__sig_delivered;           /* handled signals so far, all threads (atomic) */
void rip__intr_begin(rip_intr *r, rip_waiter *w, rip_cancel_fn *cancel, void *on, int key,
                     int restartable, const size_t *moved, const sigset_t *mask); /* the current task's wait w may be interrupted */
void rip__intr_end(rip_intr *r);              /* the task runs again: the wait is no longer interruptible */
void rip__signals_dispatch(void);             /* the loop: interrupt the waits newer deliveries end */
void rip__signals_end(void);                  /* the scheduler is done (its loop's watch is gone) */
const sigset_t *rip__signals_wait_mask(sigset_t *buf); /* the mask the loop blocks with while ppoll-like waits let in signals the thread blocks (their pending ones delivered now), else NULL */
static inline void rip__signals_check(void) {
    if (__atomic_load_n(&rip__sig_delivered, __ATOMIC_RELAXED) != rip__sched.sig_seen)
        rip__signals_dispatch();
}

/* rip_poll (rpoll.c), stepped like an fd call. */
typedef struct {
    rip_waiter w;                   /* its place in the fd's wait list */
    int key;                        /* fd << 1 | RIP_FD_READ/WRITE, for rip__fd_cancel */
} rip_poll_wait;
typedef struct {
    struct pollfd *fds;             /* the caller's array */
    nfds_t n;                       /* its entries */
    int timeout_ms;                 /* poll's own timeout: -1 forever, 0 never waits */
    int started;                    /* `until` is set */
    int64_t until;                  /* rip_now_ms() at which poll's own timeout ends; -1 never */
    int waiting;                    /* queued: the next step begins by ending the wait */
    int by_deadline;                /* the timer is the task's deadline (ETIMEDOUT), not poll's timeout (0) */
    rip_fd_group group;             /* the waits below, as one */
    rip_poll_wait *waits;           /* one per fd and direction waited on (malloc'd while waiting) */
    size_t nwaits;                  /* their number */
    rip_timer timer;                /* armed at the earlier of `until` and the deadline */
    rip_waiter timeout;             /* the timer's waiter: status ETIMEDOUT once it fired, EINTR once a signal ended the wait */
    int posix;                      /* POSIX mode's poll, select, epoll_wait: a handled signal ends the wait (EINTR) */
    const sigset_t *sigmask;        /* ppoll, pselect, epoll_pwait: the signals that do not end it, or NULL */
    rip_intr intr;                  /* while posix and waiting: its record */
    int result;                     /* when done: the call's result */
    int err;                        /* when done: its errno */
} rip_pollop;
int rip__poll_step(rip_pollop *op);          /* 1 done (result, err set), 0 queued: wait */

/* The POSIX calls of rip_posix.h (posix.c), stepped like an fd call. */
enum { RIP_PX_READ, RIP_PX_WRITE, RIP_PX_RECV, RIP_PX_SEND, RIP_PX_ACCEPT, RIP_PX_CONNECT,
       RIP_PX_READV, RIP_PX_WRITEV, RIP_PX_RECVMSG, RIP_PX_SENDMSG };
#define RIP_PX_OFFLOAD 2            /* rip__px_step: run rip__px_blocking(op) on the offload pool */
typedef struct {
    int kind;                       /* RIP_PX_* */
    int fd;                         /* the fd */
    void *buf;                      /* read into / write from */
    size_t len;                     /* bytes asked for */
    int flags;                      /* recv/send flags; accept4 flags */
    struct sockaddr *addr;          /* recvfrom source, accept peer: out */
    socklen_t *addrlen;             /* its length in/out */
    const struct sockaddr *daddr;   /* sendto destination, connect address */
    socklen_t daddrlen;             /* its length */
    const struct iovec *iov;        /* readv, writev: the vector */
    int iovcnt;                     /* its entries */
    struct msghdr *msg;             /* recvmsg, sendmsg: the message (iov, iovcnt its vector) */
    struct iovec *rest;             /* the vector less the `done` bytes, once some moved (malloc'd) */
    size_t done;                    /* bytes moved so far (a blocking write, MSG_WAITALL) */
    int how;                        /* how the fd is tried (posix.c), 0 before the first try */
    int started;                    /* the first step ran (a vector was checked) */
    int timeo_asked;                /* SO_RCVTIMEO/SO_SNDTIMEO was asked (at the first wait) */
    int64_t until;                  /* rip_now_ms() at which that timeout ends the call; -1 none */
    rip_timer timer;                /* armed at `until` while the task waits */
    int armed;                      /* the timer is (or was, if timer.w is NULL) armed for this wait */
    int connecting;                 /* connect: EINPROGRESS seen, the outcome comes in SO_ERROR */
    int sock_kind;                  /* recv, recvmsg with MSG_WAITALL: 0 not asked yet, else posix.c's SOCK_* (what MSG_WAITALL means there) */
    size_t peeked;                  /* MSG_PEEK | MSG_WAITALL on TCP: the bytes the last try peeked (the kernel's count if cut short) */
    int waited;                     /* queued on the fd: the next step begins by ending that wait */
    rip_intr *intr;                 /* the record of its waits, for a signal's EINTR (the caller's: the op's literal stays small to fill) */
    ssize_t result;                 /* when done: the call's result */
    int err;                        /* when done: its errno (when result is -1) */
} rip_pxop;
int rip__px_step(rip_pxop *op, rip_waiter *w); /* 1 done (result, err set), 0 w queued: wait, RIP_PX_OFFLOAD; op->intr set by the caller */
void *rip__px_blocking(void *op);             /* the call done blocking (an offload job): sets result, err */
/* sleep, usleep, nanosleep, clock_nanosleep (psignal.c): a timer a
 * handled signal ends early. */
typedef struct {
    struct timespec end;            /* CLOCK_MONOTONIC time the sleep asked to end at: rem is measured to it */
    rip_timer timer;                /* the sleep */
    rip_waiter w;                   /* its wait: status ETIMEDOUT at the end, EINTR when a signal ended it */
    rip_intr intr;                  /* its record */
} rip_pxsleep;
int  rip__px_sleep_request(int kind, const void *arg, struct timespec *rel); /* kind 0 sleep(seconds), 1 usleep(usec), 2 nanosleep(req): the length, or -1 and errno (EFAULT, EINVAL) */
int  rip__px_clock_request(clockid_t clock, int flags, const struct timespec *req, struct timespec *rel); /* clock_nanosleep's: the length from now (0 for a time past), or its error number (ENOTSUP: a clock the runtime does not time) */
void rip__px_sleep_begin(rip_pxsleep *s, const struct timespec *rel); /* queue the current task for rel */
int  rip__px_sleep_end(rip_pxsleep *s, struct timespec *rem); /* it runs again: 0 slept, or -1 interrupted (rem, if not NULL, the time not slept) */
int rip__px_timespec_ms(const struct timespec *ts, int *ms); /* ppoll's timeout as poll's (NULL: -1), rounded up, plus one: 0, or -1 and EINVAL */
int64_t rip__px_ms_at_least(int64_t ms);      /* a POSIX timeout of ms > 0 as a timer's: ms + 1 (rip_now_ms counts whole milliseconds, so a timer at now + ms may end up to 1 ms early) */

/* select(2) as a poll (posix.c): begin converts the sets into poll.fds,
 * the caller steps poll (rip__poll_step) to its end, end converts back. */
typedef struct {
    int nfds;                       /* select's arguments */
    fd_set *readfds, *writefds, *exceptfds;
    struct timeval *timeout;        /* updated to the time not slept, as Linux does */
    const sigset_t *sigmask;        /* pselect: the signals that do not end it, or NULL */
    int64_t begun_ms;               /* rip_now_ms() at the start */
    rip_pollop poll;                /* the wait (its fds malloc'd) */
    int result;                     /* when done: select's result */
    int err;                        /* when done: its errno (when result is -1) */
} rip_pxselect;
/* epoll_wait(2) (posix.c): the epoll fd polled for readable, then asked
 * with timeout 0, until events come or the timeout ends. */
typedef struct {
    int epfd;                       /* epoll_wait's arguments */
    struct epoll_event *events;
    int maxevents;
    int timeout_ms;
    const sigset_t *sigmask;        /* epoll_pwait: the signals that do not end it, or NULL */
    int started;                    /* `until` is set */
    int64_t until;                  /* rip_now_ms() at which the timeout ends; -1 never */
    struct pollfd pfd;              /* the epoll fd, for readable */
    rip_pollop poll;                /* the wait on it, while `polling` */
    int polling;                    /* a wait is in progress */
    int result;                     /* when done: the call's result */
    int err;                        /* when done: its errno (when result is -1) */
} rip_pxepoll;
int  rip__px_epoll_step(rip_pxepoll *e);      /* 1 done (result, err set), 0 queued: wait */
int  rip__px_select_begin(rip_pxselect *s);   /* 0: step s->poll; 1: done already (an error) */
void rip__px_select_end(rip_pxselect *s);     /* poll is done: the sets, the result, the timeout */ /* kind 0 sleep(seconds), 1 usleep(usec), 2 nanosleep(req): *ms to sleep, or -1 and errno */

#endif /* RIP_CORE_H */

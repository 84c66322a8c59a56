/* rip.h -- the public API of the ripper runtime.
 *
 * One source, three builds: `rip` (ripped into continuation-passing state
 * machines), `ucontext` (green threads on mmap'd stacks) and `threads` (one
 * pthread per task).  Every name here means the same on all three; the
 * scheduling order below is identical in `rip` and `ucontext`:
 *
 *   one FIFO run queue; rip_spawn appends the new task and the caller goes
 *   on; rip_yield moves the caller to the tail; a task woken by a channel,
 *   wait group, mutex, condition variable, timer or fd is appended to the
 *   tail and the waker goes on; expired timers wake in deadline order,
 *   ties in the order the sleeps began.  `threads` keeps the meaning of
 *   every call but not the order. */
#ifndef RIP_H
#define RIP_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 26))
#include <bits/types/FILE.h>        /* FILE alone (rip_dump_tasks): no other name of <stdio.h> in the program's */
#else
#include <stdio.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Marks a function that may suspend.  ripper preprocesses with __RIPPER__
 * defined and sees the annotation (it removes it from its output); every
 * compiler sees nothing.  RIP_RIPPED is defined when the file is built for
 * the rip backend. */
#ifdef __RIPPER__
#define RIP_ASYNC __attribute__((annotate("rip_async")))
#else
#define RIP_ASYNC
#endif

/* Declares a function type whose functions are async, for pointers to
 * async functions (struct fields, handler tables, tasks):
 *     typedef RIP_ASYNC_FN(int, handler_fn, (int fd));
 *     handler_fn *on_read = my_handler;   ...   n = on_read(fd);
 * In ripped code such a pointer holds the function's frame constructor
 * (see runtime/src/rip/rip_frame.h): ripper rewrites the type it sees
 * annotated; the runtime, built for rip, spells the constructor type. */
#if defined(RIP_RIPPED) && !defined(__RIPPER__)
#define RIP_ASYNC_FN(ret, name, params) struct rip__frame *name params
#else
#define RIP_ASYNC_FN(ret, name, params) RIP_ASYNC ret name params
#endif

typedef RIP_ASYNC_FN(void, rip_task_fn, (void *arg)); /* a task's function */

/* Tasks and time. */
int     rip_run(rip_task_fn *fn, void *arg);   /* run fn(arg) as the first task; 0 when all finished, -1 (message on stderr) if all are blocked forever */
void    rip_spawn(rip_task_fn *fn, void *arg); /* new task at the run queue's tail; the caller keeps running; no memory or stack for it, or RIP_MAX_TASKS live already: a "rip: ..." message and abort */
RIP_ASYNC void    rip_yield(void);             /* move the caller to the run queue's tail */
RIP_ASYNC void    rip_sleep_ms(int64_t ms);    /* suspend the caller for at least ms milliseconds */
int64_t rip_now_ms(void);                      /* monotonic clock, milliseconds */

/* Deadlines on every wait: once rip_now_ms() reaches the calling task's
 * deadline, an fd call, channel send or receive, wait-group wait, mutex
 * lock or cond wait (see there) that would have to wait fails with -1 and
 * ETIMEDOUT instead (a call that can finish at once still does).  rip_write may have sent part of its bytes
 * before it times out.  rip_offload: see there; rip_sleep_ms is not cut
 * short.  Every task starts with none. */
int64_t rip_set_deadline(int64_t at_ms);       /* the caller's deadline (a rip_now_ms() time, -1 for none); returns the previous one */

/* File descriptors.  Errors are -1 and errno, as for the system calls. */
RIP_ASYNC ssize_t rip_read(int fd, void *buf, size_t len);        /* like read(2) */
RIP_ASYNC ssize_t rip_write(int fd, const void *buf, size_t len); /* all len bytes, or -1 */
RIP_ASYNC int     rip_accept(int fd, struct sockaddr *addr, socklen_t *len); /* like accept(2) */
RIP_ASYNC int     rip_connect(int fd, const struct sockaddr *addr, socklen_t len); /* like connect(2) */
int     rip_close(int fd);                     /* like close(2) */

/* Waiting on several fds: poll(2)'s meaning (revents set, fds < 0
 * ignored, POLLNVAL for an fd that is not open), the task waiting instead
 * of the thread.  timeout_ms -1 waits without end, 0 never waits.  The
 * task's deadline limits it too: when it comes before poll's own timeout
 * ends, the call fails with -1 and ETIMEDOUT instead of returning 0.  An
 * fd rip_close'd while polled wakes the call, which reports it POLLNVAL. */
RIP_ASYNC int     rip_poll(struct pollfd *fds, nfds_t n, int timeout_ms); /* fds ready (revents set), 0 at the timeout, or -1 and errno (ETIMEDOUT: the deadline) */

/* Offload: run a plain blocking function (a disk read, getaddrinfo) on a
 * small pool of pthreads (RIP_OFFLOAD_THREADS, default 4) while the caller
 * waits and its scheduler runs other tasks.  fn must not call rip_*.
 * Under a deadline, a job that has not started by then never runs (NULL
 * and ETIMEDOUT); one that has is waited for: it cannot be stopped, and
 * its result is the caller's. */
RIP_ASYNC void *rip_offload(void *(*fn)(void *), void *arg); /* fn(arg)'s result; NULL and ETIMEDOUT if the deadline came before fn started */

/* Multi-core: n schedulers on n threads, shared nothing.  Each worker runs
 * fn(arg) as its first task; the tasks it spawns stay on it.  A channel,
 * wait group, mutex or condition variable belongs to the worker that made
 * it: using it from another is a fatal error.  Listeners with
 * SO_REUSEPORT spread connections.  */
int     rip_run_workers(int n, rip_task_fn *fn, void *arg); /* like rip_run, n times in parallel; 0 when all finished, -1 if any deadlocked or n < 1 */
int     rip_worker_id(void);                   /* 0..n-1: the caller's worker; 0 under rip_run */

/* Limits: RIP_MAX_TASKS=N in the environment bounds the live tasks of
 * each scheduler (rip_run, or each worker), the first task included; a
 * spawn past N ends the program with a message, a bound on memory. */

/* Stacks (ucontext and threads; the rip backend has none and returns 0).
 * The default is RIP_STACK_SIZE bytes from the environment, else 64 KiB
 * (ucontext) or 256 KiB (threads).  Every stack has a guard page below it
 * (an overflow is a SIGSEGV, on ucontext with a "rip: ..." line first). */
size_t  rip_set_stack_size(size_t bytes);      /* for tasks spawned after; 0 only asks; returns the previous size */

/* Channels of fixed-size elements; capacity 0 is a rendezvous.
 *
 * rip_chan_select waits on several channels at once, a send or a receive
 * each (a case with a NULL channel is skipped), and does exactly one: it
 * returns that case's index with the case's result in `result` (a send 0,
 * or -1 for a closed channel; a receive 1, or 0 for closed and empty).
 * When several can be done at once, which is tried first moves on from
 * call to call (a fixed pseudo-random sequence per scheduler: no ready
 * case starves, and rip and ucontext choose alike).  When none can, the
 * task waits on all, and the first channel that can do its case does it.
 * timeout_ms -1 waits without end, 0 never waits; none done by then: -1
 * and EAGAIN.  The task's deadline coming first: -1 and ETIMEDOUT. */
typedef struct rip_chan rip_chan;
typedef struct rip_chan_case {
    rip_chan *chan;                 /* the channel, or NULL: no case */
    int send;                       /* 1 send *elem, 0 receive into elem */
    void *elem;                     /* the element to send, or where to receive */
    int result;                     /* out, for the case done: rip_chan_send's or rip_chan_recv's result */
} rip_chan_case;
rip_chan *rip_chan_new(size_t elem_size, size_t capacity); /* NULL and errno on failure */
RIP_ASYNC int  rip_chan_send(rip_chan *c, const void *elem); /* 0, or -1 and EPIPE (closed) or ETIMEDOUT (deadline) */
RIP_ASYNC int  rip_chan_recv(rip_chan *c, void *elem);       /* 1, or 0 if closed and empty, or -1 and ETIMEDOUT (deadline) */
RIP_ASYNC int  rip_chan_select(struct rip_chan_case *cases, int n, int timeout_ms); /* below */
int  rip_chan_try_send(rip_chan *c, const void *elem); /* never waits: 0, or -1 and EAGAIN (it would) or EPIPE (closed) */
int  rip_chan_try_recv(rip_chan *c, void *elem);       /* never waits: 1, 0 if closed and empty, or -1 and EAGAIN (it would) */
void rip_chan_close(rip_chan *c);              /* wake every waiter: receivers get 0 once empty, senders -1 and EPIPE */
void rip_chan_free(rip_chan *c);               /* free a channel no task waits on */

/* Wait groups. */
typedef struct rip_wg rip_wg;
rip_wg *rip_wg_new(void);                      /* count 0; NULL and errno on failure */
void    rip_wg_add(rip_wg *wg, int n);         /* count += n */
void    rip_wg_done(rip_wg *wg);               /* count -= 1; at 0 wake every waiter */
RIP_ASYNC int  rip_wg_wait(rip_wg *wg);        /* suspend until the count is 0: 0, or -1 and ETIMEDOUT at the deadline */
void    rip_wg_free(rip_wg *wg);               /* free a wait group no task waits on */

/* Mutexes and condition variables for tasks: a mutex held across a
 * suspension still excludes the other tasks.  On rip and ucontext an
 * unlock with waiters hands the mutex to the longest waiter, appended to
 * the run queue's tail (no barging: a task that unlocks and relocks at
 * once goes behind the waiters); rip_cond_signal moves the longest waiter
 * onto its mutex: if the mutex is free it takes it and is appended to the
 * run queue's tail, else it joins the tail of the mutex's waiters.  The
 * task's deadline ends a lock, or a cond wait not yet signalled, with
 * ETIMEDOUT; a cond wait then takes the mutex again before it returns
 * (that relock, and a signalled waiter's, waits without limit, as
 * pthread_cond_timedwait's).  A task that ends holding a mutex leaves it
 * locked (its waiters then wait for good: the deadlock report).  A cond
 * wait on a recursive mutex releases every level and restores them.
 * threads: the same meaning, not the order. */
typedef struct rip_mutex rip_mutex;
typedef struct rip_cond rip_cond;
#define RIP_MUTEX_NORMAL 0          /* relocking waits for good; an unlock by another task than the holder: a "rip: ..." message and abort */
#define RIP_MUTEX_RECURSIVE 1       /* the holder may lock again, and unlocks as many times */
#define RIP_MUTEX_ERRORCHECK 2      /* relock: -1 and EDEADLK; unlock by another task: -1 and EPERM */
rip_mutex *rip_mutex_new(int kind);            /* a free mutex of kind RIP_MUTEX_*; NULL and errno (EINVAL: no such kind, ENOMEM) */
RIP_ASYNC int rip_mutex_lock(rip_mutex *m);    /* wait until the caller holds m: 0, or -1 and EDEADLK (errorcheck relock) or ETIMEDOUT (deadline) */
int  rip_mutex_trylock(rip_mutex *m);          /* never waits: 0, or -1 and EBUSY (held; by the caller too unless recursive) */
int  rip_mutex_unlock(rip_mutex *m);           /* 0, or -1 and EPERM (the caller does not hold it: errorcheck, recursive) */
void rip_mutex_free(rip_mutex *m);             /* free a mutex no task holds or waits on (else a "rip: ..." message and abort) */
rip_cond *rip_cond_new(void);                  /* NULL and errno on failure */
RIP_ASYNC int rip_cond_wait(rip_cond *c, rip_mutex *m); /* unlock m, wait for a signal, relock m: 0, or -1 and ETIMEDOUT (deadline; m held again) or EPERM (the caller does not hold m) */
void rip_cond_signal(rip_cond *c);             /* wake the longest waiter, if any */
void rip_cond_broadcast(rip_cond *c);          /* wake every waiter, oldest first */
void rip_cond_free(rip_cond *c);               /* free a condition variable no task waits on */

/* Debugging: what every task of the caller's scheduler is doing.  One
 * entry per task: its id, state (running, runnable, waiting), what it
 * waits on (an fd, a channel, a wait group, a timer, an offload job, a
 * deadline) and, on rip, its call chain innermost first, each level
 * `function (file:line)`; ucontext and threads print the waits and say
 * the chain is not available.  With RIP_DUMP_SIGNAL=SIGQUIT (a name or a
 * number) in the environment, that signal prints the dump of every
 * scheduler to stderr from its loop, and the program goes on; a deadlock
 * (rip_run's -1) prints the dump of the tasks blocked forever. */
struct rip_stats {
    int worker;                     /* the scheduler's rip_worker_id() */
    long tasks;                     /* live tasks: started, not ended */
    long running;                   /* of them, running now: 1 when the caller is a task, else 0 */
    long runnable;                  /* in the run queue, its length (threads: in no runtime wait, the kernel's to run) */
    long waiting;                   /* waiting on something: tasks - running - runnable */
    long fd_waits;                  /* waits queued on fds */
    long timers;                    /* timers armed: sleeps, timeouts, deadlines (threads: tasks in rip_sleep_ms) */
    long offload_queued;            /* offload jobs no pool thread has taken yet, all schedulers (threads: 0, no pool) */
    long offload_busy;              /* pool threads running a job */
    long offload_threads;           /* pool threads started */
    size_t frame_bytes;             /* rip: bytes of the frame pool's slabs holding frames now (ucontext, threads: 0) */
    size_t pooled_bytes;            /* rip: bytes of the frame pool free for new frames, on its free lists and slab (ucontext, threads: 0) */
};
void rip_dump_tasks(FILE *out);                /* print the caller's scheduler's stats and tasks to out (rip_run_workers: its worker's) */
int  rip_stats(struct rip_stats *out);         /* fill *out with the caller's scheduler's counters, read, not kept: 0 */

/* Which backend the including file is built for, kept in its object (a
 * local symbol, no code): ripcc refuses to link objects of another backend
 * than the runtime's.  ripcc defines RIP_BACKEND_UCONTEXT or
 * RIP_BACKEND_THREADS; RIP_RIPPED comes with ripping. */
#if defined(RIP_RIPPED) || defined(__RIPPER__)
static const char rip__built_for_rip __attribute__((used, unused)) = 0;
#elif defined(RIP_BACKEND_UCONTEXT)
static const char rip__built_for_ucontext __attribute__((used, unused)) = 0;
#elif defined(RIP_BACKEND_THREADS)
static const char rip__built_for_threads __attribute__((used, unused)) = 0;
#endif

#ifdef __cplusplus
}
#endif
#endif /* RIP_H */

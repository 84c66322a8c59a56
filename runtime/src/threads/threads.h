/* threads.h -- private interface of the `threads` backend.
 *
 * One detached pthread per task.  sched.c keeps, per worker, the task
 * accounting that rip_run and rip_run_workers use to see when every task
 * has finished or all are blocked forever; waitq.c parks a task on a wait
 * queue and wakes it, keeping that accounting right; chan.c, wg.c, io.c
 * and offload.c build the public calls on both; stack.c sizes stacks. */
#ifndef RIP_THREADS_H
#define RIP_THREADS_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "rip.h"
#include "../shared/fatal.h"

/* Always-on assert: <assert.h> disappears under NDEBUG, this does not. */
#define rip_assert(x) do { \
    if (!(x)) { \
        fprintf(stderr, "rip: assertion failed: %s (%s:%d)\n", \
                #x, __FILE__, __LINE__); \
        abort(); \
    } \
} while (0)

/* A task parked on a wait queue (a channel's or a wait group's).  A plain
 * one lives on the waiting task's stack and the task sleeps on its own
 * mutex and condition variable, never on the queue owner's: once woken it
 * must not touch the owner, which the waker may free at once (a receiver
 * freeing a channel right after a rendezvous, a waiter freeing its wait
 * group).  A wait under a deadline or a timeout, and each case of a
 * select, is one of a group (below) and lives on the heap. */
typedef struct rip_thr_group rip_thr_group;
typedef struct rip_thr_waiter {
    struct rip_thr_waiter *next; /* next waiter in the queue, FIFO */
    pthread_mutex_t mu;          /* plain: guards woken */
    pthread_cond_t cond;         /* plain: the parked task sleeps here until woken */
    int woken;                   /* plain: set by rip_thr_wake; the task may then return */
    struct rip_thr_run *run;     /* the parked task's run (NULL: not a task) */
    void *elem;                  /* chan: value to send, or buffer to receive into */
    int ok;                      /* chan: 1 value handed over, 0 channel closed */
    rip_thr_group *group;        /* its group, or NULL: a plain waiter */
    int index;                   /* its case in the group */
} rip_thr_waiter;

/* The waiters of one wait that may end in more than one way: a select's
 * cases, or one wait with a time limit.  The first to claim it (a waker
 * popping one of its waiters, the task doing a case itself, or the time
 * limit) settles it under its mutex; its other waiters stay in their
 * queues, stale, and whoever unlinks one frees it (the last frees the
 * group), so the task never touches a queue's owner after it parked. */
struct rip_thr_group {
    pthread_mutex_t mu;          /* guards every field below */
    pthread_cond_t cond;         /* the task sleeps here (CLOCK_MONOTONIC) */
    int claimed;                 /* the case done, -1 while none */
    int cancelled;               /* the time limit came first */
    int woken;                   /* the claimer is done with the claimed waiter */
    int timed;                   /* has a time limit: its task counts busy, not blocked */
    int refs;                    /* waiters linked in queues, plus 1 until the task lets go */
    struct rip_thr_run *run;     /* the task's run */
};

/* FIFO queue of waiters; guarded by its owner's mutex. */
typedef struct rip_thr_waitq {
    rip_thr_waiter *head;        /* first to be woken, NULL when empty */
    rip_thr_waiter *tail;        /* last, valid when head != NULL */
} rip_thr_waitq;

/* Task accounting (sched.c), under the one accounting mutex.  A run is
 * one worker's tasks (rip_run has one worker). */
typedef struct rip_thr_run rip_thr_run;
rip_thr_run *rip_thr_self_run(void);    /* calling task's run, NULL outside tasks */
void rip_thr_in_a_task(const char *call); /* abort, as on every backend, unless the caller is a task */
void rip_thr_block(rip_thr_run *run);   /* a task of run parks in a runtime wait */
void rip_thr_unblock(rip_thr_run *run); /* a waker makes a parked task runnable */
void rip_thr_busy_begin(void);          /* caller starts sleeping, waiting for an fd or offloading */
void rip_thr_busy_end(void);            /* ... and stops */
void rip_thr_check_worker(int owner, const char *what); /* abort unless the caller is worker `owner` */

/* rip_dump_tasks (dump.c): a record per task, on its thread's stack. */
enum { RIP_THR_NONE, RIP_THR_FD_READ, RIP_THR_FD_WRITE, RIP_THR_SEND, RIP_THR_RECV,
       RIP_THR_SELECT, RIP_THR_WG, RIP_THR_SLEEP, RIP_THR_OFFLOAD, RIP_THR_MUTEX, RIP_THR_COND };
typedef struct rip_thr_task rip_thr_task;
struct rip_thr_task {
    rip_thr_task *next, *prev;   /* neighbours among the live tasks (dump.c's list) */
    struct rip_thr_run *run;     /* its run */
    int worker;                  /* its run's worker */
    int kind;                    /* RIP_THR_*: what it waits on now (atomic) */
    const void *on;              /* the channel, wait group, mutex or condition variable */
    long num, num2;              /* fd; a channel's elem size and capacity; a select's cases */
    int64_t due;                 /* a sleep's end, a rip_now_ms() time */
    int64_t since;               /* rip_now_ms() when the wait began */
};
void rip_thr_task_begin(rip_thr_task *t, struct rip_thr_run *run, int worker); /* the calling thread is a new task: list t */
void rip_thr_task_end(rip_thr_task *t);        /* ... and ends */
void rip_thr_wait_note(int kind, const void *on, long num, long num2, int64_t due); /* the calling task waits on this now (RIP_THR_NONE: no longer) */
void rip_thr_dump(FILE *out, int worker, const char *why); /* the dump of worker's tasks */
int  rip_thr_dump_setup(void);          /* install RIP_DUMP_SIGNAL's handler: 1, or 0 when not asked */
long rip_thr_dump_requests(void);       /* its deliveries so far */

/* Stacks (stack.c). */
void rip_thr_task_attr(pthread_attr_t *attr); /* init attr: detached, the current stack size */

/* Wait queues (waitq.c).  A waker pops waiters under the owner's mutex,
 * fills in elem and ok, unlocks, and only then wakes them: after
 * rip_thr_wake neither side touches the owner again. */
void rip_thr_waitq_init(rip_thr_waitq *q);
int  rip_thr_waitq_empty(rip_thr_waitq *q);     /* no live waiter (stale ones are freed) */
void rip_thr_waitq_push(rip_thr_waitq *q, rip_thr_waiter *w);  /* append w */
rip_thr_waiter *rip_thr_waitq_pop(rip_thr_waitq *q); /* unlink the first live waiter, claim its group, count it runnable; NULL if none */
rip_thr_waiter *rip_thr_waitq_take(rip_thr_waitq *q, rip_thr_group *skip); /* the same, leaving skip's waiters queued */
int  rip_thr_waitq_live(rip_thr_waitq *q, rip_thr_group *skip); /* a live waiter not of skip is queued */
int  rip_thr_park(rip_thr_waitq *q, rip_thr_waiter *w, pthread_mutex_t *mu); /* mu held: enqueue w (elem set), unlock mu, sleep until woken: 0 (w->ok set), or -1 and ETIMEDOUT at the task's deadline (then not queued) */
void rip_thr_wake(rip_thr_waiter *w);   /* owner's mutex released: let a popped waiter return */
rip_thr_group *rip_thr_group_new(int timed); /* a group for the calling task, its ref held; counted blocked unless timed */
rip_thr_waiter *rip_thr_group_waiter(rip_thr_group *g, int index, void *elem); /* a heap waiter of g for case index (a ref): push it */
int  rip_thr_group_claim(rip_thr_group *g, int index); /* the task does case index itself: 1, or 0 if a waker or the time limit was first */
int  rip_thr_group_wait(rip_thr_group *g, int64_t until_ms); /* sleep until settled (until_ms -1: no limit), let go of g: the case done, or -1 (the limit came first) */
int64_t rip_thr_deadline(void);         /* the calling task's rip_set_deadline, -1 for none (io.c) */

#endif /* RIP_THREADS_H */

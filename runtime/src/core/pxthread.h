/* pxthread.h -- pthreads as tasks (`ripper --posix`, issue 22): the state
 * shared by the rip and ucontext backends' pthread calls (core/pthread.c).
 * Each backend waits its own way (a frame in rip/pthread.c, a park in
 * ucontext/pthread.c); everything that never waits is here, once. */
#ifndef RIP_PXTHREAD_H
#define RIP_PXTHREAD_H

#include <pthread.h>
#include <time.h>
#include "core.h"

/* A thread: a task started by pthread_create, or a task that asked for
 * its own pthread_t (main).  Freed once it has ended and been joined or
 * detached. */
typedef struct rip_pxthread rip_pxthread;
struct rip_pxthread {
    pthread_t id;                   /* its pthread_t: slot | generation << 24 (never 0) */
    rip_task *task;                 /* its task while it runs, else NULL */
    void *start;                    /* the start routine: a frame constructor (rip) or the function (ucontext) */
    void *arg;                      /* its argument */
    int detached;                   /* pthread_detach'd, or created detached: freed when it ends */
    int ended;                      /* returned or called pthread_exit */
    void *retval;                   /* its value, once ended */
    rip_task *joiner;               /* the task waiting in pthread_join, or NULL */
    void **specific;                /* thread-specific values, by key (pthread_setspecific) */
    size_t nspecific;               /* entries of `specific` */
    void **tls;                     /* its copies of the program's thread-locals, by index (rip_posix_tls) */
    int err;                        /* its errno while another task runs (core.h rip__run_own_errno) */
    size_t ntls;                    /* entries of `tls` */
};

rip_pxthread *rip__px_thread_new(const pthread_attr_t *attr, void *start, void *arg, int *err); /* a record for pthread_create (detach state from attr), or NULL and *err (EAGAIN, EINVAL) */
rip_pxthread *rip__px_thread_create(pthread_t *thread, const pthread_attr_t *attr, void *start,
                                    void *arg, int *err); /* pthread_create's record (the creator gets one too), *thread set: the caller spawns its task; or NULL and *err */
void rip__px_thread_run_plain(rip_pxthread *th); /* the current task runs th's plain start routine to its end */
void rip__px_thread_begin(rip_pxthread *th);  /* the current task is th's: it starts running */
void rip__px_thread_end(rip_pxthread *th, void *retval); /* th's task ends with retval: destructors run, the joiner wakes, a detached record goes */
rip_pxthread *rip__px_self(void);             /* the current task's thread (made for main, or a task not made by pthread_create) */
int  rip__px_join_begin(pthread_t id, rip_pxthread **th); /* 0: ended, *th to finish; an error number (ESRCH, EINVAL, EDEADLK); RIP_WAIT: the current task is th's joiner, park it */
void *rip__px_join_end(rip_pxthread *th);     /* the joined thread's value; its record freed */
int  rip__px_thread_task(pthread_t id, rip_task **task); /* 0 and *task (NULL once it ended, not yet joined); ESRCH: no such thread (gone, or never one) */

/* Mutexes and condition variables: the user's pthread_mutex_t holds a
 * pointer to a rip_mutex in its first 8 bytes (made on first use: a
 * static initializer is zeros with the kind at glibc's __kind); a
 * pthread_cond_t a rip_cond pointer and its clock. */
rip_mutex *rip__px_mutex(pthread_mutex_t *m, int *err); /* the rip_mutex of m, made if need be; NULL and *err ENOMEM */
rip_cond  *rip__px_cond(pthread_cond_t *c, int *err);   /* likewise */
clockid_t  rip__px_cond_clock(pthread_cond_t *c);       /* the clock of c's timed waits */
int rip__px_abstime_ms(const struct timespec *abstime, clockid_t clock, int64_t *at_ms); /* 0 and *at_ms, the rip_now_ms() time at which abstime is past; EINVAL (bad tv_nsec) */
int rip__mutex_busy(rip_mutex *m);            /* held or waited on (mutex.c) */
int rip__cond_busy(rip_cond *c);              /* waited on (mutex.c) */

/* Readers-writer locks (pthread_rwlock_t holds a pointer to one). */
typedef struct rip_pxrwlock rip_pxrwlock;
rip_pxrwlock *rip__px_rwlock(pthread_rwlock_t *l, int *err); /* made if need be */
int  rip__px_rw_try(rip_pxrwlock *l, int write); /* 0 taken, EBUSY, EDEADLK (the caller holds it for writing) */
int  rip__px_once_begin(pthread_once_t *once); /* 1: the caller runs the init routine; 0: done already; RIP_WAIT: another task is running it */
void rip__px_once_end(pthread_once_t *once);  /* the init routine returned */
int  rip__px_rw_wait(rip_pxrwlock *l, int write, rip_waiter *w); /* queue w: RIP_WAIT (under the task's deadline), or ETIMEDOUT */
int  rip__px_rw_waited(rip_waiter *w);        /* a woken waiter's result: 0 (it holds the lock) or ETIMEDOUT */
rip_task  *rip__px_rw_writer(rip_pxrwlock *l);            /* the task holding l for writing, or NULL */
#endif

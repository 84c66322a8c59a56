/* mutex.c -- mutexes and condition variables for the `threads` backend.
 *
 * Built on the backend's wait queues (waitq.c) under a pthread mutex, as
 * channels and wait groups are, rather than on a bare pthread_mutex_t:
 * a task parked there is counted blocked (every task blocked forever on
 * mutexes gets the deadlock report instead of a hang), the task's
 * deadline limits the wait (rip_thr_park), and an unlock hands the mutex
 * to the longest waiter as on the other backends.  A cond wait parks on
 * the condition variable's queue, then relocks the mutex itself, without
 * the deadline (as pthread_cond_timedwait's relock).  The holder is named
 * by a number each task (one thread per task) draws once and no other
 * task ever gets: a thread-local's address could come back with a new
 * thread, which would then pass for a holder that ended. */
#include <errno.h>
#include <stdint.h>

#include "threads.h"

static uintptr_t task_numbers;     /* numbers drawn so far, by every task */
static __thread uintptr_t self_number; /* the calling task's, 0 until drawn */

/* The calling task's number, as the holder and waiter fields keep it. */
static void *self(void) {
    if (self_number == 0)
        self_number = __atomic_add_fetch(&task_numbers, 1, __ATOMIC_RELAXED);
    return (void *)self_number;
}
#define SELF self()

struct rip_mutex {
    pthread_mutex_t mu;            /* guards every field below */
    int kind;                      /* RIP_MUTEX_* */
    void *holder;                  /* SELF of the holding task, NULL when free */
    long depth;                    /* locks by the holder not yet unlocked */
    rip_thr_waitq waitq;           /* tasks parked in rip_mutex_lock (elem: their SELF) */
    int worker;                    /* rip_worker_id() of its maker, the only one to use it */
};

struct rip_cond {
    pthread_mutex_t mu;            /* guards waitq */
    rip_thr_waitq waitq;           /* tasks parked in rip_cond_wait */
    int worker;                    /* rip_worker_id() of its maker */
};

rip_mutex *rip_mutex_new(int kind) {
    if (kind != RIP_MUTEX_NORMAL && kind != RIP_MUTEX_RECURSIVE && kind != RIP_MUTEX_ERRORCHECK) {
        errno = EINVAL;
        return NULL;
    }
    rip_mutex *m = malloc(sizeof *m);
    if (m == NULL)
        return NULL;
    int rc = pthread_mutex_init(&m->mu, NULL);
    if (rc != 0) {
        free(m);
        errno = rc;
        return NULL;
    }
    m->kind = kind;
    m->holder = NULL;
    m->depth = 0;
    m->worker = rip_worker_id();
    rip_thr_waitq_init(&m->waitq);
    return m;
}

int rip_mutex_lock(rip_mutex *m) {
    rip_thr_in_a_task(__func__);
    rip_thr_check_worker(m->worker, "mutex");
    pthread_mutex_lock(&m->mu);
    if (m->holder == NULL) {
        m->holder = SELF;
        m->depth = 1;
        pthread_mutex_unlock(&m->mu);
        return 0;
    }
    if (m->holder == SELF && m->kind != RIP_MUTEX_NORMAL) {
        int recursive = m->kind == RIP_MUTEX_RECURSIVE;
        if (recursive)
            m->depth++;
        pthread_mutex_unlock(&m->mu);
        if (recursive)
            return 0;
        errno = EDEADLK;
        return -1;
    }
    rip_thr_waiter w;
    w.elem = SELF;
    w.ok = 0;
    rip_thr_wait_note(RIP_THR_MUTEX, m, 0, 0, 0);
    int r = rip_thr_park(&m->waitq, &w, &m->mu); /* 0: the unlocker made us the holder; -1 and ETIMEDOUT */
    rip_thr_wait_note(RIP_THR_NONE, NULL, 0, 0, 0);
    return r;
}

int rip_mutex_trylock(rip_mutex *m) {
    rip_thr_in_a_task(__func__);
    rip_thr_check_worker(m->worker, "mutex");
    int r = 0;
    pthread_mutex_lock(&m->mu);
    if (m->holder == NULL) {
        m->holder = SELF;
        m->depth = 1;
    } else if (m->holder == SELF && m->kind == RIP_MUTEX_RECURSIVE) {
        m->depth++;
    } else {
        r = -1;
    }
    pthread_mutex_unlock(&m->mu);
    if (r)
        errno = EBUSY;
    return r;
}

/* Unlock one level (m->mu held, released here); the caller holds m. */
static void unlock_locked(rip_mutex *m) {
    rip_thr_waiter *w = NULL;
    if (--m->depth == 0) {
        w = rip_thr_waitq_pop(&m->waitq);
        m->holder = w ? w->elem : NULL;
        m->depth = w ? 1 : 0;
    }
    pthread_mutex_unlock(&m->mu);
    if (w)
        rip_thr_wake(w);
}

int rip_mutex_unlock(rip_mutex *m) {
    rip_thr_in_a_task(__func__);
    rip_thr_check_worker(m->worker, "mutex");
    pthread_mutex_lock(&m->mu);
    if (m->holder != SELF) {
        pthread_mutex_unlock(&m->mu);
        if (m->kind == RIP_MUTEX_NORMAL)
            rip__fatal("rip_mutex_unlock: the mutex is not held by the calling task");
        errno = EPERM;
        return -1;
    }
    unlock_locked(m);
    return 0;
}

void rip_mutex_free(rip_mutex *m) {
    if (m == NULL)
        return;
    if (m->holder != NULL || !rip_thr_waitq_empty(&m->waitq))
        rip__fatal("rip_mutex_free: the mutex is held or waited on");
    pthread_mutex_destroy(&m->mu);
    free(m);
}

rip_cond *rip_cond_new(void) {
    rip_cond *c = malloc(sizeof *c);
    if (c == NULL)
        return NULL;
    int rc = pthread_mutex_init(&c->mu, NULL);
    if (rc != 0) {
        free(c);
        errno = rc;
        return NULL;
    }
    c->worker = rip_worker_id();
    rip_thr_waitq_init(&c->waitq);
    return c;
}

int rip_cond_wait(rip_cond *c, rip_mutex *m) {
    rip_thr_in_a_task(__func__);
    rip_thr_check_worker(c->worker, "condition variable");
    rip_thr_check_worker(m->worker, "mutex");
    /* c->mu before m->mu: a signal between our unlock and our park waits
     * for c->mu, so none is lost. */
    pthread_mutex_lock(&c->mu);
    pthread_mutex_lock(&m->mu);
    if (m->holder != SELF) {
        pthread_mutex_unlock(&m->mu);
        pthread_mutex_unlock(&c->mu);
        errno = EPERM;
        return -1;
    }
    long depth = m->depth;
    m->depth = 1;
    unlock_locked(m);
    rip_thr_waiter w;
    w.elem = NULL;
    w.ok = 0;
    rip_thr_wait_note(RIP_THR_COND, c, 0, 0, 0);
    int r = rip_thr_park(&c->waitq, &w, &c->mu); /* 0 signalled, or -1 and ETIMEDOUT */
    rip_thr_wait_note(RIP_THR_NONE, NULL, 0, 0, 0);
    int err = errno;
    int64_t deadline = rip_set_deadline(-1); /* the relock waits without limit */
    rip_mutex_lock(m);
    rip_set_deadline(deadline);
    pthread_mutex_lock(&m->mu);
    m->depth = depth;
    pthread_mutex_unlock(&m->mu);
    if (r)
        errno = err;
    return r;
}

static void wake(rip_cond *c, int all) {
    rip_thr_waitq woken;
    rip_thr_waitq_init(&woken);
    rip_thr_check_worker(c->worker, "condition variable");
    pthread_mutex_lock(&c->mu);
    rip_thr_waiter *w;
    while ((w = rip_thr_waitq_pop(&c->waitq)) != NULL) {
        rip_thr_waitq_push(&woken, w);
        if (!all)
            break;
    }
    pthread_mutex_unlock(&c->mu);
    for (w = woken.head; w != NULL; ) {
        rip_thr_waiter *next = w->next;
        rip_thr_wake(w);
        w = next;
    }
}

void rip_cond_signal(rip_cond *c) {
    wake(c, 0);
}

void rip_cond_broadcast(rip_cond *c) {
    wake(c, 1);
}

void rip_cond_free(rip_cond *c) {
    if (c == NULL)
        return;
    if (!rip_thr_waitq_empty(&c->waitq))
        rip__fatal("rip_cond_free: tasks still wait on the condition variable");
    pthread_mutex_destroy(&c->mu);
    free(c);
}

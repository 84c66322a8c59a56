/* mutex.c -- mutexes and condition variables for the rip and ucontext
 * backends.
 *
 * A mutex is its holder (a task), a depth and a FIFO list of waiting
 * tasks.  An unlock with waiters hands the mutex to the longest waiter,
 * which is appended to the run queue: no barging, a task that unlocks and
 * relocks at once goes behind the waiters.  A condition variable is a
 * FIFO list of waits (rip_condop); a signal moves the longest one onto
 * its mutex: given the mutex at once (and appended to the run queue) if
 * the mutex is free, else appended to the mutex's wait list, where it
 * waits like any locker (wait morphing: the signaller usually holds the
 * mutex, and waking the task only to block it again would cost a switch).
 * A deadline cancels a lock, or a cond wait still on the condition
 * variable (rip__wl_cancel on either list); a cond wait then takes the
 * mutex again before it returns ETIMEDOUT, and that relock waits without
 * limit, as pthread_cond_timedwait's does.  Once a signal has moved a
 * wait onto the mutex, the deadline no longer cuts it short. */
#include <errno.h>
#include <stddef.h>
#include "core.h"

struct rip_mutex {
    int kind;                       /* RIP_MUTEX_* */
    rip_task *holder;               /* the task holding it, NULL when free */
    long depth;                     /* locks by the holder not yet unlocked */
    rip_waitlist waiters;           /* tasks waiting to lock it (and cond waits moved here), oldest first */
    struct rip__runq *owner;        /* the run queue of the worker that made it */
    rip_mutex *next;                /* the thread's next mutex (rip_dump_tasks) */
    rip_mutex **pprev;              /* the pointer to this one */
};

struct rip_cond {
    rip_waitlist waiters;           /* the `w` of each rip_condop waiting, oldest first */
    struct rip__runq *owner;        /* the run queue of the worker that made it */
    rip_cond *next;                 /* the thread's next condition variable (rip_dump_tasks) */
    rip_cond **pprev;               /* the pointer to this one */
};

static __thread rip_mutex *mutexes; /* the thread's mutexes, newest first */
static __thread rip_cond *conds;    /* its condition variables */

void rip__mutex_each(void (*fn)(rip_mutex *m, rip_task *holder, rip_waitlist *waiters, void *ctx),
                     void *ctx) {
    for (rip_mutex *m = mutexes; m; m = m->next)
        fn(m, m->holder, &m->waiters, ctx);
}

void rip__cond_each(void (*fn)(rip_cond *c, rip_waitlist *waiters, void *ctx), void *ctx) {
    for (rip_cond *c = conds; c; c = c->next)
        fn(c, &c->waiters, ctx);
}

rip_mutex *rip_mutex_new(int kind) {
    if (kind != RIP_MUTEX_NORMAL && kind != RIP_MUTEX_RECURSIVE && kind != RIP_MUTEX_ERRORCHECK) {
        errno = EINVAL;
        return NULL;
    }
    rip_mutex *m = calloc(1, sizeof *m);
    if (!m)
        return NULL;
    m->kind = kind;
    m->owner = &rip__runq;
    if ((m->next = mutexes))
        mutexes->pprev = &m->next;
    m->pprev = &mutexes;
    mutexes = m;
    return m;
}

/* The calling task; outside any task, a fatal message naming the call. */
static rip_task *caller(const char *call) {
    rip_task *t = rip__current();
    if (!t)
        rip__outside_task(call);
    return t;
}

int rip__mutex_lock(rip_mutex *m, rip_waiter *w) {
    rip__check_owner(m->owner, "mutex");
    rip_task *t = caller("rip_mutex_lock");
    if (!m->holder) {
        m->holder = t;
        m->depth = 1;
        return 0;
    }
    if (m->holder == t) {
        if (m->kind == RIP_MUTEX_RECURSIVE) {
            m->depth++;
            return 0;
        }
        if (m->kind == RIP_MUTEX_ERRORCHECK) {
            errno = EDEADLK;
            return -1;
        }
        /* RIP_MUTEX_NORMAL: waits on itself, for good, as POSIX's does */
    }
    if (rip__deadline_passed()) {
        errno = ETIMEDOUT;
        return -1;
    }
    w->task = t;
    w->status = 0;
    w->elem = NULL;
    rip__wl_push(&m->waiters, w);
    rip__wait_limit(w, rip__wl_cancel, &m->waiters, 0);
    return RIP_WAIT;
}

int rip__mutex_locked(rip_waiter *w) {
    rip__wait_ended(w);
    if (w->status == ETIMEDOUT) {
        errno = ETIMEDOUT;
        return -1;
    }
    return 0;                       /* the unlocker made us the holder */
}

int rip_mutex_trylock(rip_mutex *m) {
    rip__check_owner(m->owner, "mutex");
    rip_task *t = caller(__func__);
    if (!m->holder) {
        m->holder = t;
        m->depth = 1;
        return 0;
    }
    if (m->holder == t && m->kind == RIP_MUTEX_RECURSIVE) {
        m->depth++;
        return 0;
    }
    errno = EBUSY;
    return -1;
}

/* Give m to its longest waiter, or free it.  (A nested waiter, a plain
 * function's lock or cond wait, is parked: readying it ends its wait.) */
static void hand_over(rip_mutex *m) {
    rip_waiter *w = rip__wl_pop(&m->waiters);
    m->holder = w ? w->task : NULL;
    m->depth = w ? 1 : 0;
    if (w) {
        w->status = 0;
        rip__ready(w->task);
    }
}

/* The caller outside any task (a constructor before main, a destructor
 * after it): one thread, no task to wait for, so it never waits. */
static char outside_any_task;
#define OUTSIDE ((rip_task *)(void *)&outside_any_task)

int rip__mutex_outside(rip_mutex *m, int op) {
    rip__check_owner(m->owner, "mutex");
    if (op == RIP__UNLOCK) {
        if (m->holder != OUTSIDE) {
            errno = EPERM;
            return -1;
        }
        if (--m->depth == 0)
            hand_over(m);
        return 0;
    }
    if (!m->holder) {
        m->holder = OUTSIDE;
        m->depth = 1;
        return 0;
    }
    if (m->holder == OUTSIDE && m->kind == RIP_MUTEX_RECURSIVE) {
        m->depth++;
        return 0;
    }
    if (op == RIP__TRYLOCK) {
        errno = EBUSY;
        return -1;
    }
    if (m->holder == OUTSIDE && m->kind == RIP_MUTEX_ERRORCHECK) {
        errno = EDEADLK;
        return -1;
    }
    rip__fatal("pthread_mutex_lock outside any task (a constructor or destructor) on a mutex "
               "%s: it would wait for good", m->holder == OUTSIDE ? "it holds already" :
               "a task holds");
}

int rip__mutex_lock_nested(rip_mutex *m, int64_t at_ms) {
    rip_waiter w;
    /* Untimed, the task's own deadline does not limit it (POSIX's lock
     * never times out); timed, the earlier of the two. */
    int64_t saved = rip_set_deadline(-1);
    if (at_ms >= 0)
        rip_set_deadline(saved >= 0 && saved < at_ms ? saved : at_ms);
    const char *call = at_ms >= 0 ? "pthread_mutex_timedlock" : "pthread_mutex_lock";
    int r = rip__mutex_lock(m, &w);
    if (r == RIP_WAIT) {
        if (rip__in_signal_handler())
            rip__fatal("%s would wait in a plain function (a signal handler, which runs "
                       "inside the code it interrupts): lock it in the thread's own code", call);
        if (at_ms < 0 && m->holder == rip__current())
            rip__fatal("%s would wait in a plain function (called through a pointer, on a "
                       "mutex its own task holds): it could never return; lock it in the "
                       "thread's own code", call);
        if (at_ms < 0 && rip__nested_below(m->holder))
            rip__fatal("%s in a plain function (one called through a pointer) would wait for "
                       "a task that itself waits in a plain function further down: it could "
                       "never return to unlock; call the function by name from the thread", call);
        rip__park(call);            /* until a hand-over or the deadline readies it */
        r = rip__mutex_locked(&w);
    }
    rip_set_deadline(saved);
    return r;
}

int rip__cond_wait_nested(rip_condop *op, int64_t at_ms) {
    const char *call = at_ms >= 0 ? "pthread_cond_timedwait" : "pthread_cond_wait";
    if (rip__in_signal_handler())
        rip__fatal("%s in a plain function (a signal handler, which runs inside the code it "
                   "interrupts): it cannot wait there; wait in the thread's own code", call);
    int64_t saved = -2;
    if (at_ms >= 0) {
        saved = rip_set_deadline(at_ms);
        if (saved >= 0 && saved < at_ms)
            rip_set_deadline(saved);
    }
    while (!rip__cond_step(op))     /* a wait on c, then (after a timeout) on m */
        rip__park(call);
    if (saved != -2)
        rip_set_deadline(saved);
    return op->result == 0 ? 0 : op->err;
}

int rip_mutex_unlock(rip_mutex *m) {
    rip__check_owner(m->owner, "mutex");
    if (m->holder != caller(__func__)) {
        if (m->kind == RIP_MUTEX_NORMAL)
            rip__fatal("rip_mutex_unlock: the mutex is not held by the calling task");
        errno = EPERM;
        return -1;
    }
    if (--m->depth == 0)
        hand_over(m);
    return 0;
}

int rip__mutex_busy(rip_mutex *m) {
    return m->holder || m->waiters.head;
}

void rip_mutex_free(rip_mutex *m) {
    if (!m)
        return;
    if (m->holder || m->waiters.head)
        rip__fatal("rip_mutex_free: the mutex is held or waited on");
    if ((*m->pprev = m->next))
        m->next->pprev = m->pprev;
    free(m);
}

rip_cond *rip_cond_new(void) {
    rip_cond *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->owner = &rip__runq;
    if ((c->next = conds))
        conds->pprev = &c->next;
    c->pprev = &conds;
    conds = c;
    return c;
}

#define OP_OF(w) ((rip_condop *)(void *)((char *)(w) - offsetof(rip_condop, w)))

int rip__cond_step(rip_condop *op) {
    rip_mutex *m = op->m;
    switch (op->phase) {
    case 0:                         /* begin: leave m, wait on c */
        rip__check_owner(op->c->owner, "condition variable");
        rip__check_owner(m->owner, "mutex");
        if (m->holder != caller("rip_cond_wait")) {
            op->result = -1;
            op->err = EPERM;
            return 1;
        }
        if (rip__deadline_passed()) {
            op->result = -1;
            op->err = ETIMEDOUT;
            return 1;
        }
        op->depth = m->depth;
        hand_over(m);
        op->w.task = rip__current();
        op->w.status = 0;
        op->w.elem = NULL;
        rip__wl_push(&op->c->waiters, &op->w);
        rip__wait_limit(&op->w, rip__wl_cancel, &op->c->waiters, 0);
        op->phase = 1;
        return 0;
    case 1:                         /* woken: signalled and holding m, or timed out */
        rip__wait_ended(&op->w);
        if (op->w.status != ETIMEDOUT) {
            m->depth = op->depth;
            op->result = 0;
            op->err = 0;
            return 1;
        }
        op->err = ETIMEDOUT;
        if (m->holder) {            /* relock without limit */
            op->w.status = 0;
            rip__wl_push(&m->waiters, &op->w);
            op->phase = 2;
            return 0;
        }
        m->holder = op->w.task;
        /* fall through */
    default:                        /* phase 2: the relock after a timeout got m */
        m->depth = op->depth;
        op->result = -1;
        return 1;
    }
}

/* Move the longest wait on c onto its mutex: 1, or 0 if none waits. */
static int signal_one(rip_cond *c) {
    rip__check_owner(c->owner, "condition variable");
    rip_waiter *w = rip__wl_pop(&c->waiters);
    if (!w)
        return 0;
    rip_mutex *m = OP_OF(w)->m;
    w->status = 0;
    if (m->holder) {
        rip__wl_push(&m->waiters, w);   /* its deadline's cancel finds it on c no more */
    } else {
        m->holder = w->task;
        m->depth = 1;
        rip__ready(w->task);
    }
    return 1;
}

void rip_cond_signal(rip_cond *c) {
    signal_one(c);
}

void rip_cond_broadcast(rip_cond *c) {
    while (signal_one(c))
        ;
}

int rip__cond_busy(rip_cond *c) {
    return c->waiters.head != NULL;
}

void rip_cond_free(rip_cond *c) {
    if (!c)
        return;
    if (c->waiters.head)
        rip__fatal("rip_cond_free: tasks still wait on the condition variable");
    if ((*c->pprev = c->next))
        c->next->pprev = c->pprev;
    free(c);
}

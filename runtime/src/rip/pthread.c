/* pthread.c -- pthreads as tasks on the rip backend (`ripper --posix`):
 * hand-written frames for the calls that wait (join, exit, mutex lock,
 * condition wait), the first frame of a thread's task, and
 * pthread_create.  What never waits is core/pthread.c's. */
#define _GNU_SOURCE
#include <errno.h>
#include "rip_private.h"
#include "pxthread.h"
#include "rip_posix.h"

/* The current task waits in frame f, which will resume at state `next`. */
static void suspend(rip_frame *f, int next) {
    f->state = next;
    rip__current()->impl = f;
}

/* A thread's first frame: runs the start routine's frame (its constructor
 * `start`, from the record), then ends the thread with its value. */
struct thread_frame {
    rip_frame hdr;
    rip_pxthread *th;               /* the thread */
};

static int thread_resume(rip_frame *f, rip_frame *done) {
    struct thread_frame *F = (struct thread_frame *)f;
    if (f->state == 0) {
        rip__px_thread_begin(F->th);
        errno = 0;                  /* a new thread's, as glibc's */
        rip_posix_start_fn *start = (rip_posix_start_fn *)F->th->start;
        done = start(F->th->arg);
        if (!rip__call(f, done)) {
            f->state = 1;
            return 0;
        }
    }
    /* the result slot of a void * function: right after the header */
    void *value = *(void **)(void *)((char *)done + sizeof(rip_frame));
    rip__frame_free(done);
    rip__px_thread_end(F->th, value);
    return 1;
}

static rip_frame *thread_frame(void *th) {
    struct thread_frame *F = rip__frame_alloc(sizeof *F, thread_resume);
    F->th = th;
    return &F->hdr;
}

int rip_posix_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                             rip_posix_start_fn *start, void *arg) {
    int err;
    rip_pxthread *th = rip__px_thread_create(thread, attr, (void *)start, arg, &err);
    if (!th)
        return err;
    rip_spawn(thread_frame, th);
    return 0;
}

/* A thread whose start routine is a plain function (another file's,
 * calling nothing that suspends): one step. */
static int plain_thread_resume(rip_frame *f, rip_frame *done) {
    (void)done;
    rip__px_thread_run_plain(((struct thread_frame *)f)->th);
    return 1;
}

static rip_frame *plain_thread_frame(void *th) {
    struct thread_frame *F = rip__frame_alloc(sizeof *F, plain_thread_resume);
    F->th = th;
    return &F->hdr;
}

int rip_posix_pthread_create_extern(pthread_t *thread, const pthread_attr_t *attr,
                                    rip_posix_start_fn *ripped, void *(*plain)(void *),
                                    void *arg) {
    if (ripped)
        return rip_posix_pthread_create(thread, attr, ripped, arg);
    if (!plain)
        rip__fatal("pthread_create: the start routine is defined in no file of the program");
    int err;
    rip_pxthread *th = rip__px_thread_create(thread, attr, (void *)plain, arg, &err);
    if (!th)
        return err;
    rip_spawn(plain_thread_frame, th);
    return 0;
}

int rip_posix_pthread_create_plain(pthread_t *thread, const pthread_attr_t *attr,
                                   void *(*start)(void *), void *arg) {
    if (!start)
        rip__fatal("pthread_create: a null start routine");
    return rip_posix_pthread_create_extern(thread, attr, NULL, start, arg);
}

/* pthread_join: parked until the thread ends (it readies the joiner). */
struct join_frame {
    rip_frame hdr;
    int result;                     /* RIP_RESULT slot */
    pthread_t id;                   /* the thread */
    void **retval;                  /* where its value goes, or NULL */
    rip_pxthread *th;               /* its record, once found */
};

static int join_resume(rip_frame *f, rip_frame *done) {
    struct join_frame *F = (struct join_frame *)f;
    (void)done;
    if (f->state == 0) {
        int r = rip__px_join_begin(F->id, &F->th);
        if (r == RIP_WAIT) {
            suspend(f, 1);
            return 0;
        }
        if (r != 0) {
            F->result = r;
            return 1;
        }
    }
    void *v = rip__px_join_end(F->th);
    if (F->retval)
        *F->retval = v;
    F->result = 0;
    return 1;
}

rip_frame *rip__new_rip_posix_pthread_join(pthread_t id, void **retval) {
    struct join_frame *F = rip__frame_alloc(sizeof *F, join_resume);
    F->id = id;
    F->retval = retval;
    return &F->hdr;
}

/* pthread_exit: first a yield, so that every caller links its frame and
 * unwinds (a frame's parent is set when it suspends); resumed, the thread
 * ends and the whole chain goes. */
struct exit_frame {
    rip_frame hdr;
    void *value;                    /* the thread's value */
};

static int exit_resume(rip_frame *f, rip_frame *done) {
    struct exit_frame *F = (struct exit_frame *)f;
    (void)done;
    if (f->state == 0) {
        f->state = 1;
        return rip__yield_in(f);
    }
    rip__px_thread_end(rip__px_self(), F->value);
    rip__task_exit(f);
    return 0;
}

rip_frame *rip__new_rip_posix_pthread_exit(void *retval) {
    struct exit_frame *F = rip__frame_alloc(sizeof *F, exit_resume);
    F->value = retval;
    return &F->hdr;
}

/* Mutex lock, plain or until an absolute time (the task's deadline for
 * the wait, the previous one restored after). */
struct lock_frame {
    rip_frame hdr;
    int result;                     /* RIP_RESULT slot */
    pthread_mutex_t *m;             /* the user's mutex */
    const struct timespec *abstime; /* timedlock's, else NULL */
    int64_t saved;                  /* the task's deadline before, while a timed wait runs */
    rip_waiter w;                   /* our place among the mutex's waiters */
};

static int lock_resume(rip_frame *f, rip_frame *done) {
    struct lock_frame *F = (struct lock_frame *)f;
    (void)done;
    int r, err;
    if (f->state == 0) {
        rip_mutex *rm = rip__px_mutex(F->m, &err);
        if (!rm) {
            F->result = err;
            return 1;
        }
        if (F->abstime) {
            int64_t at;
            if (rip_mutex_trylock(rm) == 0) {
                F->result = 0;
                return 1;
            }
            if ((err = rip__px_abstime_ms(F->abstime, CLOCK_REALTIME, &at)) != 0) {
                F->result = err;
                return 1;
            }
            F->saved = rip_set_deadline(at);
            if (F->saved >= 0 && F->saved < at)
                rip_set_deadline(F->saved);
        }
        r = rip__mutex_lock(rm, &F->w);
        if (r == RIP_WAIT) {
            suspend(f, 1);
            return 0;
        }
    } else {
        r = rip__mutex_locked(&F->w);
    }
    if (F->abstime)
        rip_set_deadline(F->saved);
    F->result = r == 0 ? 0 : errno;
    return 1;
}

static rip_frame *lock_frame(pthread_mutex_t *m, const struct timespec *abstime) {
    struct lock_frame *F = rip__frame_alloc(sizeof *F, lock_resume);
    F->m = m;
    F->abstime = abstime;
    return &F->hdr;
}

rip_frame *rip__new_rip_posix_pthread_mutex_lock(pthread_mutex_t *m) {
    return lock_frame(m, NULL);
}

rip_frame *rip__new_rip_posix_pthread_mutex_timedlock(pthread_mutex_t *m,
                                                     const struct timespec *abstime) {
    return lock_frame(m, abstime);
}

/* Condition wait, plain or until an absolute time on the cond's clock. */
struct condwait_frame {
    rip_frame hdr;
    int result;                     /* RIP_RESULT slot */
    pthread_cond_t *c;              /* the user's condition variable */
    pthread_mutex_t *m;             /* and mutex */
    const struct timespec *abstime; /* timedwait's, else NULL */
    int64_t saved;                  /* the task's deadline before, while a timed wait runs */
    rip_condop op;                  /* the wait in progress */
};

static int condwait_resume(rip_frame *f, rip_frame *done) {
    struct condwait_frame *F = (struct condwait_frame *)f;
    (void)done;
    int err;
    if (f->state == 0) {
        rip_cond *rc = rip__px_cond(F->c, &err);
        rip_mutex *rm = rc ? rip__px_mutex(F->m, &err) : NULL;
        if (!rm) {
            F->result = err;
            return 1;
        }
        F->op = (rip_condop){ .c = rc, .m = rm };
        if (F->abstime) {
            int64_t at;
            if ((err = rip__px_abstime_ms(F->abstime, rip__px_cond_clock(F->c), &at)) != 0) {
                F->result = err;
                return 1;
            }
            F->saved = rip_set_deadline(at);
            if (F->saved >= 0 && F->saved < at)
                rip_set_deadline(F->saved);
        }
        f->state = 1;
    }
    if (!rip__cond_step(&F->op)) {
        suspend(f, 1);
        return 0;
    }
    if (F->abstime)
        rip_set_deadline(F->saved);
    F->result = F->op.result == 0 ? 0 : F->op.err;
    return 1;
}

static rip_frame *condwait_frame(pthread_cond_t *c, pthread_mutex_t *m,
                                 const struct timespec *abstime) {
    struct condwait_frame *F = rip__frame_alloc(sizeof *F, condwait_resume);
    F->c = c;
    F->m = m;
    F->abstime = abstime;
    return &F->hdr;
}

rip_frame *rip__new_rip_posix_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
    return condwait_frame(c, m, NULL);
}

rip_frame *rip__new_rip_posix_pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
                                                    const struct timespec *abstime) {
    return condwait_frame(c, m, abstime);
}

/* The waits called from a plain function (one the program passes as a
 * plain pointer: a comparator, a handler table's, a destructor), which
 * cannot suspend: the other tasks run from inside this one
 * (rip__sched_nested) until the wait ends, as the run-time catch does for
 * a system call (catch.c).  A wait that could never end (on a task that
 * itself waits in plain code further down this C stack, or in a signal
 * handler, which runs inside the code it interrupts) is a fatal error
 * with a message instead of a hang. */
static __attribute__((noreturn)) void never_ends(const char *call, const char *why) {
    rip__fatal("%s in a plain function (one called through a pointer) %s: it could never "
               "return; call the function by name from the thread", call, why);
}

/* Outside any task (a constructor, a destructor after main): no other
 * task could end the wait. */
static void outside_task(const char *call) {
    if (!rip__current())
        rip__fatal("%s would wait outside any task (a constructor or destructor): nothing "
                   "could end the wait", call);
}

/* A timed wait's abstime as a rip_now_ms() time: 0, or EINVAL. */
static int nested_at(const struct timespec *abstime, clockid_t clock, int64_t *at) {
    *at = -1;
    return abstime ? rip__px_abstime_ms(abstime, clock, at) : 0;
}

int rip_posix_pthread_mutex_lock(pthread_mutex_t *m) {
    return rip_posix_pthread_mutex_timedlock(m, NULL);
}

/* abstime NULL: pthread_mutex_lock. */
int rip_posix_pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abstime) {
    int err;
    if (!rip__current()) {          /* a constructor's, a destructor's: never waits */
        rip_mutex *rm = rip__px_mutex(m, &err);
        if (!rm)
            return err;
        return rip__mutex_outside(rm, RIP__LOCK) == 0 ? 0 : errno;
    }
    int r = rip_posix_pthread_mutex_trylock(m);
    if (r != EBUSY)
        return r;
    rip_mutex *rm = rip__px_mutex(m, &err);
    if (!rm)
        return err;
    int64_t at;
    if ((err = nested_at(abstime, CLOCK_REALTIME, &at)) != 0)
        return err;                 /* EINVAL, only once it would wait (as glibc's) */
    return rip__mutex_lock_nested(rm, at) == 0 ? 0 : errno;   /* EDEADLK, ETIMEDOUT */
}

/* abstime NULL: pthread_cond_wait. */
int rip_posix_pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
                                     const struct timespec *abstime) {
    int err;
    const char *call = abstime ? "pthread_cond_timedwait" : "pthread_cond_wait";
    outside_task(call);
    rip_cond *rc = rip__px_cond(c, &err);
    rip_mutex *rm = rc ? rip__px_mutex(m, &err) : NULL;
    if (!rm)
        return err;
    int64_t at;
    if ((err = nested_at(abstime, rip__px_cond_clock(c), &at)) != 0)
        return err;
    rip_condop op = { .c = rc, .m = rm };
    return rip__cond_wait_nested(&op, at);
}

int rip_posix_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
    return rip_posix_pthread_cond_timedwait(c, m, NULL);
}

int rip_posix_pthread_join(pthread_t id, void **retval) {
    rip_pxthread *th;
    int r = rip__px_join_begin(id, &th);
    if (r == RIP_WAIT) {
        outside_task("pthread_join");
        if (rip__in_signal_handler())
            never_ends("pthread_join", "waits in a signal handler, which runs inside the code "
                       "it interrupts");
        if (rip__nested_below(th->task))
            never_ends("pthread_join", "would wait for a thread that itself waits in a plain "
                       "function further down");
        rip__park("pthread_join");  /* until the thread's end readies it */
        r = 0;
    }
    if (r != 0)
        return r;
    void *v = rip__px_join_end(th);
    if (retval)
        *retval = v;
    return 0;
}

/* The thread ends here: its value to its joiner, its keys' destructors
 * run, then its task ends (rip__task_gone) and the scheduler loop that
 * ran it goes on. */
void rip_posix_pthread_exit(void *retval) {
    if (!rip__current())
        rip__fatal("pthread_exit outside any task (a constructor or destructor)");
    if (rip__in_signal_handler())
        rip__fatal("pthread_exit in a signal handler on the rip backend: the handler runs "
                   "inside the code it interrupts, which cannot be left there; set a flag "
                   "and end the thread in its own code");
    rip__px_thread_end(rip__px_self(), retval);
    rip__task_gone();
}

/* Read or write lock of a rwlock, plain or until an absolute
 * CLOCK_REALTIME time. */
struct rwlock_frame {
    rip_frame hdr;
    int result;                     /* RIP_RESULT slot */
    pthread_rwlock_t *l;            /* the user's rwlock */
    int write;                      /* 1 write lock, 0 read lock */
    const struct timespec *abstime; /* the timed calls', else NULL */
    int64_t saved;                  /* the task's deadline before, while a timed wait runs */
    rip_waiter w;                   /* our place among the lock's waiters */
};

static int rwlock_resume(rip_frame *f, rip_frame *done) {
    struct rwlock_frame *F = (struct rwlock_frame *)f;
    (void)done;
    int r, err;
    if (f->state == 0) {
        rip_pxrwlock *rw = rip__px_rwlock(F->l, &err);
        if (!rw) {
            F->result = err;
            return 1;
        }
        if ((r = rip__px_rw_try(rw, F->write)) != EBUSY) {
            F->result = r;
            return 1;
        }
        if (F->abstime) {
            int64_t at;
            if ((err = rip__px_abstime_ms(F->abstime, CLOCK_REALTIME, &at)) != 0) {
                F->result = err;
                return 1;
            }
            F->saved = rip_set_deadline(at);
            if (F->saved >= 0 && F->saved < at)
                rip_set_deadline(F->saved);
        }
        r = rip__px_rw_wait(rw, F->write, &F->w);
        if (r == RIP_WAIT) {
            suspend(f, 1);
            return 0;
        }
    } else {
        r = rip__px_rw_waited(&F->w);
    }
    if (F->abstime)
        rip_set_deadline(F->saved);
    F->result = r;
    return 1;
}

static rip_frame *rwlock_frame(pthread_rwlock_t *l, int write, const struct timespec *abstime) {
    struct rwlock_frame *F = rip__frame_alloc(sizeof *F, rwlock_resume);
    F->l = l;
    F->write = write;
    F->abstime = abstime;
    return &F->hdr;
}

rip_frame *rip__new_rip_posix_pthread_rwlock_rdlock(pthread_rwlock_t *l) {
    return rwlock_frame(l, 0, NULL);
}

rip_frame *rip__new_rip_posix_pthread_rwlock_wrlock(pthread_rwlock_t *l) {
    return rwlock_frame(l, 1, NULL);
}

rip_frame *rip__new_rip_posix_pthread_rwlock_timedrdlock(pthread_rwlock_t *l,
                                                        const struct timespec *abstime) {
    return rwlock_frame(l, 0, abstime);
}

rip_frame *rip__new_rip_posix_pthread_rwlock_timedwrlock(pthread_rwlock_t *l,
                                                        const struct timespec *abstime) {
    return rwlock_frame(l, 1, abstime);
}

/* ... and called from a plain function: the other tasks run nested until
 * it is granted or abstime (CLOCK_REALTIME) passes. */
static int rwlock_plain(pthread_rwlock_t *l, int write, const struct timespec *abstime,
                        const char *call) {
    int err;
    rip_pxrwlock *rw = rip__px_rwlock(l, &err);
    if (!rw)
        return err;
    int r = rip__px_rw_try(rw, write);
    if (r != EBUSY)
        return r;
    outside_task(call);
    if (rip__in_signal_handler())
        never_ends(call, "waits in a signal handler, which runs inside the code it interrupts");
    int64_t at;
    if ((err = nested_at(abstime, CLOCK_REALTIME, &at)) != 0)
        return err;
    if (at < 0 && rip__nested_below(rip__px_rw_writer(rw)))
        never_ends(call, "would wait for a writer that itself waits in a plain function "
                   "further down");
    int64_t saved = rip_set_deadline(-1);   /* untimed: as POSIX's, no limit */
    if (at >= 0)
        rip_set_deadline(saved >= 0 && saved < at ? saved : at);
    rip_waiter w;
    r = rip__px_rw_wait(rw, write, &w);
    if (r == RIP_WAIT) {
        rip__park(call);            /* until a grant or the deadline readies it */
        r = rip__px_rw_waited(&w);
    }
    rip_set_deadline(saved);
    return r;
}

int rip_posix_pthread_rwlock_rdlock(pthread_rwlock_t *l) {
    return rwlock_plain(l, 0, NULL, "pthread_rwlock_rdlock");
}

int rip_posix_pthread_rwlock_wrlock(pthread_rwlock_t *l) {
    return rwlock_plain(l, 1, NULL, "pthread_rwlock_wrlock");
}

int rip_posix_pthread_rwlock_timedrdlock(pthread_rwlock_t *l, const struct timespec *abstime) {
    return rwlock_plain(l, 0, abstime, "pthread_rwlock_timedrdlock");
}

int rip_posix_pthread_rwlock_timedwrlock(pthread_rwlock_t *l, const struct timespec *abstime) {
    return rwlock_plain(l, 1, abstime, "pthread_rwlock_timedwrlock");
}

/* pthread_once: an init routine is a plain function on rip (it was passed
 * as a plain pointer), so it never suspends: one found running is being
 * re-entered from itself, which glibc's would wait on for good. */
int rip_posix_pthread_once(pthread_once_t *once, void (*init)(void)) {
    int r = rip__px_once_begin(once);
    if (r == RIP_WAIT)
        rip__fatal("pthread_once called again from its own init routine");
    if (r == 1) {
        init();
        rip__px_once_end(once);
    }
    return 0;
}

RIP__RUNTIME_FRAME(thread_resume, "a thread start routine");
RIP__RUNTIME_FRAME(plain_thread_resume, "a plain thread start routine");
RIP__RUNTIME_FRAME(join_resume, "pthread_join");
RIP__RUNTIME_FRAME(exit_resume, "pthread_exit");
RIP__RUNTIME_FRAME(lock_resume, "pthread_mutex_lock");
RIP__RUNTIME_FRAME(condwait_resume, "pthread_cond_wait");
RIP__RUNTIME_FRAME(rwlock_resume, "a read-write lock");

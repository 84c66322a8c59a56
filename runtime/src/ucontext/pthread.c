/* pthread.c -- pthreads as tasks on the ucontext backend, and the
 * link-time wrappers of `ripcc --posix --backend=ucontext`
 * (-Wl,--wrap=pthread_create...): inside a task __wrap_NAME is
 * rip_posix_NAME (a green task, a task mutex); outside one (before the
 * first task, on an offload thread) the C library's NAME.  What never
 * waits is core/pthread.c's. */
#define _GNU_SOURCE
#include <errno.h>
#include "pxthread.h"
#include "uc.h"
#include "rip_posix.h"

#define IN_TASK (rip__current() != NULL)

static void thread_main(void *arg) {
    rip__px_thread_run_plain(arg);
}

int rip_posix_pthread_create(pthread_t *thread, const pthread_attr_t *attr,
                             rip_posix_start_fn *start, void *arg) {
    int err;
    rip_pxthread *th = rip__px_thread_create(thread, attr, (void *)start, arg, &err);
    if (!th)
        return err;
    rip_spawn(thread_main, th);
    return 0;
}

int rip_posix_pthread_join(pthread_t id, void **retval) {
    rip_pxthread *th;
    int r = rip__px_join_begin(id, &th);
    if (r == RIP_WAIT)
        rip__uc_park();             /* the thread's end readies us */
    else if (r != 0)
        return r;
    void *v = rip__px_join_end(th);
    if (retval)
        *retval = v;
    return 0;
}

void rip_posix_pthread_exit(void *retval) {
    rip__px_thread_end(rip__px_self(), retval);
    rip__uc_exit();
}

/* The task's deadline at `at` for one wait: the earlier of it and the
 * task's own; the previous one returned, to restore. */
static int64_t deadline_for_wait(int64_t at) {
    int64_t saved = rip_set_deadline(at);
    if (saved >= 0 && saved < at)
        rip_set_deadline(saved);
    return saved;
}

int rip_posix_pthread_mutex_lock(pthread_mutex_t *m) {
    int err;
    rip_mutex *rm = rip__px_mutex(m, &err);
    if (!rm)
        return err;
    return rip_mutex_lock(rm) == 0 ? 0 : errno;
}

int rip_posix_pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *abstime) {
    int err;
    int64_t at;
    rip_mutex *rm = rip__px_mutex(m, &err);
    if (!rm)
        return err;
    if (rip_mutex_trylock(rm) == 0)
        return 0;
    if ((err = rip__px_abstime_ms(abstime, CLOCK_REALTIME, &at)) != 0)
        return err;
    int64_t saved = deadline_for_wait(at);
    int r = rip_mutex_lock(rm) == 0 ? 0 : errno;
    rip_set_deadline(saved);
    return r;
}

static int cond_wait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *abstime) {
    int err;
    int64_t at, saved = -1;
    rip_cond *rc = rip__px_cond(c, &err);
    rip_mutex *rm = rc ? rip__px_mutex(m, &err) : NULL;
    if (!rm)
        return err;
    if (abstime) {
        if ((err = rip__px_abstime_ms(abstime, rip__px_cond_clock(c), &at)) != 0)
            return err;
        saved = deadline_for_wait(at);
    }
    int r = rip_cond_wait(rc, rm) == 0 ? 0 : errno;
    if (abstime)
        rip_set_deadline(saved);
    return r;
}

int rip_posix_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
    return cond_wait(c, m, NULL);
}

int rip_posix_pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m,
                                     const struct timespec *abstime) {
    return cond_wait(c, m, abstime);
}

static int rwlock(pthread_rwlock_t *l, int write, const struct timespec *abstime) {
    int err;
    int64_t at, saved = -1;
    rip_pxrwlock *rw = rip__px_rwlock(l, &err);
    if (!rw)
        return err;
    int r = rip__px_rw_try(rw, write);
    if (r != EBUSY)
        return r;
    if (abstime) {
        if ((err = rip__px_abstime_ms(abstime, CLOCK_REALTIME, &at)) != 0)
            return err;
        saved = deadline_for_wait(at);
    }
    rip_waiter w;
    r = rip__px_rw_wait(rw, write, &w);
    if (r == RIP_WAIT) {
        rip__uc_park();
        r = rip__px_rw_waited(&w);
    }
    if (abstime)
        rip_set_deadline(saved);
    return r;
}

int rip_posix_pthread_rwlock_rdlock(pthread_rwlock_t *l) { return rwlock(l, 0, NULL); }
int rip_posix_pthread_rwlock_wrlock(pthread_rwlock_t *l) { return rwlock(l, 1, NULL); }
int rip_posix_pthread_rwlock_timedrdlock(pthread_rwlock_t *l, const struct timespec *at) {
    return rwlock(l, 0, at);
}
int rip_posix_pthread_rwlock_timedwrlock(pthread_rwlock_t *l, const struct timespec *at) {
    return rwlock(l, 1, at);
}

/* pthread_once: an init routine may suspend here (it runs on the task's
 * stack): another task's call waits for it, yielding, as glibc's would
 * wait on its futex. */
int rip_posix_pthread_once(pthread_once_t *once, void (*init)(void)) {
    int r;
    while ((r = rip__px_once_begin(once)) == RIP_WAIT)
        rip_yield();
    if (r == 1) {
        init();
        rip__px_once_end(once);
    }
    return 0;
}

/* The wrappers.  __real_NAME is the C library's NAME, resolved by the
 * linker under --wrap=NAME; weak, as in posix.c. */
#define REAL __attribute__((weak))
REAL int __real_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
REAL int __real_pthread_join(pthread_t, void **);
REAL void __real_pthread_exit(void *) __attribute__((noreturn));
REAL int __real_pthread_detach(pthread_t);
REAL pthread_t __real_pthread_self(void);
REAL int __real_pthread_equal(pthread_t, pthread_t);
REAL int __real_pthread_mutex_init(pthread_mutex_t *, const pthread_mutexattr_t *);
REAL int __real_pthread_mutex_destroy(pthread_mutex_t *);
REAL int __real_pthread_mutex_lock(pthread_mutex_t *);
REAL int __real_pthread_mutex_timedlock(pthread_mutex_t *, const struct timespec *);
REAL int __real_pthread_mutex_trylock(pthread_mutex_t *);
REAL int __real_pthread_mutex_unlock(pthread_mutex_t *);
REAL int __real_pthread_cond_init(pthread_cond_t *, const pthread_condattr_t *);
REAL int __real_pthread_cond_destroy(pthread_cond_t *);
REAL int __real_pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *);
REAL int __real_pthread_cond_timedwait(pthread_cond_t *, pthread_mutex_t *, const struct timespec *);
REAL int __real_pthread_cond_signal(pthread_cond_t *);
REAL int __real_pthread_cond_broadcast(pthread_cond_t *);
REAL int __real_pthread_key_create(pthread_key_t *, void (*)(void *));
REAL int __real_pthread_key_delete(pthread_key_t);
REAL void *__real_pthread_getspecific(pthread_key_t);
REAL int __real_pthread_rwlock_init(pthread_rwlock_t *, const pthread_rwlockattr_t *);
REAL int __real_pthread_rwlock_destroy(pthread_rwlock_t *);
REAL int __real_pthread_rwlock_rdlock(pthread_rwlock_t *);
REAL int __real_pthread_rwlock_wrlock(pthread_rwlock_t *);
REAL int __real_pthread_rwlock_timedrdlock(pthread_rwlock_t *, const struct timespec *);
REAL int __real_pthread_rwlock_timedwrlock(pthread_rwlock_t *, const struct timespec *);
REAL int __real_pthread_rwlock_tryrdlock(pthread_rwlock_t *);
REAL int __real_pthread_rwlock_trywrlock(pthread_rwlock_t *);
REAL int __real_pthread_rwlock_unlock(pthread_rwlock_t *);
REAL int __real_pthread_once(pthread_once_t *, void (*)(void));
REAL int __real_pthread_setspecific(pthread_key_t, const void *);
REAL int __real_pthread_kill(pthread_t, int);

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg) {
    return IN_TASK ? rip_posix_pthread_create(t, a, fn, arg) : __real_pthread_create(t, a, fn, arg);
}

int __wrap_pthread_join(pthread_t t, void **v) {
    return IN_TASK ? rip_posix_pthread_join(t, v) : __real_pthread_join(t, v);
}

void __wrap_pthread_exit(void *v) {
    if (IN_TASK)
        rip_posix_pthread_exit(v);
    __real_pthread_exit(v);
}

int __wrap_pthread_detach(pthread_t t) {
    return IN_TASK ? rip_posix_pthread_detach(t) : __real_pthread_detach(t);
}

int __wrap_pthread_kill(pthread_t t, int sig) {
    return IN_TASK ? rip_posix_pthread_kill(t, sig) : __real_pthread_kill(t, sig);
}

pthread_t __wrap_pthread_self(void) {
    return IN_TASK ? rip_posix_pthread_self() : __real_pthread_self();
}

int __wrap_pthread_equal(pthread_t a, pthread_t b) {
    return a == b;
}

int __wrap_pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *a) {
    return IN_TASK ? rip_posix_pthread_mutex_init(m, a) : __real_pthread_mutex_init(m, a);
}

int __wrap_pthread_mutex_destroy(pthread_mutex_t *m) {
    return IN_TASK ? rip_posix_pthread_mutex_destroy(m) : __real_pthread_mutex_destroy(m);
}

int __wrap_pthread_mutex_lock(pthread_mutex_t *m) {
    return IN_TASK ? rip_posix_pthread_mutex_lock(m) : __real_pthread_mutex_lock(m);
}

int __wrap_pthread_mutex_timedlock(pthread_mutex_t *m, const struct timespec *at) {
    return IN_TASK ? rip_posix_pthread_mutex_timedlock(m, at)
                   : __real_pthread_mutex_timedlock(m, at);
}

int __wrap_pthread_mutex_trylock(pthread_mutex_t *m) {
    return IN_TASK ? rip_posix_pthread_mutex_trylock(m) : __real_pthread_mutex_trylock(m);
}

int __wrap_pthread_mutex_unlock(pthread_mutex_t *m) {
    return IN_TASK ? rip_posix_pthread_mutex_unlock(m) : __real_pthread_mutex_unlock(m);
}

int __wrap_pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *a) {
    return IN_TASK ? rip_posix_pthread_cond_init(c, a) : __real_pthread_cond_init(c, a);
}

int __wrap_pthread_cond_destroy(pthread_cond_t *c) {
    return IN_TASK ? rip_posix_pthread_cond_destroy(c) : __real_pthread_cond_destroy(c);
}

int __wrap_pthread_cond_wait(pthread_cond_t *c, pthread_mutex_t *m) {
    return IN_TASK ? rip_posix_pthread_cond_wait(c, m) : __real_pthread_cond_wait(c, m);
}

int __wrap_pthread_cond_timedwait(pthread_cond_t *c, pthread_mutex_t *m, const struct timespec *at) {
    return IN_TASK ? rip_posix_pthread_cond_timedwait(c, m, at)
                   : __real_pthread_cond_timedwait(c, m, at);
}

int __wrap_pthread_cond_signal(pthread_cond_t *c) {
    return IN_TASK ? rip_posix_pthread_cond_signal(c) : __real_pthread_cond_signal(c);
}

int __wrap_pthread_cond_broadcast(pthread_cond_t *c) {
    return IN_TASK ? rip_posix_pthread_cond_broadcast(c) : __real_pthread_cond_broadcast(c);
}

int __wrap_pthread_key_create(pthread_key_t *k, void (*d)(void *)) {
    return IN_TASK ? rip_posix_pthread_key_create(k, d) : __real_pthread_key_create(k, d);
}

int __wrap_pthread_key_delete(pthread_key_t k) {
    return IN_TASK ? rip_posix_pthread_key_delete(k) : __real_pthread_key_delete(k);
}

void *__wrap_pthread_getspecific(pthread_key_t k) {
    return IN_TASK ? rip_posix_pthread_getspecific(k) : __real_pthread_getspecific(k);
}

int __wrap_pthread_setspecific(pthread_key_t k, const void *v) {
    return IN_TASK ? rip_posix_pthread_setspecific(k, v) : __real_pthread_setspecific(k, v);
}

int __wrap_pthread_rwlock_init(pthread_rwlock_t *l, const pthread_rwlockattr_t *a) {
    return IN_TASK ? rip_posix_pthread_rwlock_init(l, a) : __real_pthread_rwlock_init(l, a);
}

int __wrap_pthread_rwlock_destroy(pthread_rwlock_t *l) {
    return IN_TASK ? rip_posix_pthread_rwlock_destroy(l) : __real_pthread_rwlock_destroy(l);
}

int __wrap_pthread_rwlock_rdlock(pthread_rwlock_t *l) {
    return IN_TASK ? rip_posix_pthread_rwlock_rdlock(l) : __real_pthread_rwlock_rdlock(l);
}

int __wrap_pthread_rwlock_wrlock(pthread_rwlock_t *l) {
    return IN_TASK ? rip_posix_pthread_rwlock_wrlock(l) : __real_pthread_rwlock_wrlock(l);
}

int __wrap_pthread_rwlock_timedrdlock(pthread_rwlock_t *l, const struct timespec *at) {
    return IN_TASK ? rip_posix_pthread_rwlock_timedrdlock(l, at)
                   : __real_pthread_rwlock_timedrdlock(l, at);
}

int __wrap_pthread_rwlock_timedwrlock(pthread_rwlock_t *l, const struct timespec *at) {
    return IN_TASK ? rip_posix_pthread_rwlock_timedwrlock(l, at)
                   : __real_pthread_rwlock_timedwrlock(l, at);
}

int __wrap_pthread_rwlock_tryrdlock(pthread_rwlock_t *l) {
    return IN_TASK ? rip_posix_pthread_rwlock_tryrdlock(l) : __real_pthread_rwlock_tryrdlock(l);
}

int __wrap_pthread_rwlock_trywrlock(pthread_rwlock_t *l) {
    return IN_TASK ? rip_posix_pthread_rwlock_trywrlock(l) : __real_pthread_rwlock_trywrlock(l);
}

int __wrap_pthread_rwlock_unlock(pthread_rwlock_t *l) {
    return IN_TASK ? rip_posix_pthread_rwlock_unlock(l) : __real_pthread_rwlock_unlock(l);
}

int __wrap_pthread_once(pthread_once_t *o, void (*init)(void)) {
    return IN_TASK ? rip_posix_pthread_once(o, init) : __real_pthread_once(o, init);
}

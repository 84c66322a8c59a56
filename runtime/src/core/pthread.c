/* pthread.c -- pthreads as tasks for the rip and ucontext backends
 * (`ripper --posix`, issue 22): thread records, pthread_t values, the
 * mutex and condition-variable objects behind the user's pthread_mutex_t
 * and pthread_cond_t, and thread-specific data.  Nothing here waits: the
 * backends' pthread.c do the waiting (pxthread.h).
 *
 * pthread_t: a slot of the scheduler's thread table and a generation,
 * slot | generation << 24, so a stale pthread_t (a thread joined or
 * detached and gone) is told from the slot's next thread (ESRCH), and a
 * value is a plain integer the program can store, compare and print.
 * The current task's thread is found in a hash table keyed by task (as
 * deadlines are, deadline.c): a task pays nothing for it until it asks. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <string.h>
#include "pxthread.h"

#define SLOT_BITS 24
#define SLOT_MASK ((1u << SLOT_BITS) - 1)

static __thread struct {
    rip_pxthread **rec;             /* thread of each slot, NULL when free */
    uint64_t *gen;                  /* generation of each slot (its next thread's) */
    size_t cap;                     /* slots */
    size_t *free_slots;             /* freed slots, reused last-freed first */
    size_t nfree;                   /* their number */
    size_t used;                    /* slots ever handed out */
} P;

static __thread struct {
    rip_task **keys;                /* NULL = empty slot */
    rip_pxthread **values;          /* each task's thread */
    size_t cap;                     /* slots, a power of two */
    size_t count;                   /* tasks mapped */
} H;

/* -- the task -> thread table (open addressing, linear probing) -- */

static size_t h_slot(const rip_task *t) {
    uintptr_t h = (uintptr_t)t;
    h ^= h >> 17;
    h *= 0x9E3779B97F4A7C15u;
    return (size_t)(h >> 20) & (H.cap - 1);
}

static size_t h_find(const rip_task *t) {
    size_t i = h_slot(t);
    while (H.keys[i] && H.keys[i] != t)
        i = (i + 1) & (H.cap - 1);
    return i;
}

static void h_grow(void) {
    rip_task **keys = H.keys;
    rip_pxthread **values = H.values;
    size_t cap = H.cap;
    H.cap = cap ? 2 * cap : 64;
    H.keys = calloc(H.cap, sizeof *H.keys);
    H.values = malloc(H.cap * sizeof *H.values);
    if (!H.keys || !H.values)
        rip__fatal("out of memory for threads");
    for (size_t i = 0; i < cap; i++) {
        if (keys[i]) {
            size_t j = h_find(keys[i]);
            H.keys[j] = keys[i];
            H.values[j] = values[i];
        }
    }
    free(keys);
    free(values);
}

__thread int rip__px_errno_on;

static void h_put(rip_task *t, rip_pxthread *th) {
    rip__px_errno_on = 1;           /* for good: the loop keeps each thread's errno */
    if (2 * (H.count + 1) > H.cap)
        h_grow();
    size_t i = h_find(t);
    if (!H.keys[i])
        H.count++;
    H.keys[i] = t;
    H.values[i] = th;
}

static rip_pxthread *h_get(const rip_task *t) {
    if (!H.count)
        return NULL;
    size_t i = h_find(t);
    return H.keys[i] ? H.values[i] : NULL;
}

int *rip__px_errno_slot(const rip_task *t) {
    rip_pxthread *th = h_get(t);
    return th ? &th->err : NULL;
}

static void h_del(const rip_task *t) {
    if (!H.count)
        return;
    size_t i = h_find(t);
    if (!H.keys[i])
        return;
    H.keys[i] = NULL;
    H.count--;
    /* shift the run after i back: no tombstones */
    for (size_t j = (i + 1) & (H.cap - 1); H.keys[j]; j = (j + 1) & (H.cap - 1)) {
        rip_task *k = H.keys[j];
        rip_pxthread *v = H.values[j];
        H.keys[j] = NULL;
        size_t to = h_find(k);
        H.keys[to] = k;
        H.values[to] = v;
    }
}

/* -- thread records -- */

static rip_pxthread *record_new(int *err) {
    size_t slot;
    if (P.nfree) {
        slot = P.free_slots[--P.nfree];
    } else {
        if (P.used == P.cap) {
            size_t cap = P.cap ? 2 * P.cap : 64;
            if (cap > SLOT_MASK + 1u) {
                *err = EAGAIN;
                return NULL;
            }
            rip_pxthread **rec = realloc(P.rec, cap * sizeof *rec);
            if (rec)
                P.rec = rec;
            uint64_t *gen = realloc(P.gen, cap * sizeof *gen);
            if (gen)
                P.gen = gen;
            size_t *fs = realloc(P.free_slots, cap * sizeof *fs);
            if (fs)
                P.free_slots = fs;
            if (!rec || !gen || !fs) {
                *err = EAGAIN;
                return NULL;
            }
            P.cap = cap;
        }
        slot = P.used++;
        P.gen[slot] = 1;
    }
    rip_pxthread *th = calloc(1, sizeof *th);
    if (!th) {
        P.free_slots[P.nfree++] = slot;
        *err = EAGAIN;
        return NULL;
    }
    th->id = (pthread_t)(slot | (P.gen[slot] << SLOT_BITS));
    P.rec[slot] = th;
    return th;
}

static void tls_free(rip_pxthread *th);

static void record_free(rip_pxthread *th) {
    size_t slot = (size_t)(th->id & SLOT_MASK);
    P.rec[slot] = NULL;
    P.gen[slot]++;
    P.free_slots[P.nfree++] = slot;
    free(th->specific);
    tls_free(th);
    free(th);
}

static rip_pxthread *lookup(pthread_t id) {
    size_t slot = (size_t)(id & SLOT_MASK);
    if (slot >= P.used || !P.rec[slot] || P.rec[slot]->id != id)
        return NULL;
    return P.rec[slot];
}

rip_pxthread *rip__px_thread_new(const pthread_attr_t *attr, void *start, void *arg, int *err) {
    int detach = PTHREAD_CREATE_JOINABLE;
    if (attr && pthread_attr_getdetachstate(attr, &detach) != 0) {
        *err = EINVAL;
        return NULL;
    }
    rip_pxthread *th = record_new(err);
    if (!th)
        return NULL;
    th->detached = detach == PTHREAD_CREATE_DETACHED;
    th->start = start;
    th->arg = arg;
    return th;
}

rip_pxthread *rip__px_thread_create(pthread_t *thread, const pthread_attr_t *attr, void *start,
                                    void *arg, int *err) {
    rip__px_self();                 /* the creator too has a record: its errno is kept */
    rip_pxthread *th = rip__px_thread_new(attr, start, arg, err);
    if (th)
        *thread = th->id;
    return th;
}

void rip__px_thread_run_plain(rip_pxthread *th) {
    rip__px_thread_begin(th);
    errno = 0;                      /* a new thread's, as glibc's */
    void *(*start)(void *) = (void *(*)(void *))th->start;
    rip__px_thread_end(th, start(th->arg));
}

void rip__px_thread_begin(rip_pxthread *th) {
    th->task = rip__current();
    h_put(th->task, th);
}

/* The last task asked for and its thread: a thread-local's uses come in
 * runs by one task. */
static __thread struct {
    rip_task *task;                 /* NULL: none */
    rip_pxthread *th;
} last;

rip_pxthread *rip__px_self(void) {
    rip_task *t = rip__current();
    if (!t)
        rip__outside_task("pthread_self");
    if (t == last.task)
        return last.th;
    rip_pxthread *th = h_get(t);
    if (th) {
        last.task = t;
        last.th = th;
        return th;
    }
    int err;
    th = record_new(&err);
    if (!th)
        rip__fatal("out of memory for a thread");
    rip__px_thread_begin(th);       /* main, or a task rip_spawn made: joinable, as main is */
    return th;
}

static void run_destructors(rip_pxthread *th);

static void thread_end(rip_pxthread *th, void *retval, int destructors) {
    if (destructors)
        run_destructors(th);
    tls_free(th);                   /* after the destructors, which may use them */
    if (last.task == th->task)
        last.task = NULL;
    h_del(th->task);
    th->task = NULL;
    th->ended = 1;
    th->retval = retval;
    if (th->joiner) {
        rip__ready(th->joiner);
        th->joiner = NULL;
    } else if (th->detached) {
        record_free(th);
    }
}

void rip__px_thread_end(rip_pxthread *th, void *retval) {
    thread_end(th, retval, 1);
}

/* A task that ends without passing through rip__px_thread_end (one
 * rip_spawn made, which asked for pthread_self): its thread ends with it,
 * value NULL; no destructor runs (the task's stack, on ucontext, is gone). */
void rip__px_task_ended(rip_task *t) {
    rip_pxthread *th = h_get(t);
    if (th)
        thread_end(th, NULL, 0);
}

int rip__px_tasks_mapped(void) {
    return H.count != 0;
}

int rip__px_join_begin(pthread_t id, rip_pxthread **out) {
    rip_pxthread *th = lookup(id);
    if (!th)
        return ESRCH;
    if (th->detached || th->joiner)
        return EINVAL;              /* glibc: not joinable, or joined already */
    if (th->task && th->task == rip__current())
        return EDEADLK;
    *out = th;
    if (th->ended)
        return 0;
    th->joiner = rip__current();
    return RIP_WAIT;
}

void *rip__px_join_end(rip_pxthread *th) {
    void *v = th->retval;
    record_free(th);
    return v;
}

int rip__px_thread_task(pthread_t id, rip_task **task) {
    rip_pxthread *th = lookup(id);
    if (!th)
        return ESRCH;
    *task = th->task;
    return 0;
}

int rip_posix_pthread_detach(pthread_t id) {
    rip_pxthread *th = lookup(id);
    if (!th)
        return ESRCH;
    if (th->detached || th->joiner)
        return EINVAL;
    if (th->ended)
        record_free(th);
    else
        th->detached = 1;
    return 0;
}

pthread_t rip_posix_pthread_self(void) {
    return rip__px_self()->id;
}

int rip_posix_pthread_equal(pthread_t a, pthread_t b) {
    return a == b;
}

/* -- mutexes and condition variables -- */

/* glibc's pthread_mutex_t: __lock and __count (the first 8 bytes) are
 * where the rip_mutex pointer goes; __kind is read as a static
 * initializer (PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP...) left it. */
_Static_assert(sizeof(pthread_mutex_t) >= 2 * sizeof(void *), "room for the pointer");
_Static_assert(sizeof(pthread_cond_t) >= 2 * sizeof(void *), "room for the pointer and clock");
_Static_assert(sizeof(pthread_rwlock_t) >= sizeof(void *), "room for the pointer");

static void **slot_of(void *obj) {
    return (void **)obj;
}

static int kind_of(pthread_mutex_t *m) {
#ifdef __GLIBC__
    int k = m->__data.__kind & 3;   /* the type; higher bits: robust, pshared... */
#else
    int k = 0;
#endif
    return k == PTHREAD_MUTEX_RECURSIVE ? RIP_MUTEX_RECURSIVE :
           k == PTHREAD_MUTEX_ERRORCHECK ? RIP_MUTEX_ERRORCHECK : RIP_MUTEX_NORMAL;
}

rip_mutex *rip__px_mutex(pthread_mutex_t *m, int *err) {
    rip_mutex *rm = *slot_of(m);
    if (rm)
        return rm;
    rm = rip_mutex_new(kind_of(m));
    if (!rm) {
        *err = ENOMEM;
        return NULL;
    }
    *slot_of(m) = rm;
    return rm;
}

int rip_posix_pthread_mutex_init(pthread_mutex_t *m, const pthread_mutexattr_t *attr) {
    int type = PTHREAD_MUTEX_DEFAULT;
    if (attr && pthread_mutexattr_gettype(attr, &type) != 0)
        return EINVAL;
    rip_mutex *rm = rip_mutex_new(type == PTHREAD_MUTEX_RECURSIVE ? RIP_MUTEX_RECURSIVE :
                                  type == PTHREAD_MUTEX_ERRORCHECK ? RIP_MUTEX_ERRORCHECK :
                                  RIP_MUTEX_NORMAL);
    if (!rm)
        return ENOMEM;
    memset(m, 0, sizeof *m);
    *slot_of(m) = rm;
    return 0;
}

int rip_posix_pthread_mutex_destroy(pthread_mutex_t *m) {
    rip_mutex *rm = *slot_of(m);
    if (rm) {
        if (rip__mutex_busy(rm))
            return EBUSY;
        rip_mutex_free(rm);
        *slot_of(m) = NULL;
    }
    return 0;
}

int rip_posix_pthread_mutex_trylock(pthread_mutex_t *m) {
    int err;
    rip_mutex *rm = rip__px_mutex(m, &err);
    if (!rm)
        return err;
    if (!rip__current())            /* a constructor's, a destructor's */
        return rip__mutex_outside(rm, RIP__TRYLOCK) == 0 ? 0 : errno;
    return rip_mutex_trylock(rm) == 0 ? 0 : errno;
}

int rip_posix_pthread_mutex_unlock(pthread_mutex_t *m) {
    int err;
    rip_mutex *rm = rip__px_mutex(m, &err);
    if (!rm)
        return err;
    if (!rip__current())
        return rip__mutex_outside(rm, RIP__UNLOCK) == 0 ? 0 : errno;
    return rip_mutex_unlock(rm) == 0 ? 0 : errno;
}

rip_cond *rip__px_cond(pthread_cond_t *c, int *err) {
    rip_cond *rc = *slot_of(c);
    if (rc)
        return rc;
    rc = rip_cond_new();
    if (!rc) {
        *err = ENOMEM;
        return NULL;
    }
    *slot_of(c) = rc;
    return rc;
}

clockid_t rip__px_cond_clock(pthread_cond_t *c) {
    return ((clockid_t *)(void *)c)[2];  /* after the pointer: 0 (zeros) is CLOCK_REALTIME */
}

int rip_posix_pthread_cond_init(pthread_cond_t *c, const pthread_condattr_t *attr) {
    clockid_t clock = CLOCK_REALTIME;
    if (attr && pthread_condattr_getclock(attr, &clock) != 0)
        return EINVAL;
    rip_cond *rc = rip_cond_new();
    if (!rc)
        return ENOMEM;
    memset(c, 0, sizeof *c);
    *slot_of(c) = rc;
    ((clockid_t *)(void *)c)[2] = clock;
    return 0;
}

int rip_posix_pthread_cond_destroy(pthread_cond_t *c) {
    rip_cond *rc = *slot_of(c);
    if (rc) {
        if (rip__cond_busy(rc))
            return EBUSY;
        rip_cond_free(rc);
        *slot_of(c) = NULL;
    }
    return 0;
}

int rip_posix_pthread_cond_signal(pthread_cond_t *c) {
    int err;
    rip_cond *rc = rip__px_cond(c, &err);
    if (!rc)
        return err;
    rip_cond_signal(rc);
    return 0;
}

int rip_posix_pthread_cond_broadcast(pthread_cond_t *c) {
    int err;
    rip_cond *rc = rip__px_cond(c, &err);
    if (!rc)
        return err;
    rip_cond_broadcast(rc);
    return 0;
}

int rip__px_abstime_ms(const struct timespec *abstime, clockid_t clock, int64_t *at_ms) {
    if (abstime->tv_nsec < 0 || abstime->tv_nsec >= 1000000000)
        return EINVAL;
    struct timespec now;
    clock_gettime(clock, &now);
    int64_t left_ns = ((int64_t)abstime->tv_sec - (int64_t)now.tv_sec) * 1000000000 +
                      (abstime->tv_nsec - now.tv_nsec);
    int64_t now_ms = rip_now_ms();
    if (left_ns <= 0 || abstime->tv_sec < 0) {
        *at_ms = now_ms;            /* past already: a wait times out at once */
        return 0;
    }
    int64_t ms = left_ns / 1000000 + (left_ns % 1000000 != 0);
    if (ms > INT64_MAX / 2)
        ms = INT64_MAX / 2;
    *at_ms = now_ms + rip__px_ms_at_least(ms);
    return 0;
}

/* -- thread-specific data -- */

#define KEYS_MAX PTHREAD_KEYS_MAX
static struct {
    void (*destructor[KEYS_MAX])(void *); /* each key's destructor, or NULL */
    unsigned char used[KEYS_MAX];   /* 1: created and not deleted */
} K;                                /* keys are the process's, as pthreads' */

static void run_destructors(rip_pxthread *th) {
    /* as glibc: up to PTHREAD_DESTRUCTOR_ITERATIONS rounds while values are left */
    for (int round = 0; round < PTHREAD_DESTRUCTOR_ITERATIONS; round++) {
        int called = 0;
        for (size_t k = 0; k < th->nspecific; k++) {
            void *v = th->specific[k];
            if (!v)
                continue;
            th->specific[k] = NULL;
            if (K.used[k] && K.destructor[k]) {
                K.destructor[k](v);
                called = 1;
            }
        }
        if (!called)
            break;
    }
}

int rip_posix_pthread_key_create(pthread_key_t *key, void (*destructor)(void *)) {
    for (unsigned k = 0; k < KEYS_MAX; k++) {
        if (!K.used[k]) {
            K.used[k] = 1;
            K.destructor[k] = destructor;
            *key = k;
            return 0;
        }
    }
    return EAGAIN;
}

int rip_posix_pthread_key_delete(pthread_key_t key) {
    if (key >= KEYS_MAX || !K.used[key])
        return EINVAL;
    K.used[key] = 0;
    K.destructor[key] = NULL;
    /* values left in threads are not the next key's: clear them in every thread */
    for (size_t s = 0; s < P.used; s++) {
        rip_pxthread *th = P.rec[s];
        if (th && key < th->nspecific)
            th->specific[key] = NULL;
    }
    return 0;
}

void *rip_posix_pthread_getspecific(pthread_key_t key) {
    rip_pxthread *th = rip__px_self();
    return key < th->nspecific && K.used[key] ? th->specific[key] : NULL;
}

int rip_posix_pthread_setspecific(pthread_key_t key, const void *value) {
    if (key >= KEYS_MAX || !K.used[key])
        return EINVAL;
    rip_pxthread *th = rip__px_self();
    if (key >= th->nspecific) {
        size_t n = th->nspecific ? th->nspecific : 8;
        while (n <= key)
            n *= 2;
        void **s = realloc(th->specific, n * sizeof *s);
        if (!s)
            return ENOMEM;
        memset(s + th->nspecific, 0, (n - th->nspecific) * sizeof *s);
        th->specific = s;
        th->nspecific = n;
    }
    th->specific[key] = (void *)value;
    return 0;
}

/* -- readers-writer locks -- */

/* A writer, or any number of readers.  As glibc's default (prefer
 * readers), a read lock is granted whenever no writer holds the lock,
 * writers waiting or not; an unlock grants, in order of waiting, every
 * waiting reader, or the first waiting writer once no one holds it. */
struct rip_pxrwlock {
    rip_task *writer;               /* the task holding it for writing, or NULL */
    long readers;                   /* read locks held (by any tasks) */
    rip_waitlist waiters;           /* waiting tasks, oldest first; w->elem non-NULL for a writer */
};

rip_pxrwlock *rip__px_rwlock(pthread_rwlock_t *l, int *err) {
    rip_pxrwlock *rw = *slot_of(l);
    if (rw)
        return rw;
    rw = calloc(1, sizeof *rw);
    if (!rw) {
        *err = ENOMEM;
        return NULL;
    }
    *slot_of(l) = rw;
    return rw;
}

int rip__px_rw_try(rip_pxrwlock *l, int write) {
    rip_task *me = rip__current();
    if (l->writer == me)
        return EDEADLK;             /* glibc: a lock of any kind by the writer */
    if (write ? l->writer || l->readers : l->writer != NULL)
        return EBUSY;
    if (write)
        l->writer = me;
    else
        l->readers++;
    return 0;
}

int rip__px_rw_wait(rip_pxrwlock *l, int write, rip_waiter *w) {
    if (rip__deadline_passed())
        return ETIMEDOUT;
    w->task = rip__current();
    w->elem = write ? (void *)l : NULL;
    w->status = 0;
    rip__wl_push(&l->waiters, w);
    rip__wait_limit(w, rip__wl_cancel, &l->waiters, 0);
    return RIP_WAIT;
}

int rip__px_rw_waited(rip_waiter *w) {
    rip__wait_ended(w);
    return w->status == ETIMEDOUT ? ETIMEDOUT : 0;
}

rip_task *rip__px_rw_writer(rip_pxrwlock *l) {
    return l->writer;
}

/* Grant what can be granted now, oldest waiter first. */
static void rw_grant(rip_pxrwlock *l) {
    rip_waiter *prev = NULL, *w = l->waiters.head;
    while (w && !l->writer) {
        rip_waiter *next = w->next;
        int write = w->elem != NULL;
        if (!write || !l->readers) {
            if (prev)
                prev->next = next;
            else
                l->waiters.head = next;
            if (l->waiters.tail == w)
                l->waiters.tail = prev;
            if (write)
                l->writer = w->task;
            else
                l->readers++;
            w->status = 0;
            rip__ready(w->task);
        } else {
            prev = w;
        }
        w = next;
    }
}

int rip_posix_pthread_rwlock_init(pthread_rwlock_t *l, const pthread_rwlockattr_t *attr) {
    (void)attr;                     /* its kind (reader or writer preference) is not kept */
    memset(l, 0, sizeof *l);
    int err;
    return rip__px_rwlock(l, &err) ? 0 : err;
}

int rip_posix_pthread_rwlock_destroy(pthread_rwlock_t *l) {
    rip_pxrwlock *rw = *slot_of(l);
    if (rw) {
        if (rw->writer || rw->readers || rw->waiters.head)
            return EBUSY;
        free(rw);
        *slot_of(l) = NULL;
    }
    return 0;
}

int rip_posix_pthread_rwlock_tryrdlock(pthread_rwlock_t *l) {
    int err;
    rip_pxrwlock *rw = rip__px_rwlock(l, &err);
    return rw ? rip__px_rw_try(rw, 0) : err;
}

int rip_posix_pthread_rwlock_trywrlock(pthread_rwlock_t *l) {
    int err;
    rip_pxrwlock *rw = rip__px_rwlock(l, &err);
    return rw ? rip__px_rw_try(rw, 1) : err;
}

int rip_posix_pthread_rwlock_unlock(pthread_rwlock_t *l) {
    int err;
    rip_pxrwlock *rw = rip__px_rwlock(l, &err);
    if (!rw)
        return err;
    if (rw->writer == rip__current())
        rw->writer = NULL;
    else if (rw->readers > 0)
        rw->readers--;
    else
        return EPERM;               /* not locked */
    rw_grant(rw);
    return 0;
}

/* -- pthread_once: glibc's states in the user's int (0 not yet, 1 being
 * run, 2 done), so a static PTHREAD_ONCE_INIT works -- */

int rip__px_once_begin(pthread_once_t *once) {
    if (*once == 2)
        return 0;
    if (*once == 1)
        return RIP_WAIT;
    *once = 1;
    return 1;
}

void rip__px_once_end(pthread_once_t *once) {
    *once = 2;
}

/* -- thread-locals (ripper --posix rewrites each use of a __thread
 * variable to a call of this): each task's copy made at its first use,
 * from the variable itself, which outside any task is the copy used -- */

static size_t tls_vars;             /* indexes handed out (the process's, as the variables are) */

void *rip_posix_tls(void **slot, const void *image, size_t size, size_t align) {
    if (!rip__current())
        return (void *)image;
    size_t index = (size_t)(uintptr_t)*slot;
    if (!index) {
        index = __atomic_add_fetch(&tls_vars, 1, __ATOMIC_RELAXED);
        *slot = (void *)(uintptr_t)index;
    }
    rip_pxthread *th = rip__px_self();
    if (index > th->ntls) {
        size_t n = th->ntls ? th->ntls : 8;
        while (n < index)
            n *= 2;
        void **t = realloc(th->tls, n * sizeof *t);
        if (!t)
            rip__fatal("out of memory for a thread-local variable");
        memset(t + th->ntls, 0, (n - th->ntls) * sizeof *t);
        th->tls = t;
        th->ntls = n;
    }
    void *p = th->tls[index - 1];
    if (!p) {
        size_t a = align < sizeof(void *) ? sizeof(void *) : align;
        if (posix_memalign(&p, a, size ? size : 1) != 0)
            rip__fatal("out of memory for a thread-local variable");
        memcpy(p, image, size);
        th->tls[index - 1] = p;
    }
    return p;
}

static void tls_free(rip_pxthread *th) {
    for (size_t i = 0; i < th->ntls; i++)
        free(th->tls[i]);
    free(th->tls);
    th->tls = NULL;
    th->ntls = 0;
}

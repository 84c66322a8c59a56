/* deadline.c -- rip_set_deadline for the rip and ucontext backends.  Few
 * tasks set a deadline, and a rip task is a few dozen bytes, so deadlines
 * live in a per-scheduler hash table keyed by task rather than in every
 * task: a task without one pays nothing.  Open addressing with linear
 * probing; removal shifts the run back (no tombstones).
 *
 * A deadline limits every wait of its task: a task waits on one thing at
 * a time, so each task with a deadline has one timer (in its record, which
 * stays put while the table grows), armed with the wait's cancel hook when
 * the task queues itself (rip__wait_limit) and disarmed when it runs again
 * (rip__wait_ended).  While any task has a deadline (rip__slow)
 * the inlined channel operations of ripped code leave waiting to the core,
 * which arms the timer. */
#include <errno.h>
#include "core.h"

typedef struct {
    int64_t at_ms;                  /* the deadline, a rip_now_ms() time */
    rip_timer timer;                /* armed (timer.w set) while the task waits under it */
} deadline_rec;

static __thread struct {
    rip_task **keys;                /* NULL = empty slot */
    deadline_rec **values;          /* each task's record (malloc'd: the timer heap points into it) */
    size_t cap;                     /* slots, a power of two */
    size_t count;                   /* tasks with a deadline (each counted in rip__slow too) */
} D;

static size_t slot_of(const rip_task *t) {
    uintptr_t h = (uintptr_t)t;
    h ^= h >> 17;
    h *= 0x9E3779B97F4A7C15u;
    return (size_t)(h >> 20) & (D.cap - 1);
}

static size_t find(const rip_task *t) {
    size_t i = slot_of(t);
    while (D.keys[i] && D.keys[i] != t)
        i = (i + 1) & (D.cap - 1);
    return i;
}

static void grow(void) {
    rip_task **keys = D.keys;
    deadline_rec **values = D.values;
    size_t cap = D.cap;
    D.cap = cap ? 2 * cap : 64;
    D.keys = calloc(D.cap, sizeof *D.keys);
    D.values = malloc(D.cap * sizeof *D.values);
    if (!D.keys || !D.values)
        rip__fatal("out of memory for deadlines");
    for (size_t i = 0; i < cap; i++) {
        if (keys[i]) {
            size_t j = find(keys[i]);
            D.keys[j] = keys[i];
            D.values[j] = values[i];
        }
    }
    free(keys);
    free(values);
}

static deadline_rec *record(const rip_task *t) {
    if (!D.count)
        return NULL;
    size_t i = find(t);
    return D.keys[i] ? D.values[i] : NULL;
}

int64_t rip__deadline(const rip_task *t) {
    deadline_rec *r = record(t);
    return r ? r->at_ms : -1;
}

int rip__deadline_passed(void) {
    deadline_rec *r = record(rip__current());
    return r && rip_now_ms() >= r->at_ms;
}

void rip__wait_limit(rip_waiter *w, rip_cancel_fn *cancel, void *on, int key) {
    deadline_rec *r = record(rip__current());
    if (!r)
        return;
    rip_assert(r->timer.w == NULL); /* a task waits on one thing at a time */
    r->timer.w = w;
    r->timer.cancel = cancel;
    r->timer.on = on;
    r->timer.key = key;
    rip__timer_start(&r->timer, r->at_ms);
}

void rip__wait_ended(rip_waiter *w) {
    deadline_rec *r = record(rip__current());
    if (r && r->timer.w == w)       /* woken before the deadline */
        rip__timer_cancel(&r->timer);
}

int rip__wl_cancel(rip_waiter *w, void *on, int key) {
    rip_waitlist *l = on;
    rip_waiter *prev = NULL;
    (void)key;
    for (rip_waiter *x = l->head; x; prev = x, x = x->next) {
        if (x != w)
            continue;
        if (prev)
            prev->next = x->next;
        else
            l->head = x->next;
        if (l->tail == x)
            l->tail = prev;
        return 1;
    }
    return 0;
}

void rip__deadline_drop(const rip_task *t) {
    if (!D.count)
        return;
    size_t i = find(t);
    if (!D.keys[i])
        return;
    rip_assert(D.values[i]->timer.w == NULL); /* dropped while it waits */
    free(D.values[i]);
    D.keys[i] = NULL;
    D.count--;
    rip__slow(-1);
    /* Shift later members of the run back into the hole. */
    for (size_t j = (i + 1) & (D.cap - 1); D.keys[j]; j = (j + 1) & (D.cap - 1)) {
        size_t home = slot_of(D.keys[j]);
        if (((j - home) & (D.cap - 1)) >= ((j - i) & (D.cap - 1))) {
            D.keys[i] = D.keys[j];
            D.values[i] = D.values[j];
            D.keys[j] = NULL;
            i = j;
        }
    }
}

int64_t rip_set_deadline(int64_t at_ms) {
    rip_task *t = rip__current();
    rip_assert(t != NULL);          /* called outside any task */
    int64_t previous = rip__deadline(t);
    if (at_ms < 0) {
        rip__deadline_drop(t);
        return previous;
    }
    if (2 * (D.count + 1) > D.cap)
        grow();
    size_t i = find(t);
    if (!D.keys[i]) {
        deadline_rec *r = calloc(1, sizeof *r);
        if (!r)
            rip__fatal("out of memory for deadlines");
        D.keys[i] = t;
        D.values[i] = r;
        D.count++;
        rip__slow(1);
    }
    D.values[i]->at_ms = at_ms;
    return previous;
}

void rip__deadlines_end(void) {
    for (size_t i = 0; i < D.cap; i++)
        if (D.keys[i])
            free(D.values[i]);  /* tasks blocked forever may have left theirs */
    rip__sched.slow = 0;             /* with the selects of tasks blocked forever */
    rip__runq.fast = NULL;
    free(D.keys);
    free(D.values);
    D.keys = NULL;
    D.values = NULL;
    D.cap = D.count = 0;
}

int rip__deadline_timer(const rip_timer *tm) {
    deadline_rec *r = record(tm->task);
    return r && &r->timer == tm;
}

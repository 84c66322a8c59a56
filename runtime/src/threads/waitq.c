/* waitq.c -- parking and waking tasks on a FIFO wait queue.
 *
 * A channel or wait group keeps its waiters in a queue under its own mutex.
 * Each waiter sleeps on its own mutex and condition variable, so a waker
 * wakes exactly the tasks it popped, and a woken task returns without
 * touching the queue's owner again (the owner may already be freed).
 * Parking counts the task as blocked; popping uncounts it, under the
 * owner's mutex and before the waker lets go of it (see sched.c).
 *
 * A task with a deadline parks a waiter of its own on the heap, counted
 * busy rather than blocked (it will wake: no deadlock), and sleeps in
 * pthread_cond_timedwait.  At the deadline it must leave without touching
 * the owner (which may be freed by then), so the queue and the waiter
 * settle who was first under the waiter's own mutex: a waker that pops it
 * claims it (the wake will come, the task waits on for it); a deadline
 * that comes first cancels it (the task returns ETIMEDOUT and leaves the
 * waiter in the queue, to be freed by whoever unlinks it). */
#include <errno.h>
#include <time.h>
#include "threads.h"

void rip_thr_waitq_init(rip_thr_waitq *q) {
    q->head = NULL;
    q->tail = NULL;
}

/* Unlink the head, which timed out, and free it. */
static void drop_head(rip_thr_waitq *q) {
    rip_thr_waiter *w = q->head;
    q->head = w->next;
    pthread_cond_destroy(&w->cond);
    pthread_mutex_destroy(&w->mu);
    free(w);
}

/* Unlink the head; a timed one is claimed unless it timed out: 1 when it
 * is the caller's to wake, 0 when it was dropped. */
static int claim_head(rip_thr_waitq *q) {
    rip_thr_waiter *w = q->head;
    if (w->timed) {
        pthread_mutex_lock(&w->mu);
        int cancelled = w->cancelled;
        w->claimed = !cancelled;
        pthread_mutex_unlock(&w->mu);
        if (cancelled) {
            drop_head(q);
            return 0;
        }
    }
    q->head = w->next;
    w->next = NULL;
    return 1;
}

int rip_thr_waitq_empty(rip_thr_waitq *q) {
    while (q->head && q->head->timed) {   /* timed-out waiters are not waiting */
        pthread_mutex_lock(&q->head->mu);
        int cancelled = q->head->cancelled;
        pthread_mutex_unlock(&q->head->mu);
        if (!cancelled)
            break;
        drop_head(q);
    }
    return q->head == NULL;
}

void rip_thr_waitq_push(rip_thr_waitq *q, rip_thr_waiter *w) {
    w->next = NULL;
    if (q->head == NULL)
        q->head = w;
    else
        q->tail->next = w;
    q->tail = w;
}

rip_thr_waiter *rip_thr_waitq_pop(rip_thr_waitq *q) {
    for (;;) {
        rip_thr_waiter *w = q->head;
        if (w == NULL)
            return NULL;
        if (!claim_head(q))
            continue;
        if (!w->timed)
            rip_thr_unblock(w->run);
        return w;
    }
}

static void waiter_init(rip_thr_waiter *w, int timed) {
    w->woken = 0;
    w->timed = timed;
    w->claimed = 0;
    w->cancelled = 0;
    w->run = rip_thr_self_run();
    int rc = pthread_mutex_init(&w->mu, NULL);
    rip_assert(rc == 0);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);  /* the clock of rip_now_ms */
    rc = pthread_cond_init(&w->cond, &attr);
    pthread_condattr_destroy(&attr);
    rip_assert(rc == 0);
}

/* A task without a deadline: w on its stack, counted blocked. */
static void park_untimed(rip_thr_waitq *q, rip_thr_waiter *w, pthread_mutex_t *mu) {
    waiter_init(w, 0);
    rip_thr_waitq_push(q, w);
    rip_thr_block(w->run);
    pthread_mutex_unlock(mu);

    pthread_mutex_lock(&w->mu);
    while (!w->woken)
        pthread_cond_wait(&w->cond, &w->mu);
    pthread_mutex_unlock(&w->mu);
    /* The waker signalled under w->mu and touches w no more. */
    pthread_cond_destroy(&w->cond);
    pthread_mutex_destroy(&w->mu);
}

/* Caller holds mu, the mutex guarding q; mu is released on return. */
int rip_thr_park(rip_thr_waitq *q, rip_thr_waiter *w, pthread_mutex_t *mu) {
    int64_t deadline = rip_thr_deadline();
    if (deadline < 0) {
        park_untimed(q, w, mu);
        return 0;
    }
    if (rip_now_ms() >= deadline) {     /* it would have to wait */
        pthread_mutex_unlock(mu);
        errno = ETIMEDOUT;
        return -1;
    }
    rip_thr_waiter *h = malloc(sizeof *h);
    if (h == NULL)
        rip__fatal("out of memory for a wait under a deadline");
    waiter_init(h, 1);
    h->elem = w->elem;
    h->ok = w->ok;
    rip_thr_waitq_push(q, h);
    rip_thr_busy_begin();
    pthread_mutex_unlock(mu);

    struct timespec at = { (time_t)(deadline / 1000), (long)(deadline % 1000) * 1000000L };
    int timed_out = 0;
    pthread_mutex_lock(&h->mu);
    while (!h->woken) {
        if (h->claimed) {               /* a waker popped it: its wake comes */
            pthread_cond_wait(&h->cond, &h->mu);
            continue;
        }
        if (pthread_cond_timedwait(&h->cond, &h->mu, &at) == ETIMEDOUT && !h->claimed && !h->woken) {
            h->cancelled = 1;           /* the queue's now: whoever unlinks it frees it */
            timed_out = 1;
            break;
        }
    }
    pthread_mutex_unlock(&h->mu);
    rip_thr_busy_end();
    if (timed_out) {
        errno = ETIMEDOUT;
        return -1;
    }
    w->ok = h->ok;
    pthread_cond_destroy(&h->cond);
    pthread_mutex_destroy(&h->mu);
    free(h);
    return 0;
}

/* w was popped under its owner's mutex, which the caller has released.
 * w may be gone once this returns: read w->next before calling. */
void rip_thr_wake(rip_thr_waiter *w) {
    pthread_mutex_lock(&w->mu);
    rip_assert(!w->woken);
    w->woken = 1;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->mu);
}

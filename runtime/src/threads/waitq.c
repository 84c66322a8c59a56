/* waitq.c -- parking and waking tasks on a FIFO wait queue.
 *
 * A channel or wait group keeps its waiters in a queue under its own mutex.
 * Each waiter sleeps on its own mutex and condition variable, so a waker
 * wakes exactly the tasks it popped, and a woken task returns without
 * touching the queue's owner again (the owner may already be freed).
 * Parking counts the task as blocked; popping uncounts it, under the
 * owner's mutex and before the waker lets go of it (see sched.c). */
#include "threads.h"

void rip_thr_waitq_init(rip_thr_waitq *q) {
    q->head = NULL;
    q->tail = NULL;
}

int rip_thr_waitq_empty(const rip_thr_waitq *q) {
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
    rip_thr_waiter *w = q->head;
    if (w == NULL)
        return NULL;
    q->head = w->next;
    w->next = NULL;
    rip_thr_unblock(w->run);
    return w;
}

/* Caller holds mu, the mutex guarding q; mu is released on return. */
void rip_thr_park(rip_thr_waitq *q, rip_thr_waiter *w, pthread_mutex_t *mu) {
    w->woken = 0;
    w->run = rip_thr_self_run();
    int rc = pthread_mutex_init(&w->mu, NULL);
    rip_assert(rc == 0);
    rc = pthread_cond_init(&w->cond, NULL);
    rip_assert(rc == 0);
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

/* w was popped under its owner's mutex, which the caller has released.
 * w may be gone once this returns: read w->next before calling. */
void rip_thr_wake(rip_thr_waiter *w) {
    pthread_mutex_lock(&w->mu);
    rip_assert(!w->woken);
    w->woken = 1;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->mu);
}

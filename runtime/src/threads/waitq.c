/* waitq.c -- parking and waking tasks on a FIFO wait queue.
 *
 * A channel or wait group keeps its waiters in a queue under its own mutex.
 * Each waiter sleeps on its own mutex and condition variable (a plain one)
 * or its group's, so a waker wakes exactly the tasks it popped, and a
 * woken task returns without touching the queue's owner again (the owner
 * may already be freed).  Parking counts the task as blocked; popping
 * uncounts it, under the owner's mutex and before the waker lets go of it
 * (see sched.c).
 *
 * A wait with a time limit, and a select over several channels, is a
 * group (threads.h): its waiters are on the heap, its task counts busy
 * when a time limit will wake it, and the first to claim the group
 * settles it.  A waker claims it when it pops one of its waiters; a
 * waiter of a group already settled is stale: whoever meets it in a queue
 * unlinks and frees it. */
#include <errno.h>
#include <time.h>
#include "threads.h"

void rip_thr_waitq_init(rip_thr_waitq *q) {
    q->head = NULL;
    q->tail = NULL;
}

void rip_thr_waitq_push(rip_thr_waitq *q, rip_thr_waiter *w) {
    w->next = NULL;
    if (q->head == NULL)
        q->head = w;
    else
        q->tail->next = w;
    q->tail = w;
}

static void cond_init(pthread_cond_t *cond) {
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);  /* the clock of rip_now_ms */
    int rc = pthread_cond_init(cond, &attr);
    pthread_condattr_destroy(&attr);
    rip_assert(rc == 0);
}

static void group_free(rip_thr_group *g) {
    pthread_cond_destroy(&g->cond);
    pthread_mutex_destroy(&g->mu);
    free(g);
}

/* w, of group g, was unlinked: drop its reference. */
static void unref(rip_thr_group *g) {
    pthread_mutex_lock(&g->mu);
    int last = --g->refs == 0;
    pthread_mutex_unlock(&g->mu);
    if (last)
        group_free(g);
}

/* Claim g for case index: 1 if it was unsettled.  g->mu held. */
static int claim_locked(rip_thr_group *g, int index) {
    if (g->claimed != -1 || g->cancelled)
        return 0;
    g->claimed = index;
    if (!g->timed)
        rip_thr_unblock(g->run);
    return 1;
}

/* Unlink w, which follows prev (NULL: the head). */
static void unlink_after(rip_thr_waitq *q, rip_thr_waiter *prev, rip_thr_waiter *w) {
    if (prev)
        prev->next = w->next;
    else
        q->head = w->next;
    if (q->tail == w)
        q->tail = prev;
    w->next = NULL;
}

rip_thr_waiter *rip_thr_waitq_take(rip_thr_waitq *q, rip_thr_group *skip) {
    rip_thr_waiter *prev = NULL, *w = q->head;
    while (w != NULL) {
        rip_thr_waiter *next = w->next;
        rip_thr_group *g = w->group;
        if (g == NULL) {
            unlink_after(q, prev, w);
            rip_thr_unblock(w->run);
            return w;
        }
        if (g == skip) {            /* the caller's own: left queued */
            prev = w;
            w = next;
            continue;
        }
        unlink_after(q, prev, w);
        pthread_mutex_lock(&g->mu);
        int mine = claim_locked(g, w->index);
        int last = --g->refs == 0;
        pthread_mutex_unlock(&g->mu);
        if (mine)
            return w;               /* its task frees it once woken */
        free(w);                    /* stale */
        if (last)
            group_free(g);
        w = next;
    }
    return NULL;
}

rip_thr_waiter *rip_thr_waitq_pop(rip_thr_waitq *q) {
    return rip_thr_waitq_take(q, NULL);
}

int rip_thr_waitq_live(rip_thr_waitq *q, rip_thr_group *skip) {
    rip_thr_waiter *prev = NULL, *w = q->head;
    while (w != NULL) {
        rip_thr_waiter *next = w->next;
        rip_thr_group *g = w->group;
        if (g == NULL)
            return 1;
        if (g != skip) {
            pthread_mutex_lock(&g->mu);
            int settled = g->claimed != -1 || g->cancelled;
            pthread_mutex_unlock(&g->mu);
            if (!settled)
                return 1;
            unlink_after(q, prev, w);   /* stale: free it */
            free(w);
            unref(g);
            w = next;
            continue;
        }
        prev = w;
        w = next;
    }
    return 0;
}

int rip_thr_waitq_empty(rip_thr_waitq *q) {
    return !rip_thr_waitq_live(q, NULL);
}

rip_thr_group *rip_thr_group_new(int timed) {
    rip_thr_group *g = malloc(sizeof *g);
    if (g == NULL)
        rip__fatal("out of memory for a wait");
    int rc = pthread_mutex_init(&g->mu, NULL);
    rip_assert(rc == 0);
    cond_init(&g->cond);
    g->claimed = -1;
    g->cancelled = 0;
    g->woken = 0;
    g->timed = timed;
    g->refs = 1;
    g->run = rip_thr_self_run();
    if (timed)
        rip_thr_busy_begin();
    else
        rip_thr_block(g->run);
    return g;
}

rip_thr_waiter *rip_thr_group_waiter(rip_thr_group *g, int index, void *elem) {
    rip_thr_waiter *w = malloc(sizeof *w);
    if (w == NULL)
        rip__fatal("out of memory for a wait");
    w->next = NULL;
    w->run = g->run;
    w->elem = elem;
    w->ok = 0;
    w->group = g;
    w->index = index;
    pthread_mutex_lock(&g->mu);
    g->refs++;
    pthread_mutex_unlock(&g->mu);
    return w;
}

int rip_thr_group_claim(rip_thr_group *g, int index) {
    pthread_mutex_lock(&g->mu);
    int mine = claim_locked(g, index);
    if (mine)
        g->woken = 1;               /* no waker: the task does it */
    pthread_mutex_unlock(&g->mu);
    return mine;
}

int rip_thr_group_wait(rip_thr_group *g, int64_t until_ms) {
    struct timespec at = { (time_t)(until_ms / 1000), (long)(until_ms % 1000) * 1000000L };
    pthread_mutex_lock(&g->mu);
    while (!g->woken && !g->cancelled) {
        if (g->claimed != -1 || until_ms < 0) {
            pthread_cond_wait(&g->cond, &g->mu);
            continue;
        }
        if (pthread_cond_timedwait(&g->cond, &g->mu, &at) == ETIMEDOUT && g->claimed == -1)
            g->cancelled = 1;
    }
    int claimed = g->cancelled ? -1 : g->claimed;
    int timed = g->timed;
    int last = --g->refs == 0;
    pthread_mutex_unlock(&g->mu);
    if (timed)
        rip_thr_busy_end();
    if (last)
        group_free(g);
    return claimed;
}

/* A task without a deadline: w on its stack, counted blocked. */
static void park_plain(rip_thr_waitq *q, rip_thr_waiter *w, pthread_mutex_t *mu) {
    w->woken = 0;
    w->group = NULL;
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

/* Caller holds mu, the mutex guarding q; mu is released on return. */
int rip_thr_park(rip_thr_waitq *q, rip_thr_waiter *w, pthread_mutex_t *mu) {
    int64_t deadline = rip_thr_deadline();
    if (deadline < 0) {
        park_plain(q, w, mu);
        return 0;
    }
    if (rip_now_ms() >= deadline) {     /* it would have to wait */
        pthread_mutex_unlock(mu);
        errno = ETIMEDOUT;
        return -1;
    }
    rip_thr_group *g = rip_thr_group_new(1);
    rip_thr_waiter *h = rip_thr_group_waiter(g, 0, w->elem);
    rip_thr_waitq_push(q, h);
    pthread_mutex_unlock(mu);
    if (rip_thr_group_wait(g, deadline) == -1) {
        errno = ETIMEDOUT;              /* h stays queued, stale */
        return -1;
    }
    w->ok = h->ok;                      /* claimed: unlinked by the waker, ours to free */
    free(h);
    return 0;
}

/* w was popped under its owner's mutex, which the caller has released.
 * w may be gone once this returns: read w->next before calling. */
void rip_thr_wake(rip_thr_waiter *w) {
    rip_thr_group *g = w->group;
    if (g != NULL) {
        pthread_mutex_lock(&g->mu);
        rip_assert(!g->woken);
        g->woken = 1;
        pthread_cond_broadcast(&g->cond);
        pthread_mutex_unlock(&g->mu);
        return;
    }
    pthread_mutex_lock(&w->mu);
    rip_assert(!w->woken);
    w->woken = 1;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->mu);
}

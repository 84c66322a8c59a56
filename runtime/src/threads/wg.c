/* wg.c -- wait groups for the `threads` backend.
 *
 * A count and a queue of parked waiters under the group's own mutex; when
 * the count reaches zero every waiter is woken.  A count below zero is a
 * bug in the program: report it and abort.  A wait group belongs to the
 * worker that made it: others may not use it. */
#include <errno.h>

#include "threads.h"

struct rip_wg {
    pthread_mutex_t mu;            /* guards every field below */
    long count;                    /* adds minus dones, >= 0 */
    rip_thr_waitq waitq;           /* tasks parked in rip_wg_wait */
    int worker;                    /* rip_worker_id() of its maker, the only one to use it */
};

rip_wg *rip_wg_new(void) {
    rip_wg *wg = malloc(sizeof *wg);
    if (wg == NULL)
        return NULL;
    int rc = pthread_mutex_init(&wg->mu, NULL);
    if (rc != 0) {
        free(wg);
        errno = rc;
        return NULL;
    }
    wg->count = 0;
    wg->worker = rip_worker_id();
    rip_thr_waitq_init(&wg->waitq);
    return wg;
}

void rip_wg_add(rip_wg *wg, int n) {
    rip_thr_waitq woken;
    rip_thr_waitq_init(&woken);
    rip_thr_check_worker(wg->worker, "wait group");
    pthread_mutex_lock(&wg->mu);
    wg->count += n;
    if (wg->count < 0)
        rip__fatal("wait group count below zero (%ld)", (long)wg->count);
    rip_thr_waiter *w;
    if (wg->count == 0)
        while ((w = rip_thr_waitq_pop(&wg->waitq)) != NULL)
            rip_thr_waitq_push(&woken, w);
    pthread_mutex_unlock(&wg->mu);
    /* A woken waiter may free wg at once: wg is not touched from here. */
    for (w = woken.head; w != NULL; ) {
        rip_thr_waiter *next = w->next;
        rip_thr_wake(w);
        w = next;
    }
}

void rip_wg_done(rip_wg *wg) {
    rip_wg_add(wg, -1);
}

int rip_wg_wait(rip_wg *wg) {
    rip_thr_in_a_task(__func__);
    rip_thr_check_worker(wg->worker, "wait group");
    pthread_mutex_lock(&wg->mu);
    if (wg->count == 0) {
        pthread_mutex_unlock(&wg->mu);
        return 0;
    }
    rip_thr_waiter w;
    w.elem = NULL;
    w.ok = 0;
    rip_thr_wait_note(RIP_THR_WG, wg, 0, 0, 0);
    int r = rip_thr_park(&wg->waitq, &w, &wg->mu); /* unlocks wg->mu; 0, or -1 and ETIMEDOUT */
    rip_thr_wait_note(RIP_THR_NONE, NULL, 0, 0, 0);
    return r;
}

void rip_wg_free(rip_wg *wg) {
    if (wg == NULL)
        return;
    if (!rip_thr_waitq_empty(&wg->waitq))
        rip__fatal("rip_wg_free: tasks still wait on the wait group");
    pthread_mutex_destroy(&wg->mu);
    free(wg);
}

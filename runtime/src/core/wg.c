/* wg.c -- wait groups for the rip and ucontext backends: a count and a
 * FIFO list of tasks waiting for it to reach zero. */
#include <errno.h>
#include "core.h"

struct rip_wg {
    long count;                     /* rip_wg_add minus rip_wg_done */
    rip_waitlist waiters;           /* tasks in rip_wg_wait */
    struct rip__runq *owner;        /* the run queue of the worker that made it */
    rip_wg *next;                   /* the thread's next wait group (rip_dump_tasks) */
    rip_wg **pprev;                 /* the pointer to this one */
};

static __thread rip_wg *wgs;        /* the thread's wait groups, newest first */

void rip__wg_each(void (*fn)(rip_wg *wg, long count, rip_waitlist *waiters, void *ctx), void *ctx) {
    for (rip_wg *wg = wgs; wg; wg = wg->next)
        fn(wg, wg->count, &wg->waiters, ctx);
}

rip_wg *rip_wg_new(void) {
    rip_wg *wg = calloc(1, sizeof(rip_wg));
    if (!wg)
        return NULL;
    wg->owner = &rip__runq;
    if ((wg->next = wgs))
        wgs->pprev = &wg->next;
    wg->pprev = &wgs;
    wgs = wg;
    return wg;
}

void rip_wg_add(rip_wg *wg, int n) {
    rip__check_owner(wg->owner, "wait group");
    wg->count += n;
    if (wg->count < 0)
        rip__fatal("wait group count below zero (%ld)", wg->count);
    if (wg->count == 0) {
        rip_waiter *w;
        while ((w = rip__wl_pop(&wg->waiters))) {
            w->status = 0;
            rip__ready(w->task);
        }
    }
}

void rip_wg_done(rip_wg *wg) {
    rip_wg_add(wg, -1);
}

int rip__wg_wait(rip_wg *wg, rip_waiter *w) {
    rip__check_owner(wg->owner, "wait group");
    if (wg->count == 0)
        return 0;
    if (rip__deadline_passed()) {
        errno = ETIMEDOUT;
        return -1;
    }
    w->task = rip__current();
    rip__wl_push(&wg->waiters, w);
    rip__wait_limit(w, rip__wl_cancel, &wg->waiters, 0);
    return RIP_WAIT;
}

int rip__wg_waited(rip_waiter *w) {
    rip__wait_ended(w);
    if (w->status == ETIMEDOUT) {
        errno = ETIMEDOUT;
        return -1;
    }
    return 0;
}

void rip_wg_free(rip_wg *wg) {
    if (!wg)
        return;
    if (wg->waiters.head)
        rip__fatal("rip_wg_free: tasks still wait on the wait group");
    if ((*wg->pprev = wg->next))
        wg->next->pprev = wg->pprev;
    free(wg);
}

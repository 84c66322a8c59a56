/* chan.c -- channels of fixed-size elements for the `threads` backend.
 *
 * A ring buffer of cap elements plus two queues of parked tasks, all under
 * the channel's own mutex.  A value goes straight to a parked receiver when
 * there is one; a sender finding the buffer full (always, at capacity 0)
 * parks with a pointer to its value until a receiver copies it out.
 * Invariants: receivers wait only while the buffer is empty and no sender
 * waits; senders wait only while the buffer is full and no receiver waits.
 * A channel belongs to the worker that made it: others may not use it. */
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "threads.h"

struct rip_chan {
    pthread_mutex_t mu;            /* guards every field below */
    size_t elem_size;              /* bytes per element, > 0 */
    size_t cap;                    /* ring size in elements, 0 for a rendezvous */
    size_t head;                   /* ring index of the oldest buffered element */
    size_t count;                  /* elements buffered, <= cap */
    int closed;                    /* rip_chan_close was called */
    int worker;                    /* rip_worker_id() of its maker, the only one to use it */
    rip_thr_waitq recvq;           /* receivers parked on an empty channel */
    rip_thr_waitq sendq;           /* senders parked with a value not yet taken */
    unsigned char buf[];           /* cap * elem_size bytes of ring */
};

/* Address of ring slot i, taken modulo cap (cap > 0). */
static unsigned char *slot(rip_chan *c, size_t i) {
    return c->buf + (i % c->cap) * c->elem_size;
}

rip_chan *rip_chan_new(size_t elem_size, size_t capacity) {
    if (elem_size == 0) {
        errno = EINVAL;
        return NULL;
    }
    if (capacity > (SIZE_MAX - sizeof(rip_chan)) / elem_size) {
        errno = ENOMEM;
        return NULL;
    }
    rip_chan *c = malloc(sizeof *c + capacity * elem_size);
    if (c == NULL)
        return NULL;
    int rc = pthread_mutex_init(&c->mu, NULL);
    if (rc != 0) {
        free(c);
        errno = rc;
        return NULL;
    }
    c->elem_size = elem_size;
    c->cap = capacity;
    c->head = 0;
    c->count = 0;
    c->closed = 0;
    c->worker = rip_worker_id();
    rip_thr_waitq_init(&c->recvq);
    rip_thr_waitq_init(&c->sendq);
    return c;
}

/* c->mu held: a send that does not wait, leaving skip's waiters alone (a
 * select's own): 0, -1 (closed), or 2 (it would have to wait).  *wake: a
 * waiter to wake once c->mu is released, or NULL. */
static int send_locked(rip_chan *c, const void *elem, rip_thr_group *skip, rip_thr_waiter **wake) {
    *wake = NULL;
    if (c->closed)
        return -1;
    rip_thr_waiter *r = rip_thr_waitq_take(&c->recvq, skip);
    if (r != NULL) {
        rip_assert(c->count == 0);
        memcpy(r->elem, elem, c->elem_size);
        r->ok = 1;
        *wake = r;
        return 0;
    }
    if (c->count < c->cap) {
        memcpy(slot(c, c->head + c->count), elem, c->elem_size);
        c->count++;
        return 0;
    }
    return 2;
}

/* The same for a receive: 1, 0 (closed and empty), or 2. */
static int recv_locked(rip_chan *c, void *elem, rip_thr_group *skip, rip_thr_waiter **wake) {
    rip_thr_waiter *s;
    *wake = NULL;
    if (c->count > 0) {
        memcpy(elem, slot(c, c->head), c->elem_size);
        c->head = (c->head + 1) % c->cap;
        c->count--;
        s = rip_thr_waitq_take(&c->sendq, skip);
        if (s != NULL) {   /* a slot just freed: take the first parked value */
            rip_assert(c->count == c->cap - 1);
            memcpy(slot(c, c->head + c->count), s->elem, c->elem_size);
            c->count++;
            s->ok = 1;
            *wake = s;
        }
        return 1;
    }
    s = rip_thr_waitq_take(&c->sendq, skip);
    if (s != NULL) {       /* rendezvous: copy straight from the sender */
        rip_assert(c->cap == 0);
        memcpy(elem, s->elem, c->elem_size);
        s->ok = 1;
        *wake = s;
        return 1;
    }
    return c->closed ? 0 : 2;
}

int rip_chan_send(rip_chan *c, const void *elem) {
    rip_thr_in_a_task(__func__);
    rip_thr_check_worker(c->worker, "channel");
    rip_thr_waiter *wake;
    pthread_mutex_lock(&c->mu);
    int r = send_locked(c, elem, NULL, &wake);
    if (r != 2) {
        pthread_mutex_unlock(&c->mu);
        if (wake != NULL)
            rip_thr_wake(wake);
        if (r == -1)
            errno = EPIPE;
        return r;
    }
    rip_thr_waiter w;
    w.elem = (void *)elem;
    w.ok = 0;
    rip_thr_wait_note(RIP_THR_SEND, c, (long)c->elem_size, (long)c->cap, 0);
    int parked = rip_thr_park(&c->sendq, &w, &c->mu); /* unlocks c->mu; c may be freed once woken */
    rip_thr_wait_note(RIP_THR_NONE, NULL, 0, 0, 0);
    if (parked == -1)
        return -1;                 /* ETIMEDOUT */
    if (!w.ok) {
        errno = EPIPE;
        return -1;
    }
    return 0;
}

int rip_chan_recv(rip_chan *c, void *elem) {
    rip_thr_in_a_task(__func__);
    rip_thr_check_worker(c->worker, "channel");
    rip_thr_waiter *wake;
    pthread_mutex_lock(&c->mu);
    int r = recv_locked(c, elem, NULL, &wake);
    if (r != 2) {
        pthread_mutex_unlock(&c->mu);
        if (wake != NULL)
            rip_thr_wake(wake);
        return r;
    }
    rip_thr_waiter w;
    w.elem = elem;
    w.ok = 0;
    rip_thr_wait_note(RIP_THR_RECV, c, (long)c->elem_size, (long)c->cap, 0);
    int parked = rip_thr_park(&c->recvq, &w, &c->mu); /* unlocks c->mu; c may be freed once woken */
    rip_thr_wait_note(RIP_THR_NONE, NULL, 0, 0, 0);
    if (parked == -1)
        return -1;                 /* ETIMEDOUT */
    return w.ok;
}

/* One case done now, if it can be: its result, or 2.  skip: as above. */
static int case_now(rip_chan_case *k, rip_thr_group *skip) {
    rip_thr_waiter *wake;
    rip_chan *c = k->chan;
    pthread_mutex_lock(&c->mu);
    int r = k->send ? send_locked(c, k->elem, skip, &wake) : recv_locked(c, k->elem, skip, &wake);
    pthread_mutex_unlock(&c->mu);
    if (wake != NULL)
        rip_thr_wake(wake);
    return r;
}

int rip_chan_try_send(rip_chan *c, const void *elem) {
    rip_thr_check_worker(c->worker, "channel");
    rip_chan_case k = { c, 1, (void *)elem, 0 };
    int r = case_now(&k, NULL);
    if (r != 2) {
        if (r == -1)
            errno = EPIPE;
        return r;
    }
    errno = EAGAIN;
    return -1;
}

int rip_chan_try_recv(rip_chan *c, void *elem) {
    rip_thr_check_worker(c->worker, "channel");
    rip_chan_case k = { c, 0, elem, 0 };
    int r = case_now(&k, NULL);
    if (r != 2)
        return r;
    errno = EAGAIN;
    return -1;
}

/* The case done: its index, errno EPIPE for a send to a closed channel. */
static int chosen(rip_chan_case *cases, int i) {
    if (cases[i].send && cases[i].result == -1)
        errno = EPIPE;
    return i;
}

/* Try the cases from a turn that moves on each call (no ready case
 * starves), then park on all.  Queueing a case under its channel's mutex
 * first checks that it still cannot be done (a value may have come since
 * the try), and does it then if the group is still unsettled; a case of
 * the same select on the same channel is never its partner. */
int rip_chan_select(rip_chan_case *cases, int n, int timeout_ms) {
    static __thread uint32_t turn = 2463534242u;
    rip_thr_in_a_task(__func__);
    if (n < 1) {
        errno = EINVAL;
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (cases[i].chan)
            rip_thr_check_worker(cases[i].chan->worker, "channel");
    turn ^= turn << 13;
    turn ^= turn >> 17;
    turn ^= turn << 5;
    int first = (int)(turn % (uint32_t)n);
    for (int j = 0; j < n; j++) {
        int i = (first + j) % n;
        if (!cases[i].chan)
            continue;
        int r = case_now(&cases[i], NULL);
        if (r != 2) {
            cases[i].result = r;
            return chosen(cases, i);
        }
    }
    int64_t now = rip_now_ms(), deadline = rip_thr_deadline();
    int64_t until = timeout_ms >= 0 ? now + timeout_ms : -1;
    int by_deadline = deadline >= 0 && (until < 0 || deadline < until);
    if (timeout_ms == 0) {
        errno = EAGAIN;
        return -1;
    }
    if (deadline >= 0 && now >= deadline) {
        errno = ETIMEDOUT;
        return -1;
    }
    rip_thr_group *g = rip_thr_group_new(by_deadline || until >= 0);
    rip_thr_waiter *mine[n];
    int done_now = -1;
    for (int i = 0; i < n; i++) {
        mine[i] = NULL;
        rip_chan *c = cases[i].chan;
        if (!c)
            continue;
        rip_thr_waiter *wake = NULL;
        pthread_mutex_lock(&c->mu);
        int can = cases[i].send ? c->closed || c->count < c->cap || rip_thr_waitq_live(&c->recvq, g)
                                : c->count > 0 || c->closed || rip_thr_waitq_live(&c->sendq, g);
        if (can) {
            if (rip_thr_group_claim(g, i)) {    /* still ours to settle: do it */
                int r = cases[i].send ? send_locked(c, cases[i].elem, g, &wake)
                                      : recv_locked(c, cases[i].elem, g, &wake);
                rip_assert(r != 2);
                cases[i].result = r;
                done_now = i;
            }
            pthread_mutex_unlock(&c->mu);
            if (wake != NULL)
                rip_thr_wake(wake);
            break;                  /* settled, by us or by a waker of a case queued already */
        }
        mine[i] = rip_thr_group_waiter(g, i, cases[i].elem);
        rip_thr_waitq_push(cases[i].send ? &c->sendq : &c->recvq, mine[i]);
        pthread_mutex_unlock(&c->mu);
    }
    rip_thr_wait_note(RIP_THR_SELECT, NULL, n, 0, 0);
    int k = rip_thr_group_wait(g, by_deadline ? deadline : until);
    rip_thr_wait_note(RIP_THR_NONE, NULL, 0, 0, 0);
    if (k == -1) {
        errno = by_deadline ? ETIMEDOUT : EAGAIN;
        return -1;
    }
    if (k != done_now) {            /* a waker did case k: its waiter is ours to free */
        cases[k].result = cases[k].send ? (mine[k]->ok ? 0 : -1) : mine[k]->ok;
        free(mine[k]);
    }
    return chosen(cases, k);
}

/* Closing twice is harmless.  Receivers are woken before senders. */
void rip_chan_close(rip_chan *c) {
    rip_thr_waitq woken;
    rip_thr_waitq_init(&woken);
    rip_thr_check_worker(c->worker, "channel");
    pthread_mutex_lock(&c->mu);
    c->closed = 1;
    rip_thr_waiter *w;
    while ((w = rip_thr_waitq_pop(&c->recvq)) != NULL) {
        w->ok = 0;
        rip_thr_waitq_push(&woken, w);
    }
    while ((w = rip_thr_waitq_pop(&c->sendq)) != NULL) {
        w->ok = 0;
        rip_thr_waitq_push(&woken, w);
    }
    pthread_mutex_unlock(&c->mu);
    for (w = woken.head; w != NULL; ) {
        rip_thr_waiter *next = w->next;
        rip_thr_wake(w);
        w = next;
    }
}

void rip_chan_free(rip_chan *c) {
    if (c == NULL)
        return;
    if (!rip_thr_waitq_empty(&c->recvq) || !rip_thr_waitq_empty(&c->sendq))
        rip__fatal("rip_chan_free: tasks still wait on the channel (close it, let them run, then free)");
    pthread_mutex_destroy(&c->mu);
    free(c);
}

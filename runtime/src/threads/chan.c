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

int rip_chan_send(rip_chan *c, const void *elem) {
    rip_thr_in_a_task(__func__);
    rip_thr_check_worker(c->worker, "channel");
    pthread_mutex_lock(&c->mu);
    if (c->closed) {
        pthread_mutex_unlock(&c->mu);
        errno = EPIPE;
        return -1;
    }
    rip_thr_waiter *r = rip_thr_waitq_pop(&c->recvq);
    if (r != NULL) {
        rip_assert(c->count == 0);
        memcpy(r->elem, elem, c->elem_size);
        r->ok = 1;
        pthread_mutex_unlock(&c->mu);
        rip_thr_wake(r);
        return 0;
    }
    if (c->count < c->cap) {
        memcpy(slot(c, c->head + c->count), elem, c->elem_size);
        c->count++;
        pthread_mutex_unlock(&c->mu);
        return 0;
    }
    rip_thr_waiter w;
    w.elem = (void *)elem;
    w.ok = 0;
    if (rip_thr_park(&c->sendq, &w, &c->mu) == -1) /* unlocks c->mu; c may be freed once woken */
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
    pthread_mutex_lock(&c->mu);
    rip_thr_waiter *s;
    if (c->count > 0) {
        memcpy(elem, slot(c, c->head), c->elem_size);
        c->head = (c->head + 1) % c->cap;
        c->count--;
        s = rip_thr_waitq_pop(&c->sendq);
        if (s != NULL) {   /* a slot just freed: take the first parked value */
            rip_assert(c->count == c->cap - 1);
            memcpy(slot(c, c->head + c->count), s->elem, c->elem_size);
            c->count++;
            s->ok = 1;
        }
        pthread_mutex_unlock(&c->mu);
        if (s != NULL)
            rip_thr_wake(s);
        return 1;
    }
    s = rip_thr_waitq_pop(&c->sendq);
    if (s != NULL) {       /* rendezvous: copy straight from the sender */
        rip_assert(c->cap == 0);
        memcpy(elem, s->elem, c->elem_size);
        s->ok = 1;
        pthread_mutex_unlock(&c->mu);
        rip_thr_wake(s);
        return 1;
    }
    if (c->closed) {
        pthread_mutex_unlock(&c->mu);
        return 0;
    }
    rip_thr_waiter w;
    w.elem = elem;
    w.ok = 0;
    if (rip_thr_park(&c->recvq, &w, &c->mu) == -1) /* unlocks c->mu; c may be freed once woken */
        return -1;                 /* ETIMEDOUT */
    return w.ok;
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

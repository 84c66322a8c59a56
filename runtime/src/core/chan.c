/* chan.c -- channels for the rip and ucontext backends: a ring buffer of
 * `capacity` elements plus FIFO lists of waiting senders and receivers.
 * Capacity 0 is a rendezvous: a sender waits until a receiver takes its
 * value straight from the sender's element. */
#include <errno.h>
#include <string.h>
#include "core.h"

/* struct rip_chan is in rip_frame.h: ripped code inlines the hand-over
 * and the wait (rip__chan_send_try, rip__chan_recv_try), and comes here
 * for the rest.  Its ring buffer follows it in the same block. */
static unsigned char *slot(rip_chan *c, size_t i) {
    return (unsigned char *)(c + 1) + ((c->head + i) % c->capacity) * c->elem_size;
}

rip_chan *rip_chan_new(size_t elem_size, size_t capacity) {
    if (elem_size == 0 || (capacity && elem_size > (SIZE_MAX - sizeof(rip_chan)) / capacity)) {
        errno = EINVAL;
        return NULL;
    }
    rip_chan *c = calloc(1, sizeof *c + elem_size * capacity);
    if (!c)
        return NULL;
    c->elem_size = elem_size;
    c->capacity = capacity;
    c->owner = &rip__runq;
    return c;
}

/* The whole send; rip__chan_send_try inlines its common cases and comes
 * here for the rest (a closed channel, room in the buffer, a channel of
 * another worker, a task with a deadline).  Same order as the try's. */
int rip__chan_send(rip_chan *c, const void *elem, rip_waiter *w) {
    rip_waiter *r;
    rip__check_owner(c->owner, "channel");
    if (c->closed) {
        errno = EPIPE;
        return -1;
    }
    if ((r = rip__wl_pop(&c->receivers))) { /* open and empty: hand it over */
        rip__copy_elem(r->elem, elem, c->elem_size);
        r->status = 1;
        rip__ready(r->task);
        return 0;
    }
    if (c->count < c->capacity) {
        rip__copy_elem(slot(c, c->count), elem, c->elem_size);
        c->count++;
        return 0;
    }
    if (rip__deadline_passed()) {
        errno = ETIMEDOUT;
        return -1;
    }
    w->task = rip__current();
    w->elem = (void *)elem;
    rip__wl_push(&c->senders, w);
    rip__wait_limit(w, rip__wl_cancel, &c->senders, 0);
    return RIP_WAIT;
}

/* The same for a receive. */
int rip__chan_recv(rip_chan *c, void *elem, rip_waiter *w) {
    rip_waiter *s;
    rip__check_owner(c->owner, "channel");
    if (c->count) {
        rip__copy_elem(elem, slot(c, 0), c->elem_size);
        c->head = (c->head + 1) % c->capacity;
        c->count--;
        if ((s = rip__wl_pop(&c->senders))) {
            rip__copy_elem(slot(c, c->count), s->elem, c->elem_size); /* refill the freed slot */
            c->count++;
            s->status = 0;
            rip__ready(s->task);
        }
        return 1;
    }
    if ((s = rip__wl_pop(&c->senders))) {  /* a rendezvous */
        rip__copy_elem(elem, s->elem, c->elem_size);
        s->status = 0;
        rip__ready(s->task);
        return 1;
    }
    if (c->closed)
        return 0;
    if (rip__deadline_passed()) {
        errno = ETIMEDOUT;
        return -1;
    }
    w->task = rip__current();
    w->elem = elem;
    rip__wl_push(&c->receivers, w);
    rip__wait_limit(w, rip__wl_cancel, &c->receivers, 0);
    return RIP_WAIT;
}

int rip__chan_sent(rip_waiter *w) {
    rip__wait_ended(w);
    if (w->status == -1)
        errno = EPIPE;              /* closed while it waited */
    else if (w->status == ETIMEDOUT)
        errno = ETIMEDOUT;
    return w->status ? -1 : 0;
}

int rip__chan_received(rip_waiter *w) {
    rip__wait_ended(w);
    if (w->status == ETIMEDOUT) {
        errno = ETIMEDOUT;
        return -1;
    }
    return w->status;
}

void rip_chan_close(rip_chan *c) {
    rip_waiter *w;
    rip__check_owner(c->owner, "channel");
    if (c->closed)
        return;
    c->closed = 1;
    while ((w = rip__wl_pop(&c->receivers))) {
        w->status = 0;
        rip__ready(w->task);
    }
    while ((w = rip__wl_pop(&c->senders))) {
        w->status = -1;             /* rip__chan_sent sets errno when the sender runs */
        rip__ready(w->task);
    }
}

void rip_chan_free(rip_chan *c) {
    if (!c)
        return;
    if (c->senders.head || c->receivers.head)
        rip__fatal("rip_chan_free: tasks still wait on the channel (close it, let them run, then free)");
    free(c);
}

/* chan.c -- channels for the rip and ucontext backends: a ring buffer of
 * `capacity` elements plus FIFO lists of waiting senders and receivers.
 * Capacity 0 is a rendezvous: a sender waits until a receiver takes its
 * value straight from the sender's element. */
#include <errno.h>
#include <string.h>
#include "core.h"

struct rip_chan {
    size_t elem_size;               /* bytes per element */
    size_t capacity;                /* ring buffer slots; 0 = rendezvous */
    size_t head;                    /* slot of the oldest buffered element */
    size_t count;                   /* buffered elements */
    int closed;                     /* rip_chan_close was called */
    struct rip_sched *owner;        /* the scheduler (worker) that made it */
    rip_waitlist senders;           /* waiting senders */
    rip_waitlist receivers;         /* waiting receivers */
    unsigned char buf[];            /* capacity * elem_size bytes */
};

/* memcpy of one element: the common sizes as single moves, since a call
 * into libc was a tenth of a ping-pong switch. */
static inline void copy_elem(void *to, const void *from, size_t size) {
    switch (size) {
    case 1: __builtin_memcpy(to, from, 1); break;
    case 2: __builtin_memcpy(to, from, 2); break;
    case 4: __builtin_memcpy(to, from, 4); break;
    case 8: __builtin_memcpy(to, from, 8); break;
    case 16: __builtin_memcpy(to, from, 16); break;
    default: memcpy(to, from, size);
    }
}

static unsigned char *slot(rip_chan *c, size_t i) {
    return c->buf + ((c->head + i) % c->capacity) * c->elem_size;
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
    c->owner = &rip__sched;
    return c;
}

int rip__chan_send(rip_chan *c, const void *elem, rip_waiter *w) {
    rip__check_owner(c->owner, "channel");
    if (c->closed) {
        errno = EPIPE;
        return -1;
    }
    rip_waiter *r = rip__wl_pop(&c->receivers);
    if (r) {                        /* hand over and go on */
        copy_elem(r->elem, elem, c->elem_size);
        r->status = 1;
        rip__ready(r->task);
        return 0;
    }
    if (c->count < c->capacity) {
        copy_elem(slot(c, c->count), elem, c->elem_size);
        c->count++;
        return 0;
    }
    w->task = rip__current();
    w->elem = (void *)elem;
    rip__wl_push(&c->senders, w);
    return RIP_WAIT;
}

int rip__chan_recv(rip_chan *c, void *elem, rip_waiter *w) {
    rip__check_owner(c->owner, "channel");
    rip_waiter *s;
    if (c->count) {
        copy_elem(elem, slot(c, 0), c->elem_size);
        c->head = (c->head + 1) % c->capacity;
        c->count--;
        if ((s = rip__wl_pop(&c->senders))) {
            copy_elem(slot(c, c->count), s->elem, c->elem_size); /* refill the freed slot */
            c->count++;
            s->status = 0;
            rip__ready(s->task);
        }
        return 1;
    }
    if ((s = rip__wl_pop(&c->senders))) { /* rendezvous */
        copy_elem(elem, s->elem, c->elem_size);
        s->status = 0;
        rip__ready(s->task);
        return 1;
    }
    if (c->closed)
        return 0;
    w->task = rip__current();
    w->elem = elem;
    rip__wl_push(&c->receivers, w);
    return RIP_WAIT;
}

int rip__chan_sent(rip_waiter *w) {
    if (w->status == -1)
        errno = EPIPE;              /* closed while it waited */
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

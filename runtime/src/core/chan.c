/* chan.c -- channels for the rip and ucontext backends: a ring buffer of
 * `capacity` elements plus FIFO lists of waiting senders and receivers.
 * Capacity 0 is a rendezvous: a sender waits until a receiver takes its
 * value straight from the sender's element. */
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include "core.h"

/* struct rip_chan is in rip_frame.h: ripped code inlines the hand-over
 * and the wait (rip__chan_send_try, rip__chan_recv_try), and comes here
 * for the rest.  Its ring buffer follows it in the same block. */
static unsigned char *slot(rip_chan *c, size_t i) {
    return (unsigned char *)(c + 1) + ((c->head + i) % c->capacity) * c->elem_size;
}

/* Every channel of the thread, for rip_dump_tasks (dump.c): a link in
 * the same block, before the channel (struct rip_chan is the frame ABI's
 * and stays as it is); made and unmade with the channel, nothing more. */
typedef struct chan_link chan_link;
struct chan_link {
    chan_link *next;                /* the thread's next channel */
    chan_link **pprev;              /* the pointer to this link */
};
_Static_assert(sizeof(chan_link) % 16 == 0, "the channel after the link stays 16-aligned");
static __thread chan_link *chans;   /* the thread's channels, newest first */

void rip__chan_each(void (*fn)(rip_chan *c, void *ctx), void *ctx) {
    for (chan_link *l = chans; l; l = l->next)
        fn((rip_chan *)(l + 1), ctx);
}

rip_chan *rip_chan_new(size_t elem_size, size_t capacity) {
    if (elem_size == 0 ||
        (capacity && elem_size > (SIZE_MAX - sizeof(rip_chan) - sizeof(chan_link)) / capacity)) {
        errno = EINVAL;
        return NULL;
    }
    chan_link *l = calloc(1, sizeof *l + sizeof(rip_chan) + elem_size * capacity);
    if (!l)
        return NULL;
    if ((l->next = chans))
        chans->pprev = &l->next;
    l->pprev = &chans;
    chans = l;
    rip_chan *c = (rip_chan *)(l + 1);
    c->elem_size = elem_size;
    c->capacity = capacity;
    c->owner = &rip__runq;
    return c;
}

/* A waiter taken off a channel's list is done with `status`: a plain one
 * is woken; one of a select's settles the select (select_fired). */
static void select_fired(rip_waiter *w, int status);
static void done(rip_waiter *w, int status) {
    if (w->mark) {
        select_fired(w, status);
        return;
    }
    w->status = status;
    rip__ready(w->task);
}

/* A send that does not wait: 0, -1 and EPIPE (closed), or RIP_WAIT (it
 * would have to).  Same order as rip__chan_send_try's. */
static int send_now(rip_chan *c, const void *elem) {
    rip_waiter *r;
    rip__check_owner(c->owner, "channel");
    if (c->closed) {
        errno = EPIPE;
        return -1;
    }
    if ((r = rip__wl_pop(&c->receivers))) { /* open and empty: hand it over */
        rip__copy_elem(r->elem, elem, c->elem_size);
        done(r, 1);
        return 0;
    }
    if (c->count < c->capacity) {
        rip__copy_elem(slot(c, c->count), elem, c->elem_size);
        c->count++;
        return 0;
    }
    return RIP_WAIT;
}

/* A receive that does not wait: 1, 0 (closed and empty), or RIP_WAIT. */
static int recv_now(rip_chan *c, void *elem) {
    rip_waiter *s;
    rip__check_owner(c->owner, "channel");
    if (c->count) {
        rip__copy_elem(elem, slot(c, 0), c->elem_size);
        c->head = (c->head + 1) % c->capacity;
        c->count--;
        if ((s = rip__wl_pop(&c->senders))) {
            rip__copy_elem(slot(c, c->count), s->elem, c->elem_size); /* refill the freed slot */
            c->count++;
            done(s, 0);
        }
        return 1;
    }
    if ((s = rip__wl_pop(&c->senders))) {  /* a rendezvous */
        rip__copy_elem(elem, s->elem, c->elem_size);
        done(s, 0);
        return 1;
    }
    return c->closed ? 0 : RIP_WAIT;
}

int rip_chan_try_send(rip_chan *c, const void *elem) {
    int r = send_now(c, elem);
    if (r == RIP_WAIT) {
        errno = EAGAIN;
        return -1;
    }
    return r;
}

int rip_chan_try_recv(rip_chan *c, void *elem) {
    int r = recv_now(c, elem);
    if (r == RIP_WAIT) {
        errno = EAGAIN;
        return -1;
    }
    return r;
}

/* Queue the current task's w on l, under its deadline: RIP_WAIT, or -1
 * and ETIMEDOUT when the deadline has passed. */
static int queue(rip_waitlist *l, rip_waiter *w, void *elem) {
    if (rip__deadline_passed()) {
        errno = ETIMEDOUT;
        return -1;
    }
    w->task = rip__current();
    w->elem = elem;
    w->mark = 0;
    rip__wl_push(l, w);
    rip__wait_limit(w, rip__wl_cancel, l, 0);
    return RIP_WAIT;
}

/* The whole send; rip__chan_send_try inlines its common cases and comes
 * here for the rest (a closed channel, room in the buffer, a channel of
 * another worker, anything while rip__runq.fast is NULL). */
int rip__chan_send(rip_chan *c, const void *elem, rip_waiter *w) {
    int r = send_now(c, elem);
    return r == RIP_WAIT ? queue(&c->senders, w, (void *)elem) : r;
}

/* The same for a receive. */
int rip__chan_recv(rip_chan *c, void *elem, rip_waiter *w) {
    int r = recv_now(c, elem);
    return r == RIP_WAIT ? queue(&c->receivers, w, elem) : r;
}

/* Select (rip_chan_select): a waiter per case, all queued at once; the
 * first a channel takes settles the select and takes the others off.  The
 * group lives on the heap while the task waits; a waiter finds it from its
 * case (mark - 1): the waiters are the group's array. */
typedef struct {
    rip_task *task;                 /* the selecting task */
    rip_chan_case *cases;           /* the caller's cases */
    int n;                          /* their number */
    int fired;                      /* the case done, -1 while none, -2 when the timer came first */
    rip_waiter w[];                 /* one per case (unused for a NULL channel) */
} select_group;

static select_group *group_of(rip_waiter *w) {
    rip_waiter *first = w - (w->mark - 1);
    return (select_group *)(void *)((char *)first - offsetof(select_group, w));
}

static rip_waitlist *list_of(rip_chan_case *k) {
    return k->send ? &k->chan->senders : &k->chan->receivers;
}

/* Take every waiter of g but `except` off its channel. */
static void take_off(select_group *g, int except) {
    for (int i = 0; i < g->n; i++)
        if (i != except && g->cases[i].chan)
            rip__wl_cancel(&g->w[i], list_of(&g->cases[i]), 0);
}

static void select_fired(rip_waiter *w, int status) {
    select_group *g = group_of(w);
    int k = w->mark - 1;
    rip_assert(g->fired == -1);     /* the others were taken off when one fired */
    g->fired = k;
    g->cases[k].result = status;    /* a send's -1 (closed): EPIPE when the select returns */
    take_off(g, k);
    rip__ready(g->task);
}

/* The select's timer came: every waiter off, the task to be woken. */
static int select_cancel(rip_waiter *w, void *on, int key) {
    select_group *g = on;
    (void)w, (void)key;
    if (g->fired != -1)
        return 0;
    g->fired = -2;
    take_off(g, -1);
    return 1;
}

/* A case that can be done at once, tried from a turn that moves on each
 * select (a per-scheduler sequence: the same in rip and ucontext), so no
 * ready case is starved: its index, or -1. */
static int select_now(rip_chan_case *cases, int n) {
    static __thread uint32_t turn = 2463534242u;
    turn ^= turn << 13;
    turn ^= turn >> 17;
    turn ^= turn << 5;
    int first = (int)(turn % (uint32_t)n);
    for (int j = 0; j < n; j++) {
        int i = (first + j) % n;
        rip_chan_case *k = &cases[i];
        if (!k->chan)
            continue;
        int r = k->send ? send_now(k->chan, k->elem) : recv_now(k->chan, k->elem);
        if (r != RIP_WAIT) {
            k->result = r;
            return i;
        }
    }
    return -1;
}

static int select_finish(rip_selectop *op, int result, int err) {
    op->result = result;
    op->err = err;
    return 1;
}

int rip__select_step(rip_selectop *op) {
    if (op->group) {                /* woken */
        select_group *g = op->group;
        op->group = NULL;
        rip__slow(-1);
        if (op->timer.w)            /* woken before the timer */
            rip__timer_cancel(&op->timer);
        int fired = g->fired;
        free(g);
        if (fired >= 0)
            return select_finish(op, fired, op->cases[fired].result == -1 ? EPIPE : 0);
        return select_finish(op, -1, op->by_deadline ? ETIMEDOUT : EAGAIN);
    }
    if (op->n < 1)
        return select_finish(op, -1, EINVAL);
    int64_t now = rip_now_ms(), deadline = rip__deadline(rip__current());
    int64_t until = op->timeout_ms >= 0 ? now + op->timeout_ms : -1;
    int i = select_now(op->cases, op->n);
    if (i >= 0)
        return select_finish(op, i, op->cases[i].result == -1 ? EPIPE : 0);
    if (op->timeout_ms == 0)
        return select_finish(op, -1, EAGAIN);
    if (deadline >= 0 && now >= deadline)
        return select_finish(op, -1, ETIMEDOUT);
    select_group *g = malloc(sizeof *g + (size_t)op->n * sizeof(rip_waiter));
    if (!g)
        return select_finish(op, -1, ENOMEM);
    g->task = rip__current();
    g->cases = op->cases;
    g->n = op->n;
    g->fired = -1;
    for (int k = 0; k < op->n; k++) {
        if (!op->cases[k].chan)
            continue;
        g->w[k].task = g->task;
        g->w[k].elem = op->cases[k].elem;
        g->w[k].mark = k + 1;
        rip__wl_push(list_of(&op->cases[k]), &g->w[k]);
    }
    op->group = g;
    rip__slow(1);                   /* channel operations now look for select waiters */
    op->by_deadline = deadline >= 0 && (until < 0 || deadline < until);
    op->timer.w = NULL;
    if (op->by_deadline || until >= 0) {
        op->timeout.status = 0;
        op->timer.w = &op->timeout;
        op->timer.cancel = select_cancel;
        op->timer.on = g;
        op->timer.key = 0;
        rip__timer_start(&op->timer, op->by_deadline ? deadline : until);
    }
    return 0;
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
    while ((w = rip__wl_pop(&c->receivers)))
        done(w, 0);
    while ((w = rip__wl_pop(&c->senders)))
        done(w, -1);                /* rip__chan_sent sets errno when the sender runs */
}

void rip_chan_free(rip_chan *c) {
    if (!c)
        return;
    if (c->senders.head || c->receivers.head)
        rip__fatal("rip_chan_free: tasks still wait on the channel (close it, let them run, then free)");
    chan_link *l = (chan_link *)c - 1;
    if ((*l->pprev = l->next))
        l->next->pprev = l->pprev;
    free(l);
}

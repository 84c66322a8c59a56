/* rip_frame.h -- the frame ABI between ripped code and the rip runtime.
 *
 * ripper preprocesses every file it rips with this header included first
 * (-include), so ripped code carries it as text: it includes nothing,
 * declares only names in the `rip__` space rip.h reserves (and the macro
 * RIP_RIPPED), so no program's own names meet them, and compiles under
 * every -std from c89 to c2x.  The Python side of the ABI is
 * ripper/abi.py; ripped output checks that the sizes it was generated
 * for are the ones below.
 *
 * ripper turns every async function `T f(A a)` into three things:
 *
 *   struct rip__frame_f { struct rip__frame rip__hdr; T rip__result; A a; ...locals... };
 *   struct rip__frame *rip__new_f(A a);     constructor: allocates, stores args
 *   static int rip__resume_f(struct rip__frame *self, struct rip__frame *done);
 *
 * The resume entry runs f from resume point `state` until f returns (it
 * writes rip__result and returns 1) or suspends (it sets state to the point
 * to continue at and returns 0).  The result slot always comes first after
 * the 24-byte header (at 24, or 32 for a 16-aligned T), so a caller reads
 * it at that offset whatever the callee's other fields are.
 *
 * A call `x = f(a)` inside an async function is
 *
 *     child = rip__new_f(a);
 *     if (!rip__call(self, child)) {           // callee suspended
 *         self->state = 3; return 0;
 *     }
 *   resume_3:                                  // child == done here
 *     x = <child's result>; rip__frame_free(child);
 *
 * The runtime's commonest primitives are not called this way but inlined:
 * see the intrinsics at the end.
 *
 * rip__call starts the callee at once on the same C stack: a callee that
 * returns without suspending costs one indirect call and no trip through
 * the scheduler.  Only a real suspension unwinds: each level returns to
 * its caller, which links child->parent and returns in turn.  The runtime
 * primitive that suspended recorded itself as the task's innermost frame;
 * the scheduler later resumes that frame, and every time a frame finishes
 * it resumes the parent with the finished frame as `done`, until a frame
 * suspends again or the task's first frame finishes.
 *
 * Costs (callgrind, x86-64, gcc -O2; `make bench-runtime` has the times):
 * a frame is the 24-byte header plus the callee's live locals, rounded to
 * 8 bytes, from a per-thread free list per size class (pool.c: no lock,
 * no malloc once warm).  A call that returns without suspending is an
 * inline pop, the header and argument stores, a direct call (gcc
 * devirtualizes the resume entry the inline allocation just stored) and
 * an inline push: about 30 instructions with the callee's own.  A resume
 * from the scheduler is one indirect call plus the dispatch switch on
 * `state`; a yield pair switch is about 42 instructions in all, scheduler
 * loop included, and a rendezvous ping-pong switch about 114 (the channel
 * inline).  A task is its first frame plus 8 bytes (sched.c). */
#ifndef RIP__FRAME_H
#define RIP__FRAME_H
#pragma GCC system_header

#define RIP_RIPPED 1                /* user code may ask which backend it is built for */

struct rip__frame {
    struct rip__frame *parent;      /* the frame waiting on this one (a task's first has none: sched.c) */
    int (*resume)(struct rip__frame *self, struct rip__frame *done); /* continues at `state`: 1 returned, 0 suspended */
    int state;                      /* resume point; 0 = start */
    unsigned size;                  /* bytes allocated, for the frame allocator */
};                                  /* 24 bytes, 8-aligned: a frame is 16-aligned only if a field needs it */

/* What rip_dump_tasks prints of a frame, found by its resume entry:
 * ripper emits one per async function into the section rip__fninfo, and
 * the runtime reads them all (__start_rip__fninfo..__stop_rip__fninfo)
 * only when it dumps; nothing on the hot path.  The runtime's own frames
 * have one with file NULL (not printed: the wait says what they do).
 * Each is 8-aligned by its own attribute, so that the compiler does not
 * align it more and leave gaps in the section's array. */
struct rip__fninfo {
    int (*resume)(struct rip__frame *self, struct rip__frame *done); /* the function's resume entry */
    const char *name;               /* the function's name in the source */
    const char *file;               /* the source file of its definition; NULL: the runtime's */
    const int *lines;               /* source line of each resume point, by state (state 0: the definition's) */
    int points;                     /* entries of lines */
};
#define RIP__FNINFO_SECTION "rip__fninfo"

/* Under AddressSanitizer (make SAN=1) a block in the pool is poisoned: a
 * use of a freed frame is reported as one. */
#if defined(__SANITIZE_ADDRESS__)
#define RIP__POOL_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RIP__POOL_ASAN 1
#endif
#endif
#ifdef RIP__POOL_ASAN
void __asan_poison_memory_region(void const volatile *addr, __SIZE_TYPE__ size);
void __asan_unpoison_memory_region(void const volatile *addr, __SIZE_TYPE__ size);
#define RIP__POOL_POISON(p, n) __asan_poison_memory_region((p), (n))
#define RIP__POOL_UNPOISON(p, n) __asan_unpoison_memory_region((p), (n))
#else
#define RIP__POOL_POISON(p, n) ((void)(p), (void)(n))
#define RIP__POOL_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/* The helpers of a ripped call (allocate, call, queue, free) are inline;
 * in a file ripped --all-async (rip_frame_all_async.h), where every call
 * of the file's own functions is a ripped one, they are out of line: a
 * testing mode pays a few instructions a call, and gcc compiles a large
 * file a fifth faster. */
#ifdef RIP__ALL_ASYNC
#define RIP__CALL_HELPER static __attribute__((__noinline__, __unused__))
#else
#define RIP__CALL_HELPER static __inline__
#endif

/* The thread's frame pool (pool.c): a free list per 8-byte size class up
 * to RIP__POOL_MAX bytes; blocks of a multiple of 16 bytes are 16-aligned
 * (a 16-aligned frame's size is one).  The fast paths are inline: a pop
 * and a push. */
#define RIP__POOL_GRAIN 8
#define RIP__POOL_MAX 512
enum { rip__frame_max_align = 16 };  /* no frame is aligned more (ripper refuses such locals); an enum: ripped code is preprocessed */
struct rip__pool {
    void *free[RIP__POOL_MAX / RIP__POOL_GRAIN]; /* free blocks by class; next in their first word */
    char *slab;                     /* unused rest of the current slab */
    __SIZE_TYPE__ slab_left;        /* its bytes */
    __SIZE_TYPE__ slabbed;          /* bytes of all slabs taken so far */
    struct rip__slab *slabs;        /* every slab, newest first (pool.c) */
};
extern __thread struct rip__pool rip__pool;
void *rip__pool_slow(__SIZE_TYPE__ bytes);  /* refill from a slab, or malloc above RIP__POOL_MAX */
void rip__pool_free_big(void *p);           /* free a block above RIP__POOL_MAX */
void rip__pool_end(int clean);              /* the run is over: free the slabs (clean), or keep them for the blocked tasks */

/* A 16-aligned block from the thread's pool; aborts when out of memory. */
RIP__CALL_HELPER void *rip__pool_alloc(__SIZE_TYPE__ size) {
    __SIZE_TYPE__ bytes = (size + RIP__POOL_GRAIN - 1) & ~(__SIZE_TYPE__)(RIP__POOL_GRAIN - 1);
    if (bytes <= RIP__POOL_MAX) {
        void **head = &rip__pool.free[bytes / RIP__POOL_GRAIN - 1];
        void *p = *head;
        if (p) {
            RIP__POOL_UNPOISON(p, bytes);
            *head = *(void **)p;
            return p;
        }
    }
    return rip__pool_slow(bytes);
}

/* Back to the pool (`size` as allocated). */
RIP__CALL_HELPER void rip__pool_free(void *p, __SIZE_TYPE__ size) {
    __SIZE_TYPE__ bytes = (size + RIP__POOL_GRAIN - 1) & ~(__SIZE_TYPE__)(RIP__POOL_GRAIN - 1);
    void **head;
    if (bytes > RIP__POOL_MAX) {
        rip__pool_free_big(p);
        return;
    }
    head = &rip__pool.free[bytes / RIP__POOL_GRAIN - 1];
    *(void **)p = *head;
    *head = p;
    RIP__POOL_POISON(p, bytes);
}

/* A frame from the pool: header set, state 0.  `parent` is left unset:
 * rip__call sets it when the frame suspends. */
RIP__CALL_HELPER void *rip__frame_alloc(__SIZE_TYPE__ size,
                                        int (*resume)(struct rip__frame *, struct rip__frame *)) {
    struct rip__frame *f = (struct rip__frame *)rip__pool_alloc(size);
    f->resume = resume;
    f->state = 0;
    f->size = (unsigned)size;
    return f;
}

/* A finished frame back to the pool. */
RIP__CALL_HELPER void rip__frame_free(struct rip__frame *f) {
    rip__pool_free(f, f->size);
}

/* The same, for a frame whose size the caller knows (a constant: the size
 * class is folded at compile time). */
RIP__CALL_HELPER void rip__frame_free_sized(struct rip__frame *f, __SIZE_TYPE__ size) {
    rip__pool_free(f, size);
}

/* Start `child` on this C stack: 1 if it returned, 0 if it suspended
 * (then the caller must save its state and return too). */
RIP__CALL_HELPER int rip__call(struct rip__frame *self, struct rip__frame *child) {
    if (child->resume(child, (struct rip__frame *)0))
        return 1;
    child->parent = self;
    return 0;
}

/* Copy n bytes to `to` and return it: a compound literal whose address a
 * ripped function keeps lives in its frame, copied there where C makes it. */
static __inline__ void *rip__copy(void *to, const void *from, __SIZE_TYPE__ n) {
    __builtin_memcpy(to, from, n);
    return to;
}

/* The scheduler core's task, wait list, run queue and channel (core.h,
 * chan.c use these very definitions), spelled here so that the commonest
 * channel operations inline into ripped code: a call into the runtime and
 * a general channel behind it was half a ping-pong switch. */
struct rip__task {
    __extension__ union {
        struct rip__task *next;     /* while queued: the run queue's link */
        long long ran_ms;           /* else: rip_now_ms() as the scheduler's turn it last ran in began (core.h rip__run_queue): a waiting task has waited since */
    };
    void *impl;                     /* the backend's: innermost frame (rip), context (ucontext) */
};
struct rip__waiter {
    struct rip__waiter *next;       /* next waiter of the same channel or wait group */
    struct rip__task *task;         /* the task to wake */
    void *elem;                     /* element to send from or receive into */
    int status;                     /* the operation's result, set before the wake */
    int mark;                       /* an fd wait: 1 while not yet checked against the epoll set (poll.c); a channel wait: 1 + its case in a select (select.c), 0 for a plain one */
};
struct rip__waitlist {
    struct rip__waiter *head;       /* oldest waiter */
    struct rip__waiter *tail;       /* newest waiter */
};
struct rip__runq {
    struct rip__task *head, *tail;  /* the run queue, FIFO */
    struct rip__task *current;      /* the running task */
    struct rip__runq *fast;         /* itself while no task has a deadline and no select waits (core.h rip__slow), else NULL: the inline channel paths run only for a channel whose owner equals it */
};
extern __thread struct rip__runq rip__runq; /* the thread's scheduler's (core/sched.c) */
struct rip_chan {                   /* rip.h's rip_chan */
    __SIZE_TYPE__ elem_size;        /* bytes per element */
    __SIZE_TYPE__ capacity;         /* ring buffer slots; 0 = rendezvous */
    __SIZE_TYPE__ head;             /* slot of the oldest buffered element */
    __SIZE_TYPE__ count;            /* buffered elements */
    int closed;                     /* rip_chan_close was called */
    struct rip__runq *owner;        /* the run queue of the worker that made it */
    struct rip__waitlist senders;   /* waiting senders */
    struct rip__waitlist receivers; /* waiting receivers */
};                                  /* the ring buffer follows: capacity * elem_size bytes */

static __inline__ struct rip__task *rip__current(void) { return rip__runq.current; }

/* Append t to the run queue. */
static __inline__ void rip__ready(struct rip__task *t) {
    struct rip__runq *q = &rip__runq;
    t->next = 0;
    if (q->tail)
        q->tail->next = t;
    else
        q->head = t;
    q->tail = t;
}

static __inline__ void rip__wl_push(struct rip__waitlist *l, struct rip__waiter *w) {
    w->next = 0;
    if (l->tail)
        l->tail->next = w;
    else
        l->head = w;
    l->tail = w;
}

static __inline__ struct rip__waiter *rip__wl_pop(struct rip__waitlist *l) {
    struct rip__waiter *w = l->head;
    if (w && !(l->head = w->next))
        l->tail = 0;
    return w;
}

/* One channel element: the common sizes as single moves (a call into libc,
 * or a jump table on the size, cost a tenth of a switch each). */
static __inline__ void rip__copy_elem(void *to, const void *from, __SIZE_TYPE__ size) {
    if (size == 8)
        __builtin_memcpy(to, from, 8);
    else if (size == 4)
        __builtin_memcpy(to, from, 4);
    else if (size == 16)
        __builtin_memcpy(to, from, 16);
    else
        __builtin_memcpy(to, from, size);
}

/* Intrinsics.  A direct call of rip_yield, rip_chan_send, rip_chan_recv or
 * rip_wg_wait in an async function is inlined into the caller's own resume
 * entry: no frame of its own, and a suspension that records the caller as
 * the task's innermost frame.  `x = rip_chan_recv(c, &v);` is
 *
 *     if ((rip__r = rip__chan_recv_try(c, &v, &F->rip__w)) == rip__waits) {
 *         self->state = 3; return rip__wait_in(self); // queued: unwind
 *       resume_3:                              // woken
 *         rip__r = rip__chan_recv_woken(&F->rip__w);
 *     }
 *     x = rip__r;
 *
 * and `rip_yield();` is `self->state = 4; return rip__yield_in(self);
 * resume_4: ;`.  The tries are the core's own operations (core.h): the
 * common cases of a channel (a hand-over to a waiting task, a wait) are
 * inline below, and the rest (a buffered element, a closed channel, a
 * channel of another worker) is a call.  The frame's one rip__w field
 * (added when the function has such a call) is its place in a wait list:
 * a frame waits at one point at a time. */
enum { rip__waits = 2 };            /* the core's RIP_WAIT: queued, the caller suspends */
struct rip__wait { void *opaque[4]; }; /* room for a struct rip__waiter */
struct rip_wg;
int rip__chan_send(struct rip_chan *c, const void *elem, struct rip__waiter *w); /* core.h: 0, -1, rip__waits */
int rip__chan_recv(struct rip_chan *c, void *elem, struct rip__waiter *w);       /* core.h: 1, 0, -1, rip__waits */
int rip__chan_sent(struct rip__waiter *w);     /* core.h: a woken sender's 0, or -1 and EPIPE or ETIMEDOUT */
int rip__chan_received(struct rip__waiter *w); /* core.h: a woken receiver's 1, 0, or -1 and ETIMEDOUT */
int rip__wg_wait(struct rip_wg *wg, struct rip__waiter *w);                      /* core.h: 0, -1, rip__waits */
int rip__wg_waited(struct rip__waiter *w);     /* core.h: a woken waiter's 0, or -1 and ETIMEDOUT */

/* Queue the task at the tail, to resume at self; 0. */
RIP__CALL_HELPER int rip__yield_in(struct rip__frame *self) {
    struct rip__task *t = rip__current();
    t->impl = self;
    rip__ready(t);
    return 0;
}

/* The task waits (queued by a try), to resume at self; 0. */
static __inline__ int rip__wait_in(struct rip__frame *self) {
    rip__current()->impl = self;
    return 0;
}

/* After the wait: 0, or -1 and EPIPE (closed while it waited) or
 * ETIMEDOUT.  A task with a deadline ends it in the core. */
static __inline__ int rip__chan_send_woken(struct rip__wait *w) {
    struct rip__waiter *me = (struct rip__waiter *)(void *)w;
    return __builtin_expect(me->status || !rip__runq.fast, 0) ? rip__chan_sent(me) : 0;
}

/* After the wait: 1, or 0 (closed), or -1 and ETIMEDOUT. */
static __inline__ int rip__chan_recv_woken(struct rip__wait *w) {
    struct rip__waiter *me = (struct rip__waiter *)(void *)w;
    return __builtin_expect(!rip__runq.fast, 0) ? rip__chan_received(me) : me->status;
}

/* A waiting receiver means the channel is open and empty: hand the
 * element over.  A full channel (every rendezvous one is) that is open
 * queues the sender.  Anything else is the core's, and everything while a
 * task has a deadline or a select waits (rip__runq.fast: a waiter may be
 * one of a select's, and a wait may need its deadline armed). */
static __inline__ int rip__chan_send_try(struct rip_chan *c, const void *elem, struct rip__wait *w) {
    struct rip__waiter *me = (struct rip__waiter *)(void *)w, *r;
    if (__builtin_expect(c->owner != rip__runq.fast, 0))
        return rip__chan_send(c, elem, me); /* the core's error: nothing else read first */
    if ((r = c->receivers.head) != 0) {
        rip__wl_pop(&c->receivers);
        rip__copy_elem(r->elem, elem, c->elem_size);
        r->status = 1;
        rip__ready(r->task);
        return 0;
    }
    if (c->count == c->capacity && !c->closed) {
        me->task = rip__current();
        me->elem = (void *)elem;
        me->mark = 0;
        rip__wl_push(&c->senders, me);
        return rip__waits;
    }
    return rip__chan_send(c, elem, me);
}

/* An empty channel: take a waiting sender's element (a rendezvous), or
 * queue the receiver while it is open.  Buffered elements are the core's,
 * and everything while !rip__runq.fast (as for a send). */
static __inline__ int rip__chan_recv_try(struct rip_chan *c, void *elem, struct rip__wait *w) {
    struct rip__waiter *me = (struct rip__waiter *)(void *)w, *s;
    if (__builtin_expect(c->owner != rip__runq.fast, 0) || c->count)
        return rip__chan_recv(c, elem, me);
    if ((s = c->senders.head) != 0) {
        rip__wl_pop(&c->senders);
        rip__copy_elem(elem, s->elem, c->elem_size);
        s->status = 0;
        rip__ready(s->task);
        return 1;
    }
    if (c->closed)
        return 0;
    me->task = rip__current();
    me->elem = elem;
    me->mark = 0;
    rip__wl_push(&c->receivers, me);
    return rip__waits;
}

static __inline__ int rip__wg_wait_try(struct rip_wg *wg, struct rip__wait *w) {
    return rip__wg_wait(wg, (struct rip__waiter *)(void *)w);
}

/* After the wait: 0, or -1 and ETIMEDOUT. */
static __inline__ int rip__wg_wait_woken(struct rip__wait *w) {
    struct rip__waiter *me = (struct rip__waiter *)(void *)w;
    return __builtin_expect(!rip__runq.fast, 0) ? rip__wg_waited(me) : 0;
}

#endif /* RIP__FRAME_H */

/* rip_frame.h -- the frame ABI between ripped code and the rip runtime.
 *
 * ripper turns every async function `T f(A a)` into three things:
 *
 *   struct f__frame { rip_frame rip_hdr; T rip_result; A a; ...locals... };
 *   rip_frame *f__rip(A a);            constructor: allocates, stores args
 *   static int f__resume(rip_frame *self, rip_frame *done);
 *
 * The resume entry runs f from resume point `state` until f returns (it
 * writes rip_result and returns 1) or suspends (it sets state to the point
 * to continue at and returns 0).  The result slot always comes first after
 * the 24-byte header (at 24, or 32 for a 16-aligned T), so a caller reads
 * it as RIP_RESULT(T, f) whatever the callee's other fields are.
 *
 * A call `x = f(a)` inside an async function is
 *
 *     child = f__rip(a);
 *     if (!rip_call(self, child)) {            // callee suspended
 *         self->state = 3; return 0;
 *     }
 *   resume_3:                                  // child == done here
 *     x = RIP_RESULT(T, child); rip_frame_free(child);
 *
 * (rip_frame_free_sized(child, sizeof(struct f__frame)) when f's frame
 * struct is known there).  The runtime's commonest primitives are not
 * called this way but inlined: see the intrinsics at the end.
 *
 * rip_call starts the callee at once on the same C stack: a callee that
 * returns without suspending costs one indirect call and no trip through
 * the scheduler.  Only a real suspension unwinds: each level returns to
 * its caller, which links child->parent and returns in turn.  The runtime
 * primitive that suspended recorded itself as the task's innermost frame;
 * the scheduler later resumes that frame, and every time a frame finishes
 * it resumes the parent with the finished frame as `done`, until a frame
 * suspends again or the task's first frame finishes.
 *
 * Costs (callgrind, x86-64, gcc -O2; `make bench-runtime` has the times):
 * a frame is the 24-byte header plus the callee's live locals (a
 * parameter the body only casts to void takes no room), rounded to 8
 * bytes, from a per-thread free list per size class (pool.c: no lock, no
 * malloc once warm).  A call that returns without suspending is an inline
 * pop, the header and argument stores, a direct call (gcc devirtualizes
 * the resume entry the inline allocation just stored) and an inline push:
 * about 30 instructions with the callee's own.  A resume from the
 * scheduler is one indirect call plus the dispatch switch on `state`; a
 * yield pair switch is about 43 instructions in all, scheduler loop
 * included.  A task is its first frame plus 8 bytes (sched.c). */
#ifndef RIP_FRAME_H
#define RIP_FRAME_H

#define RIP_RIPPED 1
#include "rip.h"
#include "../shared/san.h"

typedef struct rip_frame rip_frame;
typedef int rip_resume_fn(rip_frame *self, rip_frame *done); /* 1: returned, 0: suspended */

struct rip_frame {
    rip_frame *parent;              /* the frame waiting on this one (a task's first has none: sched.c) */
    rip_resume_fn *resume;          /* resume entry: continues at `state` */
    int state;                      /* resume point; 0 = start */
    unsigned size;                  /* bytes allocated, for the frame allocator */
};                                  /* 24 bytes, 8-aligned: a frame is 16-aligned only if a field needs it */

/* The callee's result slot: its first field, after the header. */
#define RIP_RESULT(T, f) (*(__typeof__(T) *)(void *)((char *)(f) + \
    ((sizeof(rip_frame) + __alignof__(__typeof__(T)) - 1) & ~(__alignof__(__typeof__(T)) - 1))))

/* The thread's frame pool (pool.c): a free list per 8-byte size class up
 * to RIP_POOL_MAX bytes; blocks of a multiple of 16 bytes are 16-aligned
 * (a 16-aligned frame's size is one).  The fast paths are inline: a pop
 * and a push.  Under AddressSanitizer (make SAN=1) a block in the pool is
 * poisoned: a use of a freed frame is reported as one. */
#define RIP_POOL_GRAIN 8
#define RIP_POOL_MAX 512
struct rip_pool {
    void *free[RIP_POOL_MAX / RIP_POOL_GRAIN]; /* free blocks by class; next in their first word */
    char *slab;                     /* unused rest of the current slab */
    size_t slab_left;               /* its bytes */
    size_t slabbed;                 /* bytes of all slabs taken so far */
    struct rip_slab *slabs;         /* every slab, newest first (pool.c) */
};
extern __thread struct rip_pool rip__pool;
void *rip__pool_slow(size_t bytes);                         /* refill from a slab, or malloc above RIP_POOL_MAX */
void rip__pool_free_big(void *p);                           /* free a block above RIP_POOL_MAX */
void rip__pool_end(int clean);                              /* the run is over: free the slabs (clean), or keep them for the blocked tasks */

/* A 16-aligned block from the thread's pool; aborts when out of memory. */
static inline void *rip__pool_alloc(size_t size) {
    size_t bytes = (size + RIP_POOL_GRAIN - 1) & ~(size_t)(RIP_POOL_GRAIN - 1);
    if (bytes <= RIP_POOL_MAX) {
        void **head = &rip__pool.free[bytes / RIP_POOL_GRAIN - 1];
        void *p = *head;
        if (p) {
            RIP_UNPOISON(p, bytes);
            *head = *(void **)p;
            return p;
        }
    }
    return rip__pool_slow(bytes);
}

/* Back to the pool (`size` as allocated). */
static inline void rip__pool_free(void *p, size_t size) {
    size_t bytes = (size + RIP_POOL_GRAIN - 1) & ~(size_t)(RIP_POOL_GRAIN - 1);
    if (bytes > RIP_POOL_MAX) {
        rip__pool_free_big(p);
        return;
    }
    void **head = &rip__pool.free[bytes / RIP_POOL_GRAIN - 1];
    *(void **)p = *head;
    *head = p;
    RIP_POISON(p, bytes);
}

/* A frame from the pool: header set, state 0.  `parent` is left unset:
 * rip_call sets it when the frame suspends. */
static inline void *rip_frame_alloc(size_t size, rip_resume_fn *resume) {
    rip_frame *f = (rip_frame *)rip__pool_alloc(size);
    f->resume = resume;
    f->state = 0;
    f->size = (unsigned)size;
    return f;
}

/* A finished frame back to the pool. */
static inline void rip_frame_free(rip_frame *f) {
    rip__pool_free(f, f->size);
}

/* The same, for a frame whose size the caller knows (a constant: the size
 * class is folded at compile time). */
static inline void rip_frame_free_sized(rip_frame *f, size_t size) {
    rip__pool_free(f, size);
}

/* Start `child` on this C stack: 1 if it returned, 0 if it suspended
 * (then the caller must save its state and return too). */
static inline int rip_call(rip_frame *self, rip_frame *child) {
    if (child->resume(child, (rip_frame *)0))
        return 1;
    child->parent = self;
    return 0;
}

/* Constructors of the runtime's async functions: for calls through a
 * pointer and from macros (see the intrinsics below for direct calls). */
rip_frame *rip_yield__rip(void);
rip_frame *rip_sleep_ms__rip(int64_t ms);
rip_frame *rip_read__rip(int fd, void *buf, size_t len);
rip_frame *rip_write__rip(int fd, const void *buf, size_t len);
rip_frame *rip_accept__rip(int fd, struct sockaddr *addr, socklen_t *len);
rip_frame *rip_connect__rip(int fd, const struct sockaddr *addr, socklen_t len);
rip_frame *rip_chan_send__rip(rip_chan *c, const void *elem);
rip_frame *rip_chan_recv__rip(rip_chan *c, void *elem);
rip_frame *rip_wg_wait__rip(rip_wg *wg);
rip_frame *rip_offload__rip(void *(*fn)(void *), void *arg);

/* Intrinsics.  A direct call of rip_yield, rip_chan_send, rip_chan_recv or
 * rip_wg_wait in an async function is inlined into the caller's own resume
 * entry: no frame of its own, and a suspension that records the caller as
 * the task's innermost frame.  `x = rip_chan_recv(c, &v);` is
 *
 *     if ((rip_r = rip__chan_recv_try(c, &v, &F->rip_w)) == RIP_WAITS) {
 *         self->state = 3; return rip__wait_in(self); // queued: unwind
 *       resume_3:                              // woken
 *         rip_r = rip__chan_recv_woken(&F->rip_w);
 *     }
 *     x = rip_r;
 *
 * and `rip_yield();` is `self->state = 4; return rip__yield_in(self);
 * resume_4: ;`.  The tries are the core's own operations (core.h), and
 * the calls that suspend are tail calls.  The frame's one rip_w field
 * (added when the function has such a call) is its place in a wait list:
 * a frame waits at one point at a time. */
#define RIP_WAITS 2                 /* the core's RIP_WAIT: queued, the caller suspends */
typedef struct { void *rip_opaque[4]; } rip_wait; /* room for a core.h rip_waiter */
struct rip_waiter;
int rip__chan_send(rip_chan *c, const void *elem, struct rip_waiter *w); /* core.h: 0, -1, RIP_WAITS */
int rip__chan_recv(rip_chan *c, void *elem, struct rip_waiter *w);       /* core.h: 1, 0, RIP_WAITS */
int rip__wg_wait(rip_wg *wg, struct rip_waiter *w);                      /* core.h: 0, RIP_WAITS */
int rip__yield_in(rip_frame *self);         /* queue the task at the tail, to resume at self; 0 */
int rip__wait_in(rip_frame *self);          /* the task waits (queued by a try), to resume at self; 0 */
int rip__chan_send_woken(rip_wait *w);      /* after the wait: 0, or -1 and EPIPE */
int rip__chan_recv_woken(rip_wait *w);      /* after the wait: 1, or 0 (closed) */

static inline int rip__chan_send_try(rip_chan *c, const void *elem, rip_wait *w) {
    return rip__chan_send(c, elem, (struct rip_waiter *)(void *)w);
}

static inline int rip__chan_recv_try(rip_chan *c, void *elem, rip_wait *w) {
    return rip__chan_recv(c, elem, (struct rip_waiter *)(void *)w);
}

static inline int rip__wg_wait_try(rip_wg *wg, rip_wait *w) {
    return rip__wg_wait(wg, (struct rip_waiter *)(void *)w);
}

#endif /* RIP_FRAME_H */

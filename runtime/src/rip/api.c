/* api.c -- the runtime's async functions as hand-written frames.  Each
 * resume entry tries the operation; when it must wait it records itself
 * as the task's innermost frame and returns; resumed, it finishes.
 * fd calls step through the shared rip_io attempts (core/io.c). */
#include <errno.h>
#include <unistd.h>
#include "rip_frame.h"
#include "core.h"

/* The current task waits in frame f, which will resume at state `next`. */
static void suspend(rip_frame *f, int next) {
    f->state = next;
    rip__current()->impl = f;
}

static void yield_resume(rip_frame *f, rip_frame *done) {
    (void)done;
    if (f->state == 0) {
        suspend(f, 1);
        rip__ready(rip__current());
        return;
    }
    f->state = RIP_DONE;
}

rip_frame *rip_yield__rip(void) {
    return rip_frame_alloc(sizeof(rip_frame), yield_resume);
}

struct sleep_frame {
    rip_frame hdr;
    int64_t ms;                     /* how long to sleep */
    rip_timer timer;                /* our place in the timer list */
};

static void sleep_resume(rip_frame *f, rip_frame *done) {
    struct sleep_frame *F = (struct sleep_frame *)f;
    (void)done;
    if (f->state == 0) {
        rip__sleep_begin(&F->timer, F->ms);
        suspend(f, 1);
        return;
    }
    f->state = RIP_DONE;
}

rip_frame *rip_sleep_ms__rip(int64_t ms) {
    struct sleep_frame *F = rip_frame_alloc(sizeof *F, sleep_resume);
    F->ms = ms;
    return &F->hdr;
}

struct chan_frame {
    rip_frame hdr;
    int result;                     /* RIP_RESULT slot */
    rip_chan *chan;                 /* the channel */
    void *elem;                     /* element sent or received */
    rip_waiter waiter;              /* our place in the channel's wait list */
};

static void chan_finish(struct chan_frame *F, int r) {
    if (r == RIP_WAIT) {
        suspend(&F->hdr, 1);
        return;
    }
    F->result = r;
    F->hdr.state = RIP_DONE;
}

static void send_resume(rip_frame *f, rip_frame *done) {
    struct chan_frame *F = (struct chan_frame *)f;
    (void)done;
    chan_finish(F, f->state == 0 ? rip__chan_send(F->chan, F->elem, &F->waiter)
                                 : rip__chan_sent(&F->waiter));
}

static void recv_resume(rip_frame *f, rip_frame *done) {
    struct chan_frame *F = (struct chan_frame *)f;
    (void)done;
    chan_finish(F, f->state == 0 ? rip__chan_recv(F->chan, F->elem, &F->waiter)
                                 : F->waiter.status);
}

static rip_frame *chan_frame(rip_resume_fn *resume, rip_chan *c, void *elem) {
    struct chan_frame *F = rip_frame_alloc(sizeof *F, resume);
    F->chan = c;
    F->elem = elem;
    return &F->hdr;
}

rip_frame *rip_chan_send__rip(rip_chan *c, const void *elem) {
    return chan_frame(send_resume, c, (void *)elem);
}

rip_frame *rip_chan_recv__rip(rip_chan *c, void *elem) {
    return chan_frame(recv_resume, c, elem);
}

struct wg_frame {
    rip_frame hdr;
    rip_wg *wg;                     /* the wait group */
    rip_waiter waiter;              /* our place in its wait list */
};

static void wg_resume(rip_frame *f, rip_frame *done) {
    struct wg_frame *F = (struct wg_frame *)f;
    (void)done;
    if (f->state == 0 && rip__wg_wait(F->wg, &F->waiter) == RIP_WAIT) {
        suspend(f, 1);
        return;
    }
    f->state = RIP_DONE;
}

rip_frame *rip_wg_wait__rip(rip_wg *wg) {
    struct wg_frame *F = rip_frame_alloc(sizeof *F, wg_resume);
    F->wg = wg;
    return &F->hdr;
}

/* fd calls: one rip_io step per resume, waiting on the fd between. */
struct io_frame {
    rip_frame hdr;
    union { ssize_t n; int i; } result; /* RIP_RESULT slot: n for read/write, i otherwise */
    rip_io op;                      /* the call in progress */
    rip_waiter waiter;              /* our place in the fd's wait list */
};

static void io_resume(rip_frame *f, rip_frame *done) {
    struct io_frame *F = (struct io_frame *)f;
    (void)done;
    if (!rip__io_step(&F->op, &F->waiter)) {
        suspend(f, 1);
        return;
    }
    if (F->op.kind == RIP_IO_READ || F->op.kind == RIP_IO_WRITE)
        F->result.n = F->op.result;
    else
        F->result.i = (int)F->op.result;
    errno = F->op.err;
    f->state = RIP_DONE;
}

static rip_frame *io_frame(rip_io op) {
    struct io_frame *F = rip_frame_alloc(sizeof *F, io_resume);
    F->op = op;
    return &F->hdr;
}

rip_frame *rip_read__rip(int fd, void *buf, size_t len) {
    return io_frame((rip_io){ .kind = RIP_IO_READ, .fd = fd, .buf = buf, .len = len });
}

rip_frame *rip_write__rip(int fd, const void *buf, size_t len) {
    return io_frame((rip_io){ .kind = RIP_IO_WRITE, .fd = fd, .buf = (void *)buf, .len = len });
}

rip_frame *rip_accept__rip(int fd, struct sockaddr *addr, socklen_t *len) {
    return io_frame((rip_io){ .kind = RIP_IO_ACCEPT, .fd = fd, .addr = addr, .addrlen = len });
}

rip_frame *rip_connect__rip(int fd, const struct sockaddr *addr, socklen_t len) {
    return io_frame((rip_io){ .kind = RIP_IO_CONNECT, .fd = fd, .caddr = addr, .caddrlen = len });
}

struct offload_frame {
    rip_frame hdr;
    void *result;                   /* RIP_RESULT slot */
    rip_job job;                    /* the job on the pool */
};

static void offload_resume(rip_frame *f, rip_frame *done) {
    struct offload_frame *F = (struct offload_frame *)f;
    (void)done;
    if (f->state == 0) {
        rip__offload_begin(&F->job, F->job.fn, F->job.arg);
        suspend(f, 1);
        return;
    }
    F->result = F->job.result;
    f->state = RIP_DONE;
}

rip_frame *rip_offload__rip(void *(*fn)(void *), void *arg) {
    struct offload_frame *F = rip_frame_alloc(sizeof *F, offload_resume);
    F->job.fn = fn;
    F->job.arg = arg;
    return &F->hdr;
}

size_t rip_set_stack_size(size_t bytes) {
    (void)bytes;                    /* frames, not stacks */
    return 0;
}

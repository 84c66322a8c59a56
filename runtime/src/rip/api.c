/* api.c -- the runtime's async functions: the intrinsics ripper inlines
 * into callers (rip_frame.h), and hand-written frames for every call that
 * is not inlined.  Each tries the operation; when it must wait it records
 * its frame as the task's innermost and returns; resumed, it finishes.
 * fd calls step through the shared rip_io attempts (core/io.c). */
#include <errno.h>
#include <unistd.h>
#include "rip_private.h"
#include "core.h"

/* The current task waits in frame f, which will resume at state `next`. */
static void suspend(rip_frame *f, int next) {
    f->state = next;
    rip__current()->impl = f;
}

/* The intrinsics are inline (rip_frame.h); the frames below use them too. */
_Static_assert(RIP_WAITS == RIP_WAIT, "the intrinsics' wait code is the core's");
_Static_assert(sizeof(rip_wait) >= sizeof(rip_waiter) &&
               _Alignof(rip_wait) >= _Alignof(rip_waiter), "rip_wait holds a rip_waiter");

static int yield_resume(rip_frame *f, rip_frame *done) {
    (void)done;
    if (f->state == 0) {
        f->state = 1;
        return rip__yield_in(f);
    }
    return 1;
}

rip_frame *rip__new_rip_yield(void) {
    return rip__frame_alloc(sizeof(rip_frame), yield_resume);
}

struct sleep_frame {
    rip_frame hdr;
    int64_t ms;                     /* how long to sleep */
    rip_timer timer;                /* our place in the timer list */
};

static int sleep_resume(rip_frame *f, rip_frame *done) {
    struct sleep_frame *F = (struct sleep_frame *)f;
    (void)done;
    if (f->state == 0) {
        rip__sleep_begin(&F->timer, F->ms);
        suspend(f, 1);
        return 0;
    }
    return 1;
}

rip_frame *rip__new_rip_sleep_ms(int64_t ms) {
    struct sleep_frame *F = rip__frame_alloc(sizeof *F, sleep_resume);
    F->ms = ms;
    return &F->hdr;
}

/* Channel operations and wait-group waits through a pointer or a macro:
 * a frame around the intrinsic. */
struct wait_frame {
    rip_frame hdr;
    int result;                     /* RIP_RESULT slot */
    void *obj;                      /* the channel or wait group */
    void *elem;                     /* element sent or received */
    rip_wait w;                     /* our place in its wait list */
};

static int wait_finish(struct wait_frame *F, int r) {
    if (r == RIP_WAITS) {
        F->hdr.state = 1;
        return rip__wait_in(&F->hdr);
    }
    F->result = r;
    return 1;
}

static int send_resume(rip_frame *f, rip_frame *done) {
    struct wait_frame *F = (struct wait_frame *)f;
    (void)done;
    return wait_finish(F, f->state == 0 ? rip__chan_send_try(F->obj, F->elem, &F->w)
                                        : rip__chan_send_woken(&F->w));
}

static int recv_resume(rip_frame *f, rip_frame *done) {
    struct wait_frame *F = (struct wait_frame *)f;
    (void)done;
    return wait_finish(F, f->state == 0 ? rip__chan_recv_try(F->obj, F->elem, &F->w)
                                        : rip__chan_recv_woken(&F->w));
}

static int wg_resume(rip_frame *f, rip_frame *done) {
    struct wait_frame *F = (struct wait_frame *)f;
    (void)done;
    return wait_finish(F, f->state == 0 ? rip__wg_wait_try(F->obj, &F->w)
                                        : rip__wg_wait_woken(&F->w));
}

static rip_frame *wait_frame(rip_resume_fn *resume, void *obj, void *elem) {
    struct wait_frame *F = rip__frame_alloc(sizeof *F, resume);
    F->obj = obj;
    F->elem = elem;
    return &F->hdr;
}

rip_frame *rip__new_rip_chan_send(rip_chan *c, const void *elem) {
    return wait_frame(send_resume, c, (void *)elem);
}

rip_frame *rip__new_rip_chan_recv(rip_chan *c, void *elem) {
    return wait_frame(recv_resume, c, elem);
}

rip_frame *rip__new_rip_wg_wait(rip_wg *wg) {
    return wait_frame(wg_resume, wg, NULL);
}

/* fd calls: one rip_io step per resume, waiting on the fd between. */
struct io_frame {
    rip_frame hdr;
    union { ssize_t n; int i; } result; /* RIP_RESULT slot: n for read/write, i otherwise */
    rip_io op;                      /* the call in progress */
    rip_waiter waiter;              /* our place in the fd's wait list */
};

static int io_resume(rip_frame *f, rip_frame *done) {
    struct io_frame *F = (struct io_frame *)f;
    (void)done;
    if (!rip__io_step(&F->op, &F->waiter)) {
        suspend(f, 1);
        return 0;
    }
    if (F->op.kind == RIP_IO_READ || F->op.kind == RIP_IO_WRITE)
        F->result.n = F->op.result;
    else
        F->result.i = (int)F->op.result;
    if (F->op.result < 0)
        errno = F->op.err;         /* success leaves errno alone, as the system calls do */
    return 1;
}

static rip_frame *io_frame(rip_io op) {
    struct io_frame *F = rip__frame_alloc(sizeof *F, io_resume);
    F->op = op;
    return &F->hdr;
}

rip_frame *rip__new_rip_read(int fd, void *buf, size_t len) {
    return io_frame((rip_io){ .kind = RIP_IO_READ, .fd = fd, .buf = buf, .len = len });
}

rip_frame *rip__new_rip_write(int fd, const void *buf, size_t len) {
    return io_frame((rip_io){ .kind = RIP_IO_WRITE, .fd = fd, .buf = (void *)buf, .len = len });
}

rip_frame *rip__new_rip_accept(int fd, struct sockaddr *addr, socklen_t *len) {
    return io_frame((rip_io){ .kind = RIP_IO_ACCEPT, .fd = fd, .addr = addr, .addrlen = len });
}

rip_frame *rip__new_rip_connect(int fd, const struct sockaddr *addr, socklen_t len) {
    return io_frame((rip_io){ .kind = RIP_IO_CONNECT, .fd = fd, .caddr = addr, .caddrlen = len });
}

/* The frame and resume of a call whose core op steps to its end
 * (step(&op): 1 done, 0 queued to wait), leaving op.result and op.err
 * (0: errno untouched; select's EPIPE comes with a case's result). */
#define STEP_FRAME(name, op_type, step)                                     \
    struct name##_frame {                                                   \
        rip_frame hdr;                                                      \
        int result;                 /* RIP_RESULT slot */                   \
        op_type op;                 /* the call in progress */              \
    };                                                                      \
    static int name##_resume(rip_frame *f, rip_frame *done) {               \
        struct name##_frame *F = (struct name##_frame *)f;                  \
        (void)done;                                                         \
        if (!step(&F->op)) {                                                \
            suspend(f, 1);                                                  \
            return 0;                                                       \
        }                                                                   \
        F->result = F->op.result;                                           \
        if (F->op.err)                                                      \
            errno = F->op.err;                                              \
        return 1;                                                           \
    }

STEP_FRAME(poll, rip_pollop, rip__poll_step)

rip_frame *rip__new_rip_poll(struct pollfd *fds, nfds_t n, int timeout_ms) {
    struct poll_frame *F = rip__frame_alloc(sizeof *F, poll_resume);
    F->op = (rip_pollop){ .fds = fds, .n = n, .timeout_ms = timeout_ms };
    return &F->hdr;
}

STEP_FRAME(select, rip_selectop, rip__select_step)

rip_frame *rip__new_rip_chan_select(rip_chan_case *cases, int n, int timeout_ms) {
    struct select_frame *F = rip__frame_alloc(sizeof *F, select_resume);
    F->op = (rip_selectop){ .cases = cases, .n = n, .timeout_ms = timeout_ms };
    return &F->hdr;
}

/* Mutex lock: the wait-group pattern (one wait, the unlocker hands over). */
static int mutex_lock_resume(rip_frame *f, rip_frame *done) {
    struct wait_frame *F = (struct wait_frame *)f;
    rip_waiter *w = (rip_waiter *)(void *)&F->w;
    (void)done;
    int r = f->state == 0 ? rip__mutex_lock(F->obj, w) : rip__mutex_locked(w);
    if (r == RIP_WAIT) {
        suspend(f, 1);
        return 0;
    }
    F->result = r;
    return 1;
}

rip_frame *rip__new_rip_mutex_lock(rip_mutex *m) {
    return wait_frame(mutex_lock_resume, m, NULL);
}

STEP_FRAME(cond, rip_condop, rip__cond_step)

rip_frame *rip__new_rip_cond_wait(rip_cond *c, rip_mutex *m) {
    struct cond_frame *F = rip__frame_alloc(sizeof *F, cond_resume);
    F->op = (rip_condop){ .c = c, .m = m };
    return &F->hdr;
}

struct offload_frame {
    rip_frame hdr;
    void *result;                   /* RIP_RESULT slot */
    rip_job job;                    /* the job on the pool */
};

static int offload_resume(rip_frame *f, rip_frame *done) {
    struct offload_frame *F = (struct offload_frame *)f;
    (void)done;
    if (f->state == 0) {
        if (rip__deadline_passed()) {
            F->result = NULL;
            errno = ETIMEDOUT;
            return 1;
        }
        if (rip__offload_begin(&F->job) == -1) {
            F->result = F->job.fn(F->job.arg); /* no fd for the pool's wakeup: run it in place */
            return 1;
        }
        suspend(f, 1);
        return 0;
    }
    rip__wait_ended(&F->job.wait);
    if (F->job.wait.status == ETIMEDOUT) {
        F->result = NULL;           /* dropped before it started */
        errno = ETIMEDOUT;
        return 1;
    }
    F->result = F->job.result;
    return 1;
}

rip_frame *rip__new_rip_offload(void *(*fn)(void *), void *arg) {
    struct offload_frame *F = rip__frame_alloc(sizeof *F, offload_resume);
    F->job.fn = fn;
    F->job.arg = arg;
    return &F->hdr;
}

size_t rip_set_stack_size(size_t bytes) {
    (void)bytes;                    /* frames, not stacks */
    return 0;
}

RIP__RUNTIME_FRAME(yield_resume, "rip_yield");
RIP__RUNTIME_FRAME(sleep_resume, "rip_sleep_ms");
RIP__RUNTIME_FRAME(send_resume, "rip_chan_send");
RIP__RUNTIME_FRAME(recv_resume, "rip_chan_recv");
RIP__RUNTIME_FRAME(wg_resume, "rip_wg_wait");
RIP__RUNTIME_FRAME(io_resume, "an fd call");
RIP__RUNTIME_FRAME(poll_resume, "rip_poll");
RIP__RUNTIME_FRAME(select_resume, "rip_chan_select");
RIP__RUNTIME_FRAME(mutex_lock_resume, "rip_mutex_lock");
RIP__RUNTIME_FRAME(cond_resume, "rip_cond_wait");
RIP__RUNTIME_FRAME(offload_resume, "rip_offload");

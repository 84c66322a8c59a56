/* sched.c -- tasks of the rip backend: a task is a chain of frames, and
 * running it is a trampoline over resume entries (see rip_frame.h). */
#include <stddef.h>
#include <string.h>
#include "rip_private.h"
#include "core.h"
#include "../shared/gdb_script.h"

/* A task and its first frame share one block: one allocation, no padding
 * between them.  The first frame has no parent, so when rip_task ends with
 * `impl` that word is the frame's parent word:
 *
 *     [rip_task.next][rip_task.impl = frame.parent][frame.resume] ...
 *
 * else the frame follows the whole rip_task.  A frame whose size is a
 * multiple of 16 may need 16-alignment: then the block may start with 8
 * bytes of padding. */
#define ROOM (offsetof(rip_task, impl) + sizeof(void *) == sizeof(rip_task) \
              ? offsetof(rip_task, impl) : sizeof(rip_task)) /* task bytes before the frame */
_Static_assert(offsetof(rip_frame, parent) == 0, "a frame's parent word comes first");

/* Where the first frame of `size` bytes sits in its task's block. */
static size_t frame_offset(size_t size) {
    size_t align = size % 16 ? 8 : 16;
    return (ROOM + align - 1) & ~(align - 1);
}

static rip_frame *first_frame(rip_task *t) {
    return (rip_frame *)((char *)t + ROOM);
}

/* The innermost frame of the current task has returned: resume each parent
 * with its finished child until one suspends or the task's first frame ends. */
static __attribute__((noinline)) void unwind(void) {
    rip_task *t = rip__current();
    rip_frame *f = t->impl, *first = first_frame(t), *parent;
    for (; f != first; f = parent) {
        parent = f->parent;
        t->impl = parent;           /* the innermost frame left, should it end in plain code (rip__task_gone) */
        if (!parent->resume(parent, f)) /* frees f */
            return;                 /* suspended: t->impl names the new innermost */
    }
    size_t at = frame_offset(f->size);
    rip__pool_free((char *)f - at, at + f->size);
    rip__task_ended();
}

/* The current task ends where it stands (pthread_exit): its frames from
 * `innermost` up to its first, each suspended (parent linked), go back to
 * the pool, and the task ends.  The caller returns 0 to the scheduler. */
void rip__task_exit(rip_frame *innermost) {
    rip_task *t = rip__current();
    rip_frame *f = innermost, *first = first_frame(t), *parent;
    for (; f != first; f = parent) {
        parent = f->parent;
        rip__frame_free(f);
    }
    size_t at = frame_offset(f->size);
    rip__pool_free((char *)f - at, at + f->size);
    rip__task_ended();
}

/* The current task ends in plain code (pthread_exit in a function called
 * through a pointer), which cannot return: its frames go, from the one it
 * was resumed at (its `impl`, the innermost with a parent link) up to its
 * first, and the C stack down to the scheduler loop that ran it is
 * dropped.  The frames its code made since it was resumed have no link
 * to them and stay lost to the pool (a few hundred bytes). */
void rip__task_gone(void) {
    rip__task_exit(rip__current()->impl);
    rip__sched_task_gone();
}

/* Resume the innermost frame; the common case, a suspension again, costs
 * one indirect call and a test. */
static inline void run(rip_task *t) {
    rip_frame *f = t->impl;
    if (__builtin_expect(f->resume(f, NULL), 0))
        unwind();
}

/* 64-aligned: where the scheduler loop fell moved a ping-pong switch by 3%. */
/* Core hook: nothing more to give back than malloc_trim does. */
void rip__backend_trim(void) {
}

__attribute__((aligned(64))) int rip__backend_run_queue(unsigned budget) {
    return rip__run_queue(budget, run);
}

void rip_spawn(rip_task_fn *fn, void *arg) {
    rip__spawn_check();
    rip_frame *made = fn(arg);      /* not started yet: nothing points into it */
    size_t size = made->size, at = frame_offset(size);
    rip_frame *f = (rip_frame *)((char *)rip__pool_alloc(at + size) + at);
    rip_task *t = (rip_task *)((char *)f - ROOM);
    memcpy(f, made, size);
    rip__frame_free(made);
    t->impl = f;
    rip__task_started(t);
}

/* A task parked in plain code (rip__park): it stands on the C stack, so
 * while it waits its innermost frame is this one, whose resume -- the
 * task readied by whatever it waits on: a waiter, a deadline's cancel --
 * only tells the nested scheduler below that the wait is over. */
struct park_frame {
    rip_frame hdr;                  /* resume = parked_resume */
    volatile int *woken;            /* rip__park's flag */
};

static int parked_resume(rip_frame *f, rip_frame *done) {
    (void)done;
    *((struct park_frame *)f)->woken = 1;
    return 0;                       /* "suspended": the task runs on below */
}

int rip__can_park(void) {
    return rip__current() != NULL && !rip__in_signal_handler();
}

void rip__park(const char *call) {
    rip_task *t = rip__current();
    volatile int woken = 0;
    struct park_frame parked = { .hdr = { .resume = parked_resume }, .woken = &woken };
    void *innermost = t->impl;
    t->impl = &parked.hdr;
    rip__sched_nested(&woken, call);
    t->impl = innermost;
}

rip_frame *rip__task_first_frame(struct rip__task *t) {
    return first_frame(t);
}

/* Ripped code links to this: code ripped for another layout of the frame
 * ABI (rip_frame.h; ripper/abi.py ABI_VERSION) fails to link, not to run. */
const char rip__abi_v3 = 0;

/* Every task has ended (0), and every frame is back in the pool; or the
 * tasks left are blocked forever (-1), their frames kept. */
int rip_run(rip_task_fn *fn, void *arg) {
    rip_spawn(fn, arg);
    int status = rip__sched_loop();
    rip__pool_end(status == 0);
    return status;
}

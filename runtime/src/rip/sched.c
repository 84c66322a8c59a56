/* sched.c -- tasks of the rip backend: a task is a chain of frames, and
 * running it is a trampoline over resume entries (see rip_frame.h). */
#include "rip_frame.h"
#include "core.h"

/* The innermost frame of the current task has returned: resume each parent
 * with its finished child until one suspends or the task's first frame ends. */
static __attribute__((noinline)) void unwind(void) {
    rip_task *t = rip__current();
    rip_frame *f = t->impl, *parent;
    while ((parent = f->parent)) {
        if (!parent->resume(parent, f)) /* frees f */
            return;                 /* suspended: t->impl names the new innermost */
        f = parent;
    }
    rip_frame_free(f);
    rip__pool_free(t, sizeof *t);
    rip__task_ended();
}

/* Resume the innermost frame; the common case, a suspension again, costs
 * one indirect call and a test. */
void rip__backend_run(rip_task *t) {
    rip_frame *f = t->impl;
    if (__builtin_expect(f->resume(f, NULL), 0))
        unwind();
}

void rip_spawn(rip_task_fn *fn, void *arg) {
    rip_task *t = rip__pool_alloc(sizeof *t);
    rip_frame *f = fn(arg);
    f->parent = NULL;
    t->impl = f;
    rip__task_started(t);
}

int rip_run(rip_task_fn *fn, void *arg) {
    rip_spawn(fn, arg);
    return rip__sched_loop();
}

/* sched.c -- tasks of the rip backend: a task is a chain of frames, and
 * running it is a trampoline over resume entries (see rip_frame.h). */
#include "rip_frame.h"
#include "core.h"

/* Resume the innermost frame; each finished frame resumes its parent. */
void rip__backend_run(rip_task *t) {
    rip_frame *f = t->impl, *done = NULL;
    for (;;) {
        f->resume(f, done);
        if (f->state != RIP_DONE)
            return;                 /* suspended: t->impl names the new innermost */
        done = f;
        f = f->parent;
        if (!f) {
            rip_frame_free(done);
            rip__pool_free(t, sizeof *t);
            rip__task_ended();
            return;
        }
    }
}

void rip_spawn(rip_task_fn *fn, void *arg) {
    rip_task *t = rip__pool_alloc(sizeof *t);
    t->impl = fn(arg);
    rip__task_started(t);
}

int rip_run(rip_task_fn *fn, void *arg) {
    rip_spawn(fn, arg);
    return rip__sched_loop();
}

/* dump.c -- the ucontext backend's part of rip_dump_tasks (core/dump.c).
 * A suspended task's stack holds its callers, but nothing here can walk
 * it honestly: the C library's backtrace() reads only the running stack,
 * and the frames of a swapped-out context have no unwind entry point the
 * runtime can rely on (code built without frame pointers).  So the dump
 * says what the task waits on, and that its chain is not available. */
#include "core.h"
#include "../core/dumpline.h"
#include "../shared/sys.h"

void rip__backend_chain(rip_dump_out *o, rip_task *t, int running) {
    rip_line l = rip__line_begin(o);
    (void)t, (void)running;
    rip__put_lit(&l, "    (call chain not available on this backend)");
    rip__line_end(o, &l);
}

void rip__backend_stats(struct rip_stats *st) {
    (void)st;                       /* no frames: stacks */
}

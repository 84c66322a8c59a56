/* offload.c -- rip_offload for the `threads` backend.
 *
 * A task is already a thread of its own, so fn runs right there, on the
 * task's stack (RIP_OFFLOAD_THREADS does not apply): other tasks go on
 * meanwhile, as they do while it blocks in any system call.  The task
 * counts as busy, so a long fn is never taken for a deadlock. */
#include <errno.h>

#include "threads.h"

void *rip_offload(void *(*fn)(void *), void *arg) {
    rip_thr_in_a_task(__func__);
    rip_thr_busy_begin();
    void *result = fn(arg);
    int saved = errno;
    rip_thr_busy_end();
    errno = saved;
    return result;
}

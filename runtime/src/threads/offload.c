/* offload.c -- rip_offload for the `threads` backend.
 *
 * A task is already a thread of its own, so fn runs right there, on the
 * task's stack (RIP_OFFLOAD_THREADS does not apply): other tasks go on
 * meanwhile, as they do while it blocks in any system call.  The task
 * counts as busy, so a long fn is never taken for a deadlock.  A job
 * starts at once here, so a deadline only stops one that has not: when
 * it has passed already (as on the other backends). */
#include <errno.h>

#include "threads.h"

void *rip_offload(void *(*fn)(void *), void *arg) {
    rip_thr_in_a_task(__func__);
    int64_t deadline = rip_thr_deadline();
    if (deadline >= 0 && rip_now_ms() >= deadline) {
        errno = ETIMEDOUT;
        return NULL;
    }
    rip_thr_busy_begin();
    rip_thr_wait_note(RIP_THR_OFFLOAD, NULL, 0, 0, 0);
    void *result = fn(arg);
    rip_thr_wait_note(RIP_THR_NONE, NULL, 0, 0, 0);
    int saved = errno;
    rip_thr_busy_end();
    errno = saved;
    return result;
}

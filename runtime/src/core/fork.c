/* fork.c -- fork(2) called in a task, on the rip and ucontext backends.
 * The child runs only the forking task's code path, as the child of a
 * threaded program runs only the forking thread: its scheduler drops
 * every other task (queued, sleeping, waiting on an fd), timer, fd wait
 * and offload job of the parent's, and makes its own epoll set and pool.
 * A task of the parent's parked on a channel, mutex or wait group is not
 * reachable from here: it stays parked, and if the child wakes it (a
 * send, an unlock) the run queue skips it (rip__fork_keeps).  Tasks the
 * child starts run as usual; `exit`, and the end of main or of the
 * forking task's function when it is the last, end the child. */
#include <pthread.h>
#include "core.h"
#include "../shared/sys.h"

#define S rip__sched

int rip__fork_keeps(const rip_task *t) {
    for (size_t i = 0; i < S.nkept; i++)
        if (S.kept[i] == t)
            return 1;
    return 0;
}

void rip__fork_kept_ends(const rip_task *t) {
    for (size_t i = 0; i < S.nkept; i++)
        if (S.kept[i] == t) {
            S.kept[i] = S.kept[--S.nkept];
            return;
        }
}

/* In the child, on the thread that forked: a task of this thread's
 * scheduler forked when one is current (a fork outside any task, or on
 * another thread, leaves nothing to drop). */
static void after_fork_in_child(void) {
    rip_task *me = rip__runq.current;
    if (!me)
        return;
    rip__sched_forked();
    rip__poll_forked();
    rip__offload_forked();
    if (!S.kept_cap) {
        S.kept = malloc(8 * sizeof *S.kept);
        if (!S.kept)
            rip__fatal("out of memory for the forked child's tasks");
        S.kept_cap = 8;
    }
    S.kept[0] = me;
    S.nkept = 1;
    S.forked = 1;
    rip__slow(1);                   /* off the fast path for good: the run queue looks at `kept` there only */
}

static void register_atfork(void) {
    pthread_atfork(NULL, NULL, after_fork_in_child);
}

void rip__fork_setup(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    rip__sys_pthread_once(&once, register_atfork);
}

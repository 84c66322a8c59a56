/* limits.h -- shared by every backend: RIP_MAX_TASKS, the most tasks one
 * scheduler (rip_run, or each worker of rip_run_workers) may have live.
 * A spawn past it ends the program with a message: a bound on memory, as
 * a server's fd limit bounds its connections. */
#ifndef RIP_LIMITS_H
#define RIP_LIMITS_H

#include <errno.h>
#include <stdlib.h>
#include "fatal.h"

/* RIP_MAX_TASKS from the environment, or -1 when unset (no limit); a
 * value that is no count of tasks is fatal. */
static inline long rip__max_tasks_env(void) {
    const char *env = getenv("RIP_MAX_TASKS");
    if (!env || !*env)
        return -1;
    char *end;
    errno = 0;
    long v = strtol(env, &end, 10);
    if (errno || *end || v < 1)
        rip__fatal("RIP_MAX_TASKS=%s: want a number of tasks >= 1", env);
    return v;
}

/* The message when a spawn would pass the limit. */
static inline __attribute__((noreturn)) void rip__max_tasks_reached(long max, int worker) {
    rip__fatal("rip_spawn: RIP_MAX_TASKS=%ld tasks are live on worker %d: "
               "no more may be spawned", max, worker);
}

#endif

/* stack.c -- the stack size of task threads for the `threads` backend.
 *
 * RIP_STACK_SIZE bytes from the environment (read once; a bad value is
 * fatal), else 256 KiB; rip_set_stack_size changes it for the tasks
 * spawned after, from any thread.  Sizes are rounded up to a page and are
 * at least PTHREAD_STACK_MIN. */
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

#include "threads.h"

#define STACK_DEFAULT (256 * 1024)  /* bytes, when RIP_STACK_SIZE is unset */
#define STACK_MAX (SIZE_MAX / 2)    /* larger requests are clamped (rounding stays in range) */

static pthread_once_t env_once = PTHREAD_ONCE_INIT; /* reads RIP_STACK_SIZE once */
static _Atomic size_t stack_size;   /* bytes for the next task; 0 until env_once ran */

/* bytes, clamped to [PTHREAD_STACK_MIN, STACK_MAX] and rounded up to a page. */
static size_t rounded(size_t bytes) {
    size_t min = (size_t)PTHREAD_STACK_MIN;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    if (bytes < min)
        bytes = min;
    if (bytes > STACK_MAX)
        bytes = STACK_MAX;
    return (bytes + page - 1) / page * page;
}

static void env_init(void) {
    size_t size = STACK_DEFAULT;
    const char *env = getenv("RIP_STACK_SIZE");
    if (env != NULL && *env != '\0') {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(env, &end, 10);
        if (errno != 0 || *end != '\0' || *env == '-' ||
            v < (size_t)PTHREAD_STACK_MIN || v > STACK_MAX) {
            rip__fatal("RIP_STACK_SIZE=%s: want a number of bytes >= %zu",
                          env, (size_t)PTHREAD_STACK_MIN);
        }
        size = (size_t)v;
    }
    atomic_store(&stack_size, rounded(size));
}

size_t rip_set_stack_size(size_t bytes) {
    pthread_once(&env_once, env_init);
    if (bytes == 0)
        return atomic_load(&stack_size);
    return atomic_exchange(&stack_size, rounded(bytes));
}

void rip_thr_task_attr(pthread_attr_t *attr) {
    size_t size = rip_set_stack_size(0);
    int rc = pthread_attr_init(attr);
    if (rc == 0)
        rc = pthread_attr_setdetachstate(attr, PTHREAD_CREATE_DETACHED);
    if (rc == 0)
        rc = pthread_attr_setstacksize(attr, size);
    if (rc != 0)
        rip__fatal("cannot set up task threads (stack %zu bytes): %s", size, strerror(rc));
}

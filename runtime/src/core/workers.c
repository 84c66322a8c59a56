/* workers.c -- rip_run_workers: n schedulers on n threads, sharing
 * nothing.  Worker 0 runs on the calling thread; each runs the backend's
 * rip_run with its own thread-local scheduler, event loop and pools. */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include "core.h"
#include "../shared/sys.h"

typedef struct {
    pthread_t thread;               /* its thread (workers 1..n-1) */
    int id;                         /* rip_worker_id() inside it */
    rip_task_fn *fn;                /* first task */
    void *arg;                      /* its argument */
    int status;                     /* rip_run's result */
} worker;

static void *worker_main(void *p) {
    worker *w = p;
    rip__sched.worker = w->id;
    w->status = rip_run(w->fn, w->arg);
    return NULL;
}

int rip_run_workers(int n, rip_task_fn *fn, void *arg) {
    if (n < 1) {
        errno = EINVAL;
        return -1;
    }
    rip_assert(rip__runq.current == NULL); /* rip_run_workers inside a task */
    worker *ws = calloc((size_t)n, sizeof *ws);
    if (!ws)
        return -1;
    int started = 1, status = 0, err;
    for (int i = 0; i < n; i++)
        ws[i] = (worker){ .id = i, .fn = fn, .arg = arg };
    for (; started < n; started++) {
        if ((err = rip__sys_pthread_create(&ws[started].thread, NULL, worker_main, &ws[started])))
            rip__fatal("cannot start worker %d: %s", started, strerror(err)); /* as threads does */
    }
    int outer = rip__sched.worker;
    worker_main(&ws[0]);
    rip__sched.worker = outer;
    for (int i = 0; i < started; i++) {
        if (i > 0)
            rip__sys_pthread_join(ws[i].thread, NULL);
        if (ws[i].status)
            status = -1;
    }
    free(ws);
    return status;
}

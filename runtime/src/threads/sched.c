/* sched.c -- tasks, workers, time and task accounting of the `threads`
 * backend.
 *
 * Every task is a detached pthread, and belongs to the run of the task
 * that spawned it.  A run is one worker's tasks (rip_run has one worker,
 * rip_run_workers n) and counts what rip_run_workers needs: live tasks,
 * tasks parked in a runtime wait (channel, wait group) and tasks sleeping,
 * waiting for an fd or offloading.  One mutex guards every run's counts.
 * A parked task is counted as blocked from the moment it parks until a
 * waker makes it runnable; the waker, not the woken task, takes it off the
 * count (rip_thr_unblock).  Only a task of the same worker can wake it
 * (channels and wait groups belong to one worker), so "every live task of
 * a run is blocked" can only become true when none of them can ever run
 * again: that is a deadlock, and it stays true once it is.
 *
 * rip_run_workers gives a deadlocked run up and waits for the others: the
 * run's threads stay parked, and the run is freed by its last task to end,
 * if one ever does (a program may still wake them from outside). */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#include "threads.h"
#include "../shared/gdb_script.h"
#include "../shared/limits.h"

/* One worker's tasks. */
struct rip_thr_run {
    int worker;                    /* rip_worker_id() of its tasks */
    long live;                     /* tasks started and not finished */
    long blocked;                  /* live tasks parked in a channel or wait group wait */
    long busy;                     /* live tasks sleeping, waiting for an fd or offloading */
    int abandoned;                 /* deadlocked and given up: its last task to end frees it */
};

/* What a new thread needs to become a task; freed by the thread. */
typedef struct rip_thr_start {
    rip_task_fn *fn;               /* task body */
    void *arg;                     /* its argument */
    rip_thr_run *run;              /* run it is counted in */
} rip_thr_start;

/* The accounting: the one piece of state every task shares. */
static struct {
    pthread_mutex_t mu;            /* guards every run's counts and the fields below */
    pthread_cond_t cond;           /* rip_run_workers waits here for each run to finish or deadlock */
    int running;                   /* a rip_run or rip_run_workers is waiting */
    long max_tasks;                /* RIP_MAX_TASKS (-1: none), read on the first spawn; 0 until then */
    rip_thr_run *outside;          /* run of tasks spawned outside tasks: worker 0's while
                                      running, else the next run's (NULL until one is) */
} sched = {
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, NULL
};

static __thread rip_thr_run *self_run;    /* this thread's run, NULL if not a task */

/* ---- accounting ------------------------------------------------------ */

/* Every live task of run parked for good, none sleeping or in I/O.  Lock held. */
static int deadlocked(const rip_thr_run *run) {
    return run->live > 0 && run->blocked == run->live && run->busy == 0;
}

/* Tell rip_run_workers when run may have finished or deadlocked.  Lock held. */
static void settled_check(const rip_thr_run *run) {
    if (!run->abandoned && (run->live == 0 || deadlocked(run)))
        pthread_cond_signal(&sched.cond);
}

rip_thr_run *rip_thr_self_run(void) {
    return self_run;
}

void rip_thr_in_a_task(const char *call) {
    if (self_run == NULL)
        rip__outside_task(call);
}

void rip_thr_block(rip_thr_run *run) {
    if (run == NULL)
        return;
    pthread_mutex_lock(&sched.mu);
    run->blocked++;
    rip_assert(run->blocked <= run->live);
    settled_check(run);
    pthread_mutex_unlock(&sched.mu);
}

void rip_thr_unblock(rip_thr_run *run) {
    if (run == NULL)
        return;
    pthread_mutex_lock(&sched.mu);
    rip_assert(run->blocked > 0);
    run->blocked--;
    pthread_mutex_unlock(&sched.mu);
}

/* A busy task is running, not parked: no signal is needed either way. */
void rip_thr_busy_begin(void) {
    if (self_run == NULL)
        return;
    pthread_mutex_lock(&sched.mu);
    self_run->busy++;
    pthread_mutex_unlock(&sched.mu);
}

void rip_thr_busy_end(void) {
    if (self_run == NULL)
        return;
    pthread_mutex_lock(&sched.mu);
    rip_assert(self_run->busy > 0);
    self_run->busy--;
    pthread_mutex_unlock(&sched.mu);
}

/* ---- workers --------------------------------------------------------- */

int rip_worker_id(void) {
    return self_run != NULL ? self_run->worker : 0;
}

/* Outside tasks the caller counts as worker 0 (the one rip_run has). */
void rip_thr_check_worker(int owner, const char *what) {
    int me = rip_worker_id();
    if (me != owner)
        rip__fatal("%s made by worker %d used by worker %d "
                      "(channels and wait groups belong to the worker that made them)",
                      what, owner, me);
}

static rip_thr_run *run_new(int worker) {
    rip_thr_run *run = calloc(1, sizeof *run);
    if (run != NULL)
        run->worker = worker;
    return run;
}

/* ---- starting tasks -------------------------------------------------- */

/* Body of every task thread. */
static void *task_main(void *p) {
    rip_thr_start start = *(rip_thr_start *)p;
    free(p);
    rip_thr_task me;
    self_run = start.run;
    rip_thr_task_begin(&me, start.run, start.run->worker);
    start.fn(start.arg);
    rip_thr_task_end(&me);
    pthread_mutex_lock(&sched.mu);
    rip_assert(start.run->live > 0);
    start.run->live--;
    settled_check(start.run);
    int last = start.run->abandoned && start.run->live == 0;
    pthread_mutex_unlock(&sched.mu);
    if (last)
        free(start.run);
    return NULL;
}

/* Start a thread for a task already counted in run->live; abort on failure. */
static void task_start(rip_task_fn *fn, void *arg, rip_thr_run *run) {
    rip_thr_start *start = malloc(sizeof *start);
    if (start == NULL)
        rip__fatal("rip_spawn: out of memory");
    start->fn = fn;
    start->arg = arg;
    start->run = run;
    pthread_attr_t attr;
    rip_thr_task_attr(&attr);
    pthread_t tid;
    int rc = pthread_create(&tid, &attr, task_main, start);
    pthread_attr_destroy(&attr);
    if (rc != 0)
        rip__fatal("rip_spawn: cannot start a task thread: %s", strerror(rc));
}

/* ---- public API ------------------------------------------------------ */

int rip_run_workers(int n, rip_task_fn *fn, void *arg) {
    if (n < 1) {
        errno = EINVAL;
        return -1;
    }
    rip_thr_run **runs = calloc((size_t)n, sizeof *runs);
    long *stuck = calloc((size_t)n, sizeof *stuck); /* tasks of each deadlocked worker */
    int made = 0;
    while (runs != NULL && stuck != NULL && made < n && (runs[made] = run_new(made)) != NULL)
        made++;
    if (made < n)                   /* as the other backends end when they cannot start */
        rip__fatal("out of memory to start %d worker%s", n, n == 1 ? "" : "s");

    pthread_mutex_lock(&sched.mu);
    rip_assert(!sched.running); /* no nested or concurrent runs */
    sched.running = 1;
    rip_thr_run *spare = NULL;
    if (sched.outside != NULL) { /* tasks spawned outside tasks belong to worker 0 */
        spare = runs[0];
        runs[0] = sched.outside;
    }
    sched.outside = runs[0];
    for (int i = 0; i < n; i++)
        runs[i]->live++;
    pthread_mutex_unlock(&sched.mu);
    free(spare);

    int dumps = rip_thr_dump_setup();   /* before the first task: its signal finds the handler */
    long dumped = rip_thr_dump_requests();
    for (int i = 0; i < n; i++)
        task_start(fn, arg, runs[i]);

    int rc = 0;
    pthread_mutex_lock(&sched.mu);
    for (;;) {
        int waiting = 0;
        for (int i = 0; i < n; i++) {
            rip_thr_run *run = runs[i];
            if (run->abandoned || run->live == 0)
                continue;
            if (deadlocked(run)) {
                run->abandoned = 1; /* its threads stay parked, uncounted */
                stuck[i] = run->blocked;
                rc = -1;
            } else {
                waiting = 1;
            }
        }
        if (!waiting)
            break;
        if (!dumps) {
            pthread_cond_wait(&sched.cond, &sched.mu);
            continue;
        }
        struct timespec at;             /* RIP_DUMP_SIGNAL: a look every 50 ms */
        clock_gettime(CLOCK_REALTIME, &at);
        at.tv_nsec += 50 * 1000000L;
        if (at.tv_nsec >= 1000000000L) {
            at.tv_sec++;
            at.tv_nsec -= 1000000000L;
        }
        pthread_cond_timedwait(&sched.cond, &sched.mu, &at);
        if (rip_thr_dump_requests() != dumped) {
            dumped = rip_thr_dump_requests();
            pthread_mutex_unlock(&sched.mu);
            for (int i = 0; i < n; i++)
                rip_thr_dump(stderr, i, "on RIP_DUMP_SIGNAL");
            pthread_mutex_lock(&sched.mu);
        }
    }
    sched.outside = NULL;
    sched.running = 0;
    pthread_mutex_unlock(&sched.mu);

    for (int i = 0; i < n; i++) {
        if (stuck[i] == 0)
            free(runs[i]); /* finished: no thread refers to it any more */
        else {
            if (n == 1)
                fprintf(stderr, "rip: deadlock: %ld tasks blocked forever\n", stuck[i]);
            else
                fprintf(stderr, "rip: deadlock: %ld tasks blocked forever in worker %d\n",
                        stuck[i], i);
            rip_thr_dump(stderr, i, "blocked forever");
        }
    }
    free(runs);
    free(stuck);
    return rc;
}

int rip_run(rip_task_fn *fn, void *arg) {
    return rip_run_workers(1, fn, arg);
}

void rip_spawn(rip_task_fn *fn, void *arg) {
    rip_thr_run *run = self_run;
    pthread_mutex_lock(&sched.mu);
    if (run == NULL) {
        if (sched.outside == NULL && (sched.outside = run_new(0)) == NULL)
            rip__fatal("rip_spawn: out of memory");
        run = sched.outside;
    }
    if (!sched.max_tasks)
        sched.max_tasks = rip__max_tasks_env();
    if (sched.max_tasks > 0 && run->live >= sched.max_tasks)
        rip__max_tasks_reached(sched.max_tasks, run->worker);
    run->live++;
    pthread_mutex_unlock(&sched.mu);
    task_start(fn, arg, run);
}

/* ---- time ------------------------------------------------------------ */

void rip_yield(void) {
    rip_thr_in_a_task(__func__);
    sched_yield();
}

void rip_sleep_ms(int64_t ms) {
    rip_thr_in_a_task(__func__);
    if (ms <= 0) {
        sched_yield();
        return;
    }
    struct timespec deadline;
    clock_gettime(CLOCK_MONOTONIC, &deadline);
    deadline.tv_sec += (time_t)(ms / 1000);
    deadline.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (deadline.tv_nsec >= 1000000000L) {
        deadline.tv_sec++;
        deadline.tv_nsec -= 1000000000L;
    }
    rip_thr_busy_begin();
    rip_thr_wait_note(RIP_THR_SLEEP, NULL, 0, 0, rip_now_ms() + ms);
    int rc;
    while ((rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL)) == EINTR)
        ;
    rip_assert(rc == 0);
    rip_thr_wait_note(RIP_THR_NONE, NULL, 0, 0, 0);
    rip_thr_busy_end();
}

int64_t rip_now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

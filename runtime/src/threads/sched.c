/* sched.c -- tasks, time and task accounting of the `threads` backend.
 *
 * Every task is a detached pthread.  One mutex guards the counts rip_run
 * needs: live tasks, tasks parked in a runtime wait (channel, wait group)
 * and tasks sleeping or inside an I/O call.  A parked task is counted as
 * blocked from the moment it parks until a waker makes it runnable; the
 * waker, not the woken task, takes it off the count (rip_thr_unblock), so
 * "every live task is blocked" can only become true when no task can ever
 * run again: that is a deadlock, and it stays true once it is.
 *
 * Each run has an epoch.  When rip_run gives up on a deadlocked run it
 * leaves the blocked threads where they are, bumps the epoch and zeroes the
 * counts; anything those threads do later is not counted in the new run. */
#include <errno.h>
#include <sched.h>
#include <string.h>
#include <time.h>

#include "threads.h"

/* What a new thread needs to become a task; freed by the thread. */
typedef struct rip_thr_start {
    rip_task_fn *fn;               /* task body */
    void *arg;                     /* its argument */
    unsigned epoch;                /* run it is counted in */
} rip_thr_start;

/* The accounting: the one piece of state every task shares. */
static struct {
    pthread_mutex_t mu;            /* guards every field below */
    pthread_cond_t cond;           /* rip_run waits here for "all done" or deadlock */
    unsigned epoch;                /* current run, never 0; bumped when a deadlocked run is abandoned */
    long live;                     /* tasks started and not finished */
    long blocked;                  /* live tasks parked in a channel or wait group wait */
    long busy;                     /* live tasks in rip_sleep_ms or an I/O call */
    int running;                   /* a rip_run is waiting */
} sched = {
    PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 1, 0, 0, 0, 0
};

static __thread unsigned self_epoch;      /* this thread's run, 0 if not a task */

/* ---- accounting ------------------------------------------------------ */

/* Every live task parked for good, none sleeping or in I/O.  Lock held. */
static int deadlocked(void) {
    return sched.live > 0 && sched.blocked == sched.live && sched.busy == 0;
}

unsigned rip_thr_epoch(void) {
    return self_epoch;
}

void rip_thr_block(unsigned epoch) {
    pthread_mutex_lock(&sched.mu);
    if (epoch != 0 && epoch == sched.epoch) {
        sched.blocked++;
        rip_assert(sched.blocked <= sched.live);
        if (deadlocked())
            pthread_cond_signal(&sched.cond);
    }
    pthread_mutex_unlock(&sched.mu);
}

void rip_thr_unblock(unsigned epoch) {
    pthread_mutex_lock(&sched.mu);
    if (epoch != 0 && epoch == sched.epoch) {
        rip_assert(sched.blocked > 0);
        sched.blocked--;
    }
    pthread_mutex_unlock(&sched.mu);
}

void rip_thr_busy_begin(void) {
    if (self_epoch == 0)
        return;
    pthread_mutex_lock(&sched.mu);
    if (self_epoch == sched.epoch)
        sched.busy++;
    pthread_mutex_unlock(&sched.mu);
}

void rip_thr_busy_end(void) {
    if (self_epoch == 0)
        return;
    pthread_mutex_lock(&sched.mu);
    if (self_epoch == sched.epoch) {
        rip_assert(sched.busy > 0);
        sched.busy--;
    }
    pthread_mutex_unlock(&sched.mu);
}

/* ---- starting tasks -------------------------------------------------- */

/* Body of every task thread. */
static void *task_main(void *p) {
    rip_thr_start start = *(rip_thr_start *)p;
    free(p);
    self_epoch = start.epoch;
    start.fn(start.arg);
    pthread_mutex_lock(&sched.mu);
    if (start.epoch == sched.epoch) {
        rip_assert(sched.live > 0);
        sched.live--;
        if (sched.live == 0 || deadlocked())
            pthread_cond_signal(&sched.cond);
    }
    pthread_mutex_unlock(&sched.mu);
    return NULL;
}

/* Start a thread for a task already counted in sched.live; abort on failure. */
static void task_start(rip_task_fn *fn, void *arg, unsigned epoch) {
    rip_thr_start *start = malloc(sizeof *start);
    if (start == NULL) {
        fprintf(stderr, "rip: rip_spawn: out of memory\n");
        abort();
    }
    start->fn = fn;
    start->arg = arg;
    start->epoch = epoch;
    pthread_attr_t attr;
    rip_thr_task_attr(&attr);
    pthread_t tid;
    int rc = pthread_create(&tid, &attr, task_main, start);
    pthread_attr_destroy(&attr);
    if (rc != 0) {
        fprintf(stderr, "rip: rip_spawn: cannot start a task thread: %s\n",
                strerror(rc));
        abort();
    }
}

/* ---- public API ------------------------------------------------------ */

int rip_run(rip_task_fn *fn, void *arg) {
    pthread_mutex_lock(&sched.mu);
    rip_assert(!sched.running); /* no nested or concurrent rip_run */
    sched.running = 1;
    sched.live++;
    unsigned epoch = sched.epoch;
    pthread_mutex_unlock(&sched.mu);

    task_start(fn, arg, epoch);

    pthread_mutex_lock(&sched.mu);
    while (sched.live > 0 && !deadlocked())
        pthread_cond_wait(&sched.cond, &sched.mu);
    long stuck = sched.blocked;
    int rc = 0;
    if (sched.live > 0) {
        /* Abandon the run: its threads stay parked, uncounted. */
        sched.epoch = sched.epoch + 1 == 0 ? 1 : sched.epoch + 1;
        sched.live = sched.blocked = sched.busy = 0;
        rc = -1;
    }
    rip_assert(sched.blocked == 0 && sched.busy == 0);
    sched.running = 0;
    pthread_mutex_unlock(&sched.mu);
    if (rc < 0)
        fprintf(stderr, "rip: deadlock: %ld tasks blocked forever\n", stuck);
    return rc;
}

void rip_spawn(rip_task_fn *fn, void *arg) {
    pthread_mutex_lock(&sched.mu);
    sched.live++;
    unsigned epoch = sched.epoch;
    pthread_mutex_unlock(&sched.mu);
    task_start(fn, arg, epoch);
}

void rip_yield(void) {
    sched_yield();
}

void rip_sleep_ms(int64_t ms) {
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
    int rc;
    while ((rc = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &deadline, NULL)) == EINTR)
        ;
    rip_assert(rc == 0);
    rip_thr_busy_end();
}

int64_t rip_now_ms(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (int64_t)now.tv_sec * 1000 + now.tv_nsec / 1000000;
}

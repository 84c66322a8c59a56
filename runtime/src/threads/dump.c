/* dump.c -- rip_dump_tasks and rip_stats for the `threads` backend.  Every
 * task thread keeps a record on its stack, listed from start to end under
 * the accounting mutex (a spawn pays one more lock beside pthread_create),
 * and each runtime wait notes in it what it waits on and since when (a
 * few relaxed stores beside the wait's own futex calls).  The dump reads
 * the records of the caller's worker; a thread's stack cannot be walked
 * from another thread, so the chain is not available. */
#include <errno.h>
#include <signal.h>
#include <string.h>

#include "threads.h"
#include "../shared/dumpsig.h"

static pthread_mutex_t tasks_mu = PTHREAD_MUTEX_INITIALIZER; /* guards the list */
static rip_thr_task *tasks;         /* every live task, newest first */
static __thread rip_thr_task *self;  /* this thread's, NULL if not a task */

void rip_thr_task_begin(rip_thr_task *t, rip_thr_run *run, int worker) {
    memset(t, 0, sizeof *t);
    t->run = run;
    t->worker = worker;
    pthread_mutex_lock(&tasks_mu);
    if ((t->next = tasks))
        tasks->prev = t;
    tasks = t;
    pthread_mutex_unlock(&tasks_mu);
    self = t;
}

void rip_thr_task_end(rip_thr_task *t) {
    pthread_mutex_lock(&tasks_mu);
    if (t->prev)
        t->prev->next = t->next;
    else
        tasks = t->next;
    if (t->next)
        t->next->prev = t->prev;
    pthread_mutex_unlock(&tasks_mu);
    self = NULL;
}

void rip_thr_wait_note(int kind, const void *on, long num, long num2, int64_t due) {
    rip_thr_task *t = self;
    if (!t)
        return;
    if (kind == RIP_THR_NONE) {
        __atomic_store_n(&t->kind, RIP_THR_NONE, __ATOMIC_RELEASE);
        return;
    }
    __atomic_store_n(&t->on, on, __ATOMIC_RELAXED);
    __atomic_store_n(&t->num, num, __ATOMIC_RELAXED);
    __atomic_store_n(&t->num2, num2, __ATOMIC_RELAXED);
    __atomic_store_n(&t->due, due, __ATOMIC_RELAXED);
    __atomic_store_n(&t->since, rip_now_ms(), __ATOMIC_RELAXED);
    __atomic_store_n(&t->kind, kind, __ATOMIC_RELEASE);
}

static void stats_locked(struct rip_stats *st, int worker) {
    memset(st, 0, sizeof *st);
    st->worker = worker;
    for (rip_thr_task *t = tasks; t; t = t->next) {
        if (t->worker != worker)
            continue;
        st->tasks++;
        int kind = __atomic_load_n(&t->kind, __ATOMIC_ACQUIRE);
        if (t == self)
            st->running++;
        else if (kind == RIP_THR_NONE)
            st->runnable++;
        else
            st->waiting++;
        if (kind == RIP_THR_FD_READ || kind == RIP_THR_FD_WRITE)
            st->fd_waits++;
        if (kind == RIP_THR_SLEEP)
            st->timers++;
    }
}

int rip_stats(struct rip_stats *out) {
    pthread_mutex_lock(&tasks_mu);
    stats_locked(out, rip_worker_id());
    pthread_mutex_unlock(&tasks_mu);
    return 0;
}

static void print_wait(FILE *out, rip_thr_task *t, int kind, int64_t now) {
    const void *on = __atomic_load_n(&t->on, __ATOMIC_RELAXED);
    long num = __atomic_load_n(&t->num, __ATOMIC_RELAXED);
    long num2 = __atomic_load_n(&t->num2, __ATOMIC_RELAXED);
    int64_t due = __atomic_load_n(&t->due, __ATOMIC_RELAXED);
    int64_t since = __atomic_load_n(&t->since, __ATOMIC_RELAXED);
    switch (kind) {
    case RIP_THR_FD_READ:
    case RIP_THR_FD_WRITE:
        fprintf(out, "fd %ld for %s", num, kind == RIP_THR_FD_READ ? "read" : "write");
        break;
    case RIP_THR_SEND:
    case RIP_THR_RECV:
        fprintf(out, "channel %p to %s (elem %ld bytes, capacity %ld)", on,
                kind == RIP_THR_SEND ? "send" : "receive", num, num2);
        break;
    case RIP_THR_SELECT:
        fprintf(out, "a select of %ld channels", num);
        break;
    case RIP_THR_WG:
        fprintf(out, "wait group %p", on);
        break;
    case RIP_THR_SLEEP:
        fprintf(out, "sleep, due in %lld ms", (long long)(due - now));
        break;
    case RIP_THR_OFFLOAD:
        fprintf(out, "offload");
        break;
    case RIP_THR_MUTEX:
        fprintf(out, "mutex %p", on);
        break;
    case RIP_THR_COND:
        fprintf(out, "condition variable %p", on);
        break;
    }
    fprintf(out, ", waited %lld ms", (long long)(now - since));
}

void rip_thr_dump(FILE *out, int worker, const char *why) {
    struct rip_stats st;
    pthread_mutex_lock(&tasks_mu);
    stats_locked(&st, worker);
    fprintf(out, "rip: tasks of worker %d%s%s: %ld live\n", worker, why ? ", " : "",
            why ? why : "", st.tasks);
    fprintf(out, "rip: stats: tasks %ld (running %ld, runnable %ld, waiting %ld), "
            "run queue %ld, fd waits %ld, timers %ld, offload queued %ld, "
            "offload threads busy %ld of %ld, frames %zu bytes, pooled %zu bytes\n",
            st.tasks, st.running, st.runnable, st.waiting, st.runnable, st.fd_waits,
            st.timers, st.offload_queued, st.offload_busy, st.offload_threads,
            st.frame_bytes, st.pooled_bytes);
    int64_t now = rip_now_ms();
    /* oldest first, as the other backends list the first task first */
    rip_thr_task *t = tasks;
    while (t && t->next)
        t = t->next;
    for (; t; t = t->prev) {
        if (t->worker != worker)
            continue;
        int kind = __atomic_load_n(&t->kind, __ATOMIC_ACQUIRE);
        fprintf(out, "task %p: %s", (void *)t,
                t == self ? "running" : kind == RIP_THR_NONE ? "runnable" : "waiting");
        if (t != self && kind != RIP_THR_NONE) {
            fprintf(out, " on ");
            print_wait(out, t, kind, now);
        }
        fprintf(out, "\n    (call chain not available on this backend)\n");
    }
    pthread_mutex_unlock(&tasks_mu);
    fflush(out);
}

void rip_dump_tasks(FILE *out) {
    rip_thr_dump(out, rip_worker_id(), NULL);
}

/* ---- RIP_DUMP_SIGNAL: the handler counts; rip_run_workers' wait looks ---- */

static volatile sig_atomic_t requests;  /* deliveries so far */

static void on_dump_signal(int sig) {
    (void)sig;
    requests++;
}

int rip_thr_dump_setup(void) {
    return rip__dump_signal_install(on_dump_signal, sigaction) != 0;
}

long rip_thr_dump_requests(void) {
    return requests;
}

/* dump.c -- rip_dump_tasks and rip_stats for the rip and ucontext
 * backends: what every task of this scheduler is doing, found only when
 * asked, by walking what the scheduler keeps anyway (the run queue, the
 * timers, the fds' wait lists, the channels and wait groups made on this
 * thread, the offload jobs in flight); the hot paths keep no record for it.
 * A task is listed once, with every wait it is on (a select waits on
 * several channels, a deadline limits a wait), in the order found: the
 * running task, the run queue's, then the waits.  A task on none of those
 * (a POSIX mode call parked in plain code, an fd call's wait on a pipe of
 * stdio) is counted, not listed.
 *
 * RIP_DUMP_SIGNAL: its handler counts the request, bumps the signal count
 * the loop already reads every turn (rip__signals_check), and writes an
 * eventfd the loop watches (a loop asleep in epoll_wait wakes); the loop
 * then dumps from its own thread, never from the handler. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include "core.h"
#include "dumpline.h"
#include "../shared/dumpsig.h"
#include "../shared/sys.h"

enum { RUNNING, RUNNABLE, FD, SEND, RECV, WG, MUTEX, COND, SLEEP, DEADLINE, TIMEOUT, OFFLOAD };

typedef struct {
    rip_task *task;                 /* the task */
    size_t next;                    /* the task's next entry, NONE after its last */
    size_t last;                    /* a task's first entry: its last one */
    int first;                      /* the first entry found of its task */
    int kind;                       /* RUNNING .. OFFLOAD */
    int select;                     /* SEND, RECV: one case of a select */
    const void *on;                 /* SEND, RECV: the channel; WG: the wait group; MUTEX, COND: it */
    const void *holder;             /* MUTEX: the task holding it */
    long num;                       /* FD: the fd; WG: its count; SEND, RECV: the channel's senders */
    long num2;                      /* SEND, RECV: the channel's receivers */
    int dir;                        /* FD: RIP_FD_READ or RIP_FD_WRITE */
    int64_t due;                    /* SLEEP, DEADLINE, TIMEOUT: rip_now_ms() time */
} entry;

#define NONE SIZE_MAX

typedef struct {
    entry *v;                       /* the entries found */
    size_t n, cap;                  /* their number, the array's size */
    int failed;                     /* out of memory: the dump says so */
} found;

static entry *add(found *f, rip_task *t, int kind) {
    if (f->n == f->cap) {
        size_t cap = f->cap ? 2 * f->cap : 64;
        entry *grown = realloc(f->v, cap * sizeof *grown);
        if (!grown) {
            f->failed = 1;
            return NULL;
        }
        f->v = grown;
        f->cap = cap;
    }
    entry *e = &f->v[f->n++];
    memset(e, 0, sizeof *e);
    e->task = t;
    e->kind = kind;
    return e;
}

static void add_list(found *f, rip_waitlist *l, int kind, const void *on, long num, long num2) {
    for (rip_waiter *w = l->head; w; w = w->next) {
        entry *e = add(f, w->task, kind);
        if (!e)
            return;
        e->on = on;
        e->num = num;
        e->num2 = num2;
        e->select = w->mark != 0;   /* a channel waiter's mark: 1 + its case in a select */
    }
}

static long length(const rip_waitlist *l) {
    long n = 0;
    for (const rip_waiter *w = l->head; w; w = w->next)
        n++;
    return n;
}

static void found_chan(rip_chan *c, void *ctx) {
    long senders = length(&c->senders), receivers = length(&c->receivers);
    add_list(ctx, &c->senders, SEND, c, senders, receivers);
    add_list(ctx, &c->receivers, RECV, c, senders, receivers);
}

static void found_wg(rip_wg *wg, long count, rip_waitlist *waiters, void *ctx) {
    add_list(ctx, waiters, WG, wg, count, 0);
}

static void found_mutex(rip_mutex *m, rip_task *holder, rip_waitlist *waiters, void *ctx) {
    found *f = ctx;
    size_t from = f->n;
    add_list(f, waiters, MUTEX, m, 0, 0);
    for (size_t i = from; i < f->n; i++)
        f->v[i].holder = holder;
}

static void found_cond(rip_cond *c, rip_waitlist *waiters, void *ctx) {
    add_list(ctx, waiters, COND, c, 0, 0);
}

static void found_fd(int fd, int dir, rip_waiter *w, void *ctx) {
    entry *e = add(ctx, w->task, FD);
    if (e) {
        e->num = fd;
        e->dir = dir;
    }
}

static void found_timer(rip_timer *tm, void *ctx) {
    int kind = !tm->w ? SLEEP : rip__deadline_timer(tm) ? DEADLINE : TIMEOUT;
    entry *e = add(ctx, tm->task, kind);
    if (e)
        e->due = tm->deadline_ms;
}

static void found_job(rip_job *job, void *ctx) {
    add(ctx, job->task, OFFLOAD);
}

/* Links each task's entries, in the order found, from its first (a task
 * waits on several things in a select or under a deadline): a table of
 * the tasks seen, by address, open addressing.  -1: out of memory. */
static int link_tasks(found *f) {
    size_t size = 64;
    while (size < 2 * f->n)
        size *= 2;
    size_t *slot = malloc(size * sizeof *slot);     /* an entry's index + 1, or 0 */
    if (!slot)
        return -1;
    memset(slot, 0, size * sizeof *slot);
    int shift = 64 - __builtin_ctzll(size);
    for (size_t i = 0; i < f->n; i++) {
        entry *e = &f->v[i];
        size_t h = (size_t)(((uint64_t)(uintptr_t)e->task * 0x9e3779b97f4a7c15ull) >> shift);
        while (slot[h] && f->v[slot[h] - 1].task != e->task)
            h = (h + 1) & (size - 1);
        e->next = NONE;
        if (!slot[h]) {
            slot[h] = i + 1;
            e->first = 1;
            e->last = i;
        } else {
            entry *head = &f->v[slot[h] - 1];
            f->v[head->last].next = i;
            head->last = i;
        }
    }
    free(slot);
    return 0;
}

static void put_wait(rip_line *l, const entry *e, int64_t now) {
    const rip_chan *c = e->on;
    switch (e->kind) {
    case FD:
        rip__put_lit(l, "fd ");
        rip__put_dec(l, e->num);
        rip__put_str(l, e->dir == RIP_FD_READ ? " for read" : " for write");
        break;
    case SEND:
    case RECV:
        rip__put_lit(l, "channel ");
        rip__put_ptr(l, c);
        rip__put_str(l, e->kind == SEND ? " to send" : " to receive");
        rip__put_str(l, e->select ? " in a select (elem " : " (elem ");
        rip__put_dec(l, (long long)c->elem_size);
        rip__put_lit(l, " bytes, capacity ");
        rip__put_dec(l, (long long)c->capacity);
        rip__put_lit(l, ", ");
        rip__put_dec(l, (long long)c->count);
        rip__put_lit(l, " buffered, ");
        rip__put_dec(l, e->num);
        rip__put_lit(l, " senders, ");
        rip__put_dec(l, e->num2);
        rip__put_str(l, c->closed ? " receivers waiting, closed)" : " receivers waiting)");
        break;
    case WG:
        rip__put_lit(l, "wait group ");
        rip__put_ptr(l, e->on);
        rip__put_lit(l, " (count ");
        rip__put_dec(l, e->num);
        rip__put_lit(l, ")");
        break;
    case MUTEX:
        rip__put_lit(l, "mutex ");
        rip__put_ptr(l, e->on);
        rip__put_lit(l, " (held by task ");
        rip__put_ptr(l, e->holder);
        rip__put_lit(l, ")");
        break;
    case COND:
        rip__put_lit(l, "condition variable ");
        rip__put_ptr(l, e->on);
        break;
    case SLEEP:
    case DEADLINE:
    case TIMEOUT:
        rip__put_str(l, e->kind == SLEEP ? "sleep, due in " : e->kind == DEADLINE ? "deadline in "
                   : "timeout in ");
        rip__put_dec(l, e->due - now);
        rip__put_lit(l, " ms");
        break;
    case OFFLOAD:
        rip__put_lit(l, "offload");
        break;
    }
}

/* rip_stats' counters, with the run queue's length walked (not kept). */
static void stats(struct rip_stats *st) {
    memset(st, 0, sizeof *st);
    st->worker = rip__sched.worker;
    st->tasks = rip__sched.live;
    st->running = rip__runq.current != NULL;
    for (rip_task *t = rip__runq.head; t; t = t->next)
        st->runnable++;
    st->waiting = st->tasks - st->running - st->runnable;
    st->fd_waits = rip__fd_waits();
    st->timers = rip__timers_armed();
    rip__offload_counts(&st->offload_queued, &st->offload_busy, &st->offload_threads);
    rip__backend_stats(st);
}

int rip_stats(struct rip_stats *out) {
    stats(out);
    return 0;
}

static void print_stats(FILE *out, const struct rip_stats *st) {
    rip__sys_fprintf(out, "rip: stats: tasks %ld (running %ld, runnable %ld, waiting %ld), "
                     "run queue %ld, fd waits %ld, timers %ld, offload queued %ld, "
                     "offload threads busy %ld of %ld, frames %zu bytes, pooled %zu bytes\n",
                     st->tasks, st->running, st->runnable, st->waiting, st->runnable,
                     st->fd_waits, st->timers, st->offload_queued, st->offload_busy,
                     st->offload_threads, st->frame_bytes, st->pooled_bytes);
}

void rip__dump(FILE *out, const char *why) {
    found f = { 0 };
    struct rip_stats st;
    stats(&st);
    if (rip__runq.current)
        add(&f, rip__runq.current, RUNNING);
    for (rip_task *t = rip__runq.head; t; t = t->next)
        add(&f, t, RUNNABLE);
    rip__fd_each(found_fd, &f);
    rip__chan_each(found_chan, &f);
    rip__wg_each(found_wg, &f);
    rip__mutex_each(found_mutex, &f);
    rip__cond_each(found_cond, &f);
    rip__offload_each(found_job, &f);
    rip__timers_each(found_timer, &f);
    int linked = link_tasks(&f) == 0;
    rip__sys_fprintf(out, "rip: tasks of worker %d%s%s: %ld live\n", rip__sched.worker,
                     why ? ", " : "", why ? why : "", rip__sched.live);
    print_stats(out, &st);
    rip_dump_out o = { .to = out, .buf = malloc(1 << 16), .cap = 1 << 16 };
    int complete = !f.failed && linked && o.buf;
    long listed = 0;
    int64_t now = rip_now_ms();
    for (size_t k = 0; o.buf && linked && k < f.n; k++) {
        if (!f.v[k].first)
            continue;
        int state = -1;
        for (size_t i = k; i != NONE; i = f.v[i].next)
            if (f.v[i].kind == RUNNING || (f.v[i].kind == RUNNABLE && state == -1))
                state = f.v[i].kind;
        rip_task *t = f.v[k].task;
        rip_line l = rip__line_begin(&o);
        rip__put_lit(&l, "task ");
        rip__put_ptr(&l, t);
        if (state == RUNNING)
            rip__put_lit(&l, ": running");
        else if (state == RUNNABLE)
            rip__put_lit(&l, ": runnable");
        else
            rip__put_lit(&l, ": waiting");
        int sep = 0;
        for (size_t i = k; i != NONE; i = f.v[i].next) {
            if (f.v[i].kind == RUNNING || f.v[i].kind == RUNNABLE)
                continue;
            if (sep)
                rip__put_lit(&l, "; ");
            else
                rip__put_lit(&l, " on ");
            put_wait(&l, &f.v[i], now);
            sep = 1;
        }
        if (state == -1) {
            rip__put_lit(&l, ", waited ");
            rip__put_dec(&l, now - t->ran_ms);
            rip__put_lit(&l, " ms");
        }
        rip__line_end(&o, &l);
        rip__backend_chain(&o, t, state == RUNNING);
        listed++;
    }
    if (o.buf)
        rip__out_flush(&o);
    free(o.buf);
    if (!complete)
        rip__sys_fprintf(out, "rip: out of memory: the dump lists only some tasks\n");
    else if (listed < rip__sched.live)
        rip__sys_fprintf(out, "rip: %ld more tasks wait on what the dump does not list "
                         "(a call in a plain function)\n",
                         rip__sched.live - listed);
    rip__sys_fflush(out);
    free(f.v);
}

void rip_dump_tasks(FILE *out) {
    rip__dump(out, NULL);
}

/* ---- RIP_DUMP_SIGNAL ------------------------------------------------ */

static uint64_t dump_requests;      /* RIP_DUMP_SIGNAL's deliveries so far (atomic) */
static int dump_fd = -1;            /* the eventfd a delivery writes, for loops asleep in epoll_wait */
static __thread uint64_t dump_seen; /* dump_requests when this scheduler last dumped */
static __thread int dump_watching;  /* dump_fd is in this scheduler's loop */

static void on_dump_signal(int sig) {
    int saved = errno;
    uint64_t one = 1;
    (void)sig;
    __atomic_add_fetch(&dump_requests, 1, __ATOMIC_SEQ_CST);
    __atomic_add_fetch(&rip__sig_delivered, 1, __ATOMIC_SEQ_CST); /* the loop's one load per turn */
    if (dump_fd >= 0 && rip__sys_write(dump_fd, &one, sizeof one) < 0) {
        /* full (2^64 - 2 unread): the loop wakes anyway */
    }
    errno = saved;
}

static void install(void) {
    if (rip__dump_signal_install(on_dump_signal, rip__sys_sigaction)) /* one before the fd: seen at the loop's next turn */
        dump_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);  /* none: a loop in epoll_wait wakes at its next event */
}

/* The eventfd is never read: every scheduler's epoll set watches it,
 * edge-triggered, and one that emptied it could take the event from
 * another not yet awake (epoll checks the fd again before it reports).
 * Each write is a new edge for every set; the count of requests says the
 * rest, and the counter cannot fill (2^64 - 2 signals). */
static void woken(int fd, unsigned events, void *data) {
    (void)fd, (void)events, (void)data;
}

void rip__dump_setup(void) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    rip__sys_pthread_once(&once, install);
    dump_seen = __atomic_load_n(&dump_requests, __ATOMIC_SEQ_CST);
    if (dump_fd >= 0 && !dump_watching && rip__loop_watch(dump_fd, RIP_EV_READ, woken, NULL) == 0)
        dump_watching = 1;
}

int rip__dump_watching(void) {
    return dump_watching;
}

void rip__dump_end(void) {
    if (dump_watching)
        rip__loop_unwatch(dump_fd);
    dump_watching = 0;
}

void rip__dump_asked(void) {
    uint64_t now = __atomic_load_n(&dump_requests, __ATOMIC_SEQ_CST);
    if (now == dump_seen)
        return;
    dump_seen = now;
    rip__dump(stderr, "on RIP_DUMP_SIGNAL");
}

/* sched.c -- the FIFO run queue, timers and scheduler loop of the rip and
 * ucontext backends.  Timers are ordered on (deadline, order the sleeps
 * began).  A timer that expires no earlier than the last one begun (every
 * timeout of one length: a server's I/O deadlines) is appended to a sorted
 * list, O(1) to add and to cancel; any other goes into a binary heap,
 * O(log n); the next to expire is the earlier of the two firsts.  The
 * clock and the event loop are consulted only when the run queue is empty
 * or every RIP_TIMER_CHECK runs. */
#include <errno.h>
#include <malloc.h>
#include <setjmp.h>
#include <time.h>
#include "core.h"
#include "../shared/sys.h"

#define RIP_TIMER_CHECK 64          /* task runs in a row between two looks at fds and the clock */

__thread struct rip__sched rip__sched;
__thread struct rip__runq rip__runq; /* apart: ripped code reaches it (rip_frame.h) */
#define S rip__sched
#define Q rip__runq

void rip__assert_fail(const char *expr, const char *file, int line) {
    rip__sys_fprintf(stderr, "rip: %s:%d: assertion failed: %s\n", file, line, expr);
    abort();
}

int64_t rip_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int rip_worker_id(void) {
    return S.worker;
}

void rip__task_started(rip_task *t) {
    if (!S.live && !S.first)
        S.first = t;                /* main, under --posix */
    if (S.forked && S.nkept == S.kept_cap) {
        size_t cap = S.kept_cap ? 2 * S.kept_cap : 8;
        rip_task **grown = realloc(S.kept, cap * sizeof *grown);
        if (!grown)
            rip__fatal("out of memory for the forked child's tasks");
        S.kept = grown;
        S.kept_cap = cap;
    }
    if (S.forked)
        S.kept[S.nkept++] = t;
    S.live++;
    rip__ready(t);
}

void rip__task_ended(void) {
    if (S.slow)                     /* else no task has a deadline */
        rip__deadline_drop(Q.current);
    if (Q.current == S.first)
        S.first = NULL;
    if (rip__px_tasks_mapped())     /* else no task asked for its pthread_t (pthread.c) */
        rip__px_task_ended(Q.current);
    rip_assert(S.live > 0);
    S.live--;
    S.ended_untrimmed++;
    if (S.forked)
        rip__fork_kept_ends(Q.current);
}

void rip__sched_forked(void) {
    Q.head = Q.tail = NULL;         /* the other tasks' frames or stacks stay, unused: the child soon execs or exits */
    S.ntimers = 0;
    S.listed_first = S.listed_last = NULL;
    S.live = 1;
}

static int timer_before(const rip_timer *a, const rip_timer *b) {
    return a->deadline_ms < b->deadline_ms ||
           (a->deadline_ms == b->deadline_ms && a->seq < b->seq);
}

static void timer_place(size_t i, rip_timer *tm) {
    S.timers[i] = tm;
    tm->index = i;
}

static void timer_up(size_t i) {
    rip_timer *tm = S.timers[i];
    while (i > 0 && timer_before(tm, S.timers[(i - 1) / 2])) {
        timer_place(i, S.timers[(i - 1) / 2]);
        i = (i - 1) / 2;
    }
    timer_place(i, tm);
}

static void timer_down(size_t i) {
    rip_timer *tm = S.timers[i];
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= S.ntimers)
            break;
        if (c + 1 < S.ntimers && timer_before(S.timers[c + 1], S.timers[c]))
            c++;
        if (!timer_before(S.timers[c], tm))
            break;
        timer_place(i, S.timers[c]);
        i = c;
    }
    timer_place(i, tm);
}

static void list_remove(rip_timer *tm) {
    if (tm->prev)
        tm->prev->next = tm->next;
    else
        S.listed_first = tm->next;
    if (tm->next)
        tm->next->prev = tm->prev;
    else
        S.listed_last = tm->prev;
}

void rip__timer_start(rip_timer *tm, int64_t at_ms) {
    tm->deadline_ms = at_ms;
    tm->seq = S.timer_seq++;
    tm->task = Q.current;
    if (!S.listed_last || at_ms >= S.listed_last->deadline_ms) {  /* in order: append */
        tm->index = RIP_TIMER_LISTED;
        tm->next = NULL;
        tm->prev = S.listed_last;
        if (S.listed_last)
            S.listed_last->next = tm;
        else
            S.listed_first = tm;
        S.listed_last = tm;
        return;
    }
    if (S.ntimers == S.timer_cap) {
        size_t cap = S.timer_cap ? 2 * S.timer_cap : 64;
        rip_timer **grown = realloc(S.timers, cap * sizeof *grown);
        if (!grown)
            rip__fatal("out of memory for timers");
        S.timers = grown;
        S.timer_cap = cap;
    }
    S.timers[S.ntimers] = tm;
    timer_up(S.ntimers++);
}

void rip__sleep_begin(rip_timer *tm, int64_t ms) {
    tm->w = NULL;
    rip__timer_start(tm, rip_now_ms() + (ms > 0 ? ms : 0));
}

void rip__timer_cancel(rip_timer *tm) {
    size_t i = tm->index;
    tm->w = NULL;
    if (i == RIP_TIMER_LISTED) {
        rip_assert(tm->prev ? tm->prev->next == tm : S.listed_first == tm);
        list_remove(tm);
        return;
    }
    rip_assert(i < S.ntimers && S.timers[i] == tm);
    if (i == --S.ntimers)
        return;
    rip_timer *moved = S.timers[S.ntimers];
    timer_place(i, moved);
    timer_up(i);
    timer_down(moved->index);
}

void rip__timers_each(void (*fn)(rip_timer *tm, void *ctx), void *ctx) {
    for (size_t i = 0; i < S.ntimers; i++)
        fn(S.timers[i], ctx);
    for (rip_timer *tm = S.listed_first; tm; tm = tm->next)
        fn(tm, ctx);
}

long rip__timers_armed(void) {
    long n = (long)S.ntimers;
    for (rip_timer *tm = S.listed_first; tm; tm = tm->next)
        n++;
    return n;
}

/* The timer to expire next, or NULL. */
static rip_timer *first_timer(void) {
    rip_timer *heaped = S.ntimers ? S.timers[0] : NULL, *listed = S.listed_first;
    return !heaped ? listed : !listed ? heaped : timer_before(listed, heaped) ? listed : heaped;
}

/* Take `first`, the first_timer(), off the list or heap. */
static void timer_pop(rip_timer *first) {
    if (first->index == RIP_TIMER_LISTED) {
        list_remove(first);
        return;
    }
    if (--S.ntimers > 0) {
        S.timers[0] = S.timers[S.ntimers];
        timer_down(0);
    }
}

/* Wake, in deadline order, every timer due at `now`.  A deadline whose
 * wait already ended (the task is queued) has nothing to do. */
static void expire_timers(int64_t now) {
    rip_timer *tm;
    while ((tm = first_timer()) && tm->deadline_ms <= now) {
        timer_pop(tm);
        rip_waiter *w = tm->w;
        tm->w = NULL;
        if (w) {
            if (!tm->cancel(w, tm->on, tm->key))
                continue;
            w->status = ETIMEDOUT;
        }
        rip__ready(tm->task);
    }
}

static void sleep_until(int64_t deadline_ms) {
    int64_t ms = deadline_ms - rip_now_ms();
    if (ms <= 0)
        return;
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
    rip__sys_nanosleep(&ts, NULL); /* EINTR: back to the loop, which dispatches the signal */
}

static int poll_timeout(int64_t deadline_ms) {
    int64_t ms = deadline_ms - rip_now_ms();
    return ms <= 0 ? 0 : ms > 1000000 ? 1000000 : (int)ms;
}

/* A server's tasks come and go with its connections, each with buffers
 * from malloc.  After a spike (a flood of 2,000 connections), glibc keeps
 * the freed pages that lie below live blocks in its heap, and RSS would
 * stay at the spike's high-water mark for good (8 MiB more in httpd's
 * soak).  So when the loop is about to sleep after TRIM_AFTER_TASKS tasks
 * ended, malloc_trim gives the free pages back; at most once a
 * TRIM_EVERY_MS, so a loop that idles between short connections pays
 * nearly nothing (keep-alive connections end no task).  A trim held back
 * by that is due later: the time for the loop to wake for it, or
 * INT64_MAX. */
#define TRIM_AFTER_TASKS 256
#define TRIM_EVERY_MS 1000

static int64_t give_back_memory(void) {
    if (S.ended_untrimmed < TRIM_AFTER_TASKS)
        return INT64_MAX;
    int64_t now = rip_now_ms();
    if (now < S.next_trim_ms)
        return S.next_trim_ms;
    S.ended_untrimmed = 0;
    S.next_trim_ms = now + TRIM_EVERY_MS;
#ifdef __GLIBC__
    malloc_trim(0);
#endif
    rip__backend_trim();
    return INT64_MAX;
}

/* The scheduler is done: release what it holds. */
static int sched_end(int status) {
    rip__dump_end();
    rip__offload_end();
    rip__poll_end();
    rip__deadlines_end();
    rip__signals_end();
    S.first = NULL;
    free(S.timers);
    S.timers = NULL;
    S.ntimers = S.timer_cap = 0;
    S.listed_first = S.listed_last = NULL;
    return status;
}

/* Where a task that ends in plain code (rip__sched_task_gone) goes: the
 * innermost scheduler loop on this thread, the one that ran it (a loop
 * nested further up would be on top of the task's code).  Set once per
 * loop, not per task run: a plain pthread_exit is rare. */
static __thread jmp_buf *exit_target;

void rip__sched_task_gone(void) {
    rip_assert(exit_target != NULL);
    longjmp(*exit_target, 1);
}

/* The tasks running rip__sched_nested now, outermost first: each waits
 * for the ones above it to return (last in, first out). */
static __thread rip_task **nested_tasks;
static __thread size_t nested_cap;
__thread size_t rip__nested_count;

int rip__nested_below(const rip_task *t) {
    for (size_t i = 0; i < rip__nested_count; i++)
        if (nested_tasks[i] == t)
            return 1;
    return 0;
}

/* Nothing can end the nested wait of `call`: no task ready, no timer, no
 * fd or job waited on.  The tasks that could were waiting in plain code
 * further down, or every task waits for another: a fatal error, not a
 * silent hang. */
static __attribute__((noreturn)) void nested_deadlock(const char *call) {
    if (rip__nested_count > 1)
        rip__fatal("deadlock: %s in a plain function (one called through a pointer) waits "
                   "for good: no task can run, and %zu task(s) waiting in plain functions "
                   "further down this C stack can only go on once it returns; call the "
                   "function by name from the thread", call, rip__nested_count - 1);
    rip__fatal("deadlock: %s in a plain function (one called through a pointer) waits for "
               "good: every other task waits too, and no timer or fd can wake one", call);
}

void rip__sched_nested(volatile int *done, const char *call) {
    rip_task *me = Q.current;
    if (rip__nested_count == nested_cap) {
        size_t cap = nested_cap ? 2 * nested_cap : 8;
        rip_task **grown = realloc(nested_tasks, cap * sizeof *grown);
        if (!grown)
            rip__fatal("out of memory");
        nested_tasks = grown;
        nested_cap = cap;
    }
    nested_tasks[rip__nested_count++] = me;
    size_t level = rip__nested_count;
    jmp_buf here, *outer = exit_target;
    exit_target = &here;
    if (setjmp(here)) {             /* a task run in here ended in plain code */
        exit_target = &here;
        rip__nested_count = level;
        Q.current = me;
    }
    while (!*done) {
        if (S.forked && !rip__fork_keeps(me)) {
            /* A task run in here forked, and this is its child: `me` and
             * its job are the parent's.  The child's tasks run to their
             * end as in any child, which then exits as a threaded
             * program does when its last thread ends. */
            Q.current = NULL;
            exit(rip__sched_loop() == 0 ? 0 : 1);
        }
        if (Q.head) {
            rip__backend_run_queue(RIP_TIMER_CHECK);
            Q.current = me;
            if (rip__loop_waiting())
                rip__poll(0);
            if (first_timer())
                expire_timers(rip_now_ms());
            continue;
        }
        rip_timer *first = first_timer();
        if (!first && !rip__loop_waiting())
            nested_deadlock(call);
        rip__poll(first ? poll_timeout(first->deadline_ms) : -1); /* the job holds the loop: it polls */
        if (first)
            expire_timers(rip_now_ms());
    }
    exit_target = outer;
    rip__nested_count--;
    Q.current = me;
}

/* The loop of rip__sched_loop, entered again after a task ended in
 * plain code (it leaves by longjmp, from inside rip__backend_run_queue). */
static int sched_loop(void) {
    for (;;) {
        rip__signals_check();       /* a handled signal may end a wait */
        if (Q.head) {
            if (rip__backend_run_queue(RIP_TIMER_CHECK)) { /* busy: a look at fds and timers */
                if (rip__loop_waiting())
                    rip__poll(0);
                if (first_timer())
                    expire_timers(rip_now_ms());
            }
            continue;
        }
        rip_timer *first = first_timer();
        int64_t wake = give_back_memory();
        if (first && first->deadline_ms < wake)
            wake = first->deadline_ms;
        if (rip__loop_waiting()) {
            rip__poll(wake == INT64_MAX ? -1 : poll_timeout(wake));
            if (first)
                expire_timers(rip_now_ms());
            continue;
        }
        if (first) {
            if (rip__dump_watching())   /* RIP_DUMP_SIGNAL's eventfd may end the sleep */
                rip__poll(poll_timeout(wake));
            else
                sleep_until(wake);
            expire_timers(rip_now_ms());
            continue;
        }
        if (S.live == 0)
            return sched_end(0);
        rip__sys_fprintf(stderr, "rip: deadlock: %ld tasks blocked forever\n", S.live);
        rip__dump(stderr, "blocked forever");
        /* Blocked tasks sit in wait lists only; nothing can wake them. */
        S.live = 0;
        return sched_end(-1);
    }
}

int rip__sched_loop(void) {
    if (Q.current)                  /* a task's own scheduler would stop it in the middle */
        rip__fatal("rip_run called inside a task (a program built with --posix runs main "
                   "as the first task already: start other tasks with rip_spawn)");
    rip__poll_begin();              /* now: a program that uses up its fds still can wait */
    rip__fork_setup();              /* after poll's own handler: the child's runs after it */
    rip__dump_setup();              /* RIP_DUMP_SIGNAL, if the environment names one */
    rip__slow(0);                   /* the inline channel paths may run */
    size_t level = rip__nested_count;   /* 0 but in a forked child's loop (rip__sched_nested) */
    jmp_buf here, *outer = exit_target;
    exit_target = &here;
    if (setjmp(here)) {             /* a task ended in plain code */
        exit_target = &here;
        rip__nested_count = level;
        Q.current = NULL;
    }
    int status = sched_loop();
    exit_target = outer;
    return status;
}

/* sched.c -- the FIFO run queue, timers and scheduler loop of the rip and
 * ucontext backends.  Timers are a list sorted by deadline (ties in the
 * order the sleeps began); the clock and the event loop are consulted only
 * when the run queue is empty or every RIP_TIMER_CHECK runs. */
#include <errno.h>
#include <stdarg.h>
#include <time.h>
#include "core.h"

#define RIP_TIMER_CHECK 64          /* task runs between two looks at the clock */

static struct {
    rip_task *head, *tail;          /* the run queue */
    rip_task *current;              /* the running task */
    rip_timer *timers;              /* sleeping tasks, earliest deadline first */
    long live;                      /* tasks started and not yet ended */
} S;

void rip__assert_fail(const char *expr, const char *file, int line) {
    fprintf(stderr, "rip: %s:%d: assertion failed: %s\n", file, line, expr);
    abort();
}

void rip__fatal(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("rip: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

int64_t rip_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

rip_task *rip__current(void) { return S.current; }

void rip__ready(rip_task *t) {
    t->next = NULL;
    if (S.tail)
        S.tail->next = t;
    else
        S.head = t;
    S.tail = t;
}

void rip__task_started(rip_task *t) {
    S.live++;
    rip__ready(t);
}

void rip__task_ended(void) {
    rip_assert(S.live > 0);
    S.live--;
}

void rip__sleep_begin(rip_timer *tm, int64_t ms) {
    rip_timer **p = &S.timers;
    tm->deadline_ms = rip_now_ms() + (ms > 0 ? ms : 0);
    tm->task = S.current;
    while (*p && (*p)->deadline_ms <= tm->deadline_ms)
        p = &(*p)->next;
    tm->next = *p;
    *p = tm;
}

/* Wake, in deadline order, every timer due at `now`. */
static void expire_timers(int64_t now) {
    while (S.timers && S.timers->deadline_ms <= now) {
        rip_timer *tm = S.timers;
        S.timers = tm->next;
        rip__ready(tm->task);
    }
}

static void sleep_until(int64_t deadline_ms) {
    int64_t ms = deadline_ms - rip_now_ms();
    if (ms <= 0)
        return;
    struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
        ;
}

static int poll_timeout(int64_t deadline_ms) {
    int64_t ms = deadline_ms - rip_now_ms();
    return ms <= 0 ? 0 : ms > 1000000 ? 1000000 : (int)ms;
}

int rip__sched_loop(void) {
    unsigned runs = 0;
    rip_assert(S.current == NULL);  /* rip_run inside a task */
    for (;;) {
        rip_task *t = S.head;
        if (!t) {
            if (rip__fd_waiting()) {
                rip__poll(S.timers ? poll_timeout(S.timers->deadline_ms) : -1);
                if (S.timers)
                    expire_timers(rip_now_ms());
                continue;
            }
            if (S.timers) {
                sleep_until(S.timers->deadline_ms);
                expire_timers(rip_now_ms());
                continue;
            }
            if (S.live == 0)
                return 0;
            fprintf(stderr, "rip: deadlock: %ld tasks blocked forever\n", S.live);
            /* Blocked tasks sit in wait lists only; nothing can wake them. */
            S.live = 0;
            return -1;
        }
        S.head = t->next;
        if (!S.head)
            S.tail = NULL;
        S.current = t;
        rip__backend_run(t);
        S.current = NULL;
        if (++runs % RIP_TIMER_CHECK == 0) {
            if (rip__fd_waiting())
                rip__poll(0);
            if (S.timers)
                expire_timers(rip_now_ms());
        }
    }
}

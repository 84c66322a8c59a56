/* sched.c -- tasks of the ucontext backend: each task runs on its own
 * mmap'd stack with a guard page below it, and switches to the scheduler
 * with swapcontext.  Stack size: RIP_STACK_SIZE bytes (default 64 KiB).
 * Freed stacks are kept for reuse, up to STACK_CACHE of them. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include "core.h"
#include "uc.h"

#define DEFAULT_STACK (64 * 1024)
#define STACK_CACHE 1024            /* freed stacks kept for reuse */

typedef struct uc_task uc_task;
struct uc_task {
    rip_task base;                  /* run queue link; must come first */
    ucontext_t ctx;                 /* saved registers while switched out */
    void *map;                      /* the mapping: guard page, then stack */
    rip_task_fn *fn;                /* the task's function */
    void *arg;                      /* its argument */
    int finished;                   /* fn has returned */
    uc_task *next_free;             /* link in the stack cache */
};

static ucontext_t sched_ctx;        /* the scheduler loop's context */
static ucontext_t blank_ctx;        /* getcontext'd once; copied per task */
static size_t stack_size;           /* usable bytes per stack, page-rounded */
static size_t page_size;
static uc_task *cache;              /* finished tasks whose stacks are reused */
static int cached;                  /* how many are in the cache */

static void init_sizes(void) {
    if (stack_size)
        return;
    page_size = (size_t)sysconf(_SC_PAGESIZE);
    const char *env = getenv("RIP_STACK_SIZE");
    size_t want = env ? strtoull(env, NULL, 0) : DEFAULT_STACK;
    if (want < 4 * page_size)
        want = 4 * page_size;
    stack_size = (want + page_size - 1) / page_size * page_size;
    if (getcontext(&blank_ctx) == -1)
        rip__fatal("getcontext: %s", strerror(errno));
}

static uc_task *task_new(void) {
    uc_task *t = cache;
    if (t) {
        cache = t->next_free;
        cached--;
        return t;
    }
    init_sizes();
    t = calloc(1, sizeof *t);
    if (!t)
        rip__fatal("out of memory for a task");
    t->map = mmap(NULL, stack_size + page_size, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (t->map == MAP_FAILED)
        rip__fatal("cannot map a %zu-byte task stack: %s", stack_size, strerror(errno));
    if (mprotect(t->map, page_size, PROT_NONE) == -1)
        rip__fatal("cannot protect a stack guard page: %s (vm.max_map_count?)", strerror(errno));
    return t;
}

static void task_free(uc_task *t) {
    if (cached < STACK_CACHE) {
        t->next_free = cache;
        cache = t;
        cached++;
        return;
    }
    munmap(t->map, stack_size + page_size);
    free(t);
}

static void task_main(void) {
    uc_task *t = (uc_task *)rip__current();
    t->fn(t->arg);
    t->finished = 1;                /* uc_link returns to the scheduler */
}

void rip__backend_run(rip_task *base) {
    uc_task *t = (uc_task *)base;
    if (swapcontext(&sched_ctx, &t->ctx) == -1)
        rip__fatal("swapcontext: %s", strerror(errno));
    if (t->finished) {
        task_free(t);
        rip__task_ended();
    }
}

void rip__uc_park(void) {
    uc_task *t = (uc_task *)rip__current();
    if (swapcontext(&t->ctx, &sched_ctx) == -1)
        rip__fatal("swapcontext: %s", strerror(errno));
}

void rip_spawn(rip_task_fn *fn, void *arg) {
    uc_task *t = task_new();
    t->fn = fn;
    t->arg = arg;
    t->finished = 0;
    t->ctx = blank_ctx;
    t->ctx.uc_stack.ss_sp = (char *)t->map + page_size;
    t->ctx.uc_stack.ss_size = stack_size;
    t->ctx.uc_link = &sched_ctx;
    makecontext(&t->ctx, task_main, 0);
    rip__task_started(&t->base);
}

int rip_run(rip_task_fn *fn, void *arg) {
    rip_spawn(fn, arg);
    return rip__sched_loop();
}

/* sched.c -- tasks of the ucontext backend: each task runs on its own
 * mmap'd stack with a guard page below it, and switches to the scheduler
 * with swapcontext.  Stack size: rip_set_stack_size, else RIP_STACK_SIZE
 * bytes, else 64 KiB.  Freed stacks are kept for reuse, up to STACK_CACHE
 * of them per scheduler thread. */
#include <errno.h>
#include <pthread.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include "core.h"
#include "uc.h"
#include "../shared/san.h"

/* Valgrind (make valgrind) is told where the task stacks are, when its header
 * is installed: a client request is a few no-op instructions off valgrind. */
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#define RIP_STACK_REGISTER(lo, hi) VALGRIND_STACK_REGISTER((lo), (hi)) /* an id */
#define RIP_STACK_DEREGISTER(id) VALGRIND_STACK_DEREGISTER(id)
#endif
#endif
#ifndef RIP_STACK_REGISTER
#define RIP_STACK_REGISTER(lo, hi) ((void)(lo), (void)(hi), 0u)
#define RIP_STACK_DEREGISTER(id) ((void)(id))
#endif

#define DEFAULT_STACK (64 * 1024)
#define STACK_CACHE 1024            /* freed stacks kept for reuse */

typedef struct uc_task uc_task;
struct uc_task {
    rip_task base;                  /* run queue link; must come first */
    ucontext_t ctx;                 /* saved registers while switched out */
    void *map;                      /* the mapping: guard page, then stack */
    size_t size;                    /* usable stack bytes */
    rip_task_fn *fn;                /* the task's function */
    void *arg;                      /* its argument */
    int finished;                   /* fn has returned */
    int chunked;                    /* stack carved from a chunk: never unmapped */
    unsigned vg_stack;              /* the stack's id for valgrind (san.h) */
    uc_task *next_free;             /* link in the stack cache, or in the abandoned list */
    uc_task *live_prev, *live_next; /* links in the thread's list of unfinished tasks */
};

/* Per scheduler thread. */
static __thread ucontext_t sched_ctx;   /* the scheduler loop's context */
static __thread uc_task *cache;     /* finished tasks whose stacks are reused */
static __thread int cached;         /* how many are in the cache */
static __thread char *chunk;        /* the unused rest of the current chunk */
static __thread size_t chunk_left;  /* its bytes */
static __thread uc_task *live;      /* unfinished tasks, newest first */
static __thread const void *sched_stack; /* the scheduler's stack (for ASan) */
static __thread size_t sched_stack_size; /* its bytes */

typedef struct chunk_map chunk_map;
struct chunk_map {
    chunk_map *next;                /* the thread's other chunks */
    void *base;                     /* the mapping */
    size_t len;                     /* its bytes */
};
static __thread chunk_map *chunks;  /* every chunk this thread mapped */

/* Tasks blocked forever when a run deadlocked, and the chunks their stacks
 * may be on: kept to the end of the process (channels and wait groups may
 * still name them), and reachable (no leak to a leak checker). */
static uc_task *abandoned;
static chunk_map *abandoned_chunks;
static pthread_mutex_t abandoned_lock = PTHREAD_MUTEX_INITIALIZER;

/* Per process. */
static pthread_once_t sizes_once = PTHREAD_ONCE_INIT;
static ucontext_t blank_ctx;        /* getcontext'd once; copied per task */
static size_t stack_size;           /* usable bytes per new stack, page-rounded */
static size_t page_size;
static int chunk_mode;              /* out of mappings: stacks come from chunks, unguarded */
static long guarded;                /* live mappings of guarded stacks (cached ones too) */

#define CHUNK_STACKS 256            /* stacks per chunk mapping in chunk mode */
#define MAP_HEADROOM 8192           /* mappings left for everything else */

/* How many guarded stacks (two mappings each) fit under vm.max_map_count. */
static long guard_limit(void) {
    static long limit;
    if (!limit) {
        long max = 65530;
        FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
        if (f) {
            if (fscanf(f, "%ld", &max) != 1)
                max = 65530;
            fclose(f);
        }
        limit = max > 2 * MAP_HEADROOM ? (max - MAP_HEADROOM) / 2 : max / 4;
    }
    return limit;
}

/* A usable stack size: at least 4 pages, whole pages. */
static size_t round_stack(size_t want) {
    if (want < 4 * page_size)
        want = 4 * page_size;
    if (want > ((size_t)1 << 40))
        want = (size_t)1 << 40;     /* no overflow in the rounding below */
    return (want + page_size - 1) / page_size * page_size;
}

static void init_sizes(void) {
    page_size = (size_t)sysconf(_SC_PAGESIZE);
    const char *env = getenv("RIP_STACK_SIZE");
    __atomic_store_n(&stack_size, round_stack(env ? strtoull(env, NULL, 0) : DEFAULT_STACK),
                     __ATOMIC_RELAXED);
    if (getcontext(&blank_ctx) == -1)
        rip__fatal("getcontext: %s", strerror(errno));
}

size_t rip_set_stack_size(size_t bytes) {
    pthread_once(&sizes_once, init_sizes);
    if (!bytes)
        return __atomic_load_n(&stack_size, __ATOMIC_RELAXED);
    return __atomic_exchange_n(&stack_size, round_stack(bytes), __ATOMIC_RELAXED);
}

/* A task and its stack are done with: a chunked stack's slot stays unused. */
static void task_drop(uc_task *t) {
    RIP_STACK_DEREGISTER(t->vg_stack);
    if (!t->chunked) {
        RIP_UNPOISON((char *)t->map + page_size, t->size);
        munmap(t->map, t->size + page_size);
        __atomic_fetch_sub(&guarded, 1, __ATOMIC_RELAXED);
    }
    free(t);
}

/* t->map for a stack of t->size bytes, below it a guard page or (chunked)
 * a page of nothing. */
static void stack_map(uc_task *t) {
    /* Each guarded stack is two mappings (guard, stack); vm.max_map_count
     * (65530 by default) caps them near 32,000.  Past that, stacks are
     * carved from big chunks without guard pages, with a warning. */
    size_t size = t->size;
    int guard = 0;
    if (!__atomic_load_n(&chunk_mode, __ATOMIC_RELAXED)) {
        guard = __atomic_fetch_add(&guarded, 1, __ATOMIC_RELAXED) < guard_limit();
        if (!guard)
            __atomic_fetch_sub(&guarded, 1, __ATOMIC_RELAXED);
    }
    if (guard) {
        t->map = mmap(NULL, size + page_size, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (t->map != MAP_FAILED && mprotect(t->map, page_size, PROT_NONE) == 0)
            return;
        if (t->map != MAP_FAILED)
            munmap(t->map, size + page_size);
        __atomic_fetch_sub(&guarded, 1, __ATOMIC_RELAXED);
    }
    if (!__atomic_exchange_n(&chunk_mode, 1, __ATOMIC_RELAXED))
        fprintf(stderr, "rip: warning: %ld live stacks with guard pages use half of "
                "vm.max_map_count: further task stacks have none\n", guarded);
    if (chunk_left < size + page_size) {
        chunk_left = (size + page_size) * CHUNK_STACKS;
        chunk = mmap(NULL, chunk_left, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        chunk_map *m = malloc(sizeof *m);
        if (chunk == MAP_FAILED || !m)
            rip__fatal("cannot map task stacks: %s", strerror(errno));
        *m = (chunk_map){ chunks, chunk, chunk_left };
        chunks = m;
    }
    t->map = chunk;
    t->chunked = 1;
    chunk += size + page_size;
    chunk_left -= size + page_size;
}

static uc_task *task_new(void) {
    pthread_once(&sizes_once, init_sizes);
    size_t size = __atomic_load_n(&stack_size, __ATOMIC_RELAXED);
    uc_task *t;
    while ((t = cache)) {
        cache = t->next_free;
        cached--;
        if (t->size == size)
            return t;
        task_drop(t);               /* the size changed */
    }
    t = calloc(1, sizeof *t);
    if (!t)
        rip__fatal("out of memory for a task");
    t->size = size;
    stack_map(t);
    char *stack = (char *)t->map + page_size;
    t->vg_stack = RIP_STACK_REGISTER(stack, stack + size);
    return t;
}

static void task_free(uc_task *t) {
    if (cached < STACK_CACHE || t->chunked) {
        t->next_free = cache;
        cache = t;
        cached++;
        return;
    }
    task_drop(t);
}

/* AddressSanitizer (make SAN=1) hears of every switch of stacks, or it
 * takes a task's stack for a wild jump out of the scheduler's: before the
 * switch, the stack switched to (`fake` keeps this side's state; NULL when
 * this side is done for good); after it, the stack switched from. */
static void switch_begin(void **fake, const void *stack, size_t size) {
#ifdef RIP_ASAN
    __sanitizer_start_switch_fiber(fake, stack, size);
#else
    (void)fake, (void)stack, (void)size;
#endif
}

static void switch_end(void *fake, const void **from, size_t *from_size) {
#ifdef RIP_ASAN
    __sanitizer_finish_switch_fiber(fake, from, from_size);
#else
    (void)fake, (void)from, (void)from_size;
#endif
}

static void task_main(void) {
    switch_end(NULL, &sched_stack, &sched_stack_size);
    uc_task *t = (uc_task *)rip__current();
    t->fn(t->arg);
    t->finished = 1;                /* uc_link returns to the scheduler */
    switch_begin(NULL, sched_stack, sched_stack_size);
}

static void run(rip_task *base) {
    uc_task *t = (uc_task *)base;
    void *fake;
    switch_begin(&fake, (char *)t->map + page_size, t->size);
    if (swapcontext(&sched_ctx, &t->ctx) == -1)
        rip__fatal("swapcontext: %s", strerror(errno));
    switch_end(fake, NULL, NULL);
    if (t->finished) {
        if (t->live_prev)
            t->live_prev->live_next = t->live_next;
        else
            live = t->live_next;
        if (t->live_next)
            t->live_next->live_prev = t->live_prev;
        task_free(t);
        rip__task_ended();
    }
}

int rip__backend_run_queue(unsigned budget) {
    return rip__run_queue(budget, run);
}

void rip__uc_park(void) {
    uc_task *t = (uc_task *)rip__current();
    void *fake;
    switch_begin(&fake, sched_stack, sched_stack_size);
    if (swapcontext(&t->ctx, &sched_ctx) == -1)
        rip__fatal("swapcontext: %s", strerror(errno));
    switch_end(fake, &sched_stack, &sched_stack_size);
}

void rip_spawn(rip_task_fn *fn, void *arg) {
    uc_task *t = task_new();
    t->fn = fn;
    t->arg = arg;
    t->finished = 0;
    t->ctx = blank_ctx;
    RIP_UNPOISON((char *)t->map + page_size, t->size); /* a reused stack: its last task's redzones */
    t->ctx.uc_stack.ss_sp = (char *)t->map + page_size;
    t->ctx.uc_stack.ss_size = t->size;
    t->ctx.uc_link = &sched_ctx;
    makecontext(&t->ctx, task_main, 0);
    t->live_prev = NULL;
    t->live_next = live;
    if (live)
        live->live_prev = t;
    live = t;
    rip__task_started(&t->base);
}

/* The run deadlocked: its blocked tasks go to the abandoned list.  Under
 * LeakSanitizer their stacks become root regions, so that what only a
 * blocked task's locals point to is not a leak either. */
static void abandon_tasks(void) {
    uc_task *t;
    pthread_mutex_lock(&abandoned_lock);
    while ((t = live)) {
        live = t->live_next;
#ifdef RIP_ASAN
        __lsan_register_root_region((char *)t->map + page_size, t->size);
#endif
        t->next_free = abandoned;
        abandoned = t;
    }
    chunk_map *m;
    while ((m = chunks)) {
        chunks = m->next;
        m->next = abandoned_chunks;
        abandoned_chunks = m;
    }
    chunk_left = 0;
    pthread_mutex_unlock(&abandoned_lock);
}

/* The run is over: give back the cached stacks, and the chunks too when
 * no blocked task is left on one (a worker thread that ends would leak
 * them, and with them the process's budget of guarded mappings); the
 * blocked tasks of a deadlock are abandoned. */
static void release_stacks(int clean) {
    if (!clean)
        abandon_tasks();            /* with their chunks */
    uc_task *t;
    while ((t = cache)) {
        cache = t->next_free;
        task_drop(t);
    }
    cached = 0;
    chunk_map *m;
    while ((m = chunks)) {
        chunks = m->next;
        RIP_UNPOISON(m->base, m->len);
        munmap(m->base, m->len);
        free(m);
    }
    chunk_left = 0;
}

int rip_run(rip_task_fn *fn, void *arg) {
    rip_spawn(fn, arg);
    int status = rip__sched_loop();
    release_stacks(status == 0);
    return status;
}

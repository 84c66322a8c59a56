/* sched.c -- tasks of the ucontext backend: each task runs on its own
 * stack with a guard page below it, and switches to the scheduler with
 * swapcontext.  Stack size: rip_set_stack_size, else RIP_STACK_SIZE
 * bytes, else 64 KiB.
 *
 * Stacks are carved from chunks (one mapping for many stacks), each with
 * its guard page made by MADV_GUARD_INSTALL (Linux 6.13), which costs no
 * mapping of its own; on an older kernel by mprotect, which splits the
 * chunk: two mappings a stack, so vm.max_map_count (65530 by default)
 * caps live tasks near 32,000.  No stack ever goes without its guard: a
 * spawn that cannot map a stack or guard it ends the program with a
 * message, as running out of memory for a task does.  A guard page hit
 * says so on stderr before the SIGSEGV ends the program.  Freed stacks
 * are kept for reuse: STACK_CACHE of them warm, the rest with their pages
 * given back to the system. */
#define _GNU_SOURCE                 /* MAP_NORESERVE, MADV_* */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>
#include "core.h"
#include "uc.h"
#include "../shared/gdb_script.h"
#include "../shared/san.h"
#include "../shared/sys.h"

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102      /* Linux 6.13; older headers lack it */
#endif

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
#define STACK_CACHE 1024            /* freed stacks kept with their pages */
#define STACK_WARM_IDLE 64          /* of those, kept warm once the loop idles after a spike */
#define CHUNK_BYTES (16u << 20)     /* a chunk maps about this much, */
#define CHUNK_STACKS 256            /*   and at most this many stacks */
#define ALT_STACK (64 * 1024)       /* the signal stack on which a guard page hit is reported */

typedef struct uc_task uc_task;
struct uc_task {
    rip_task base;                  /* run queue link; must come first */
    ucontext_t ctx;                 /* saved registers while switched out */
    void *map;                      /* its slot in a chunk: guard page, then stack */
    size_t size;                    /* usable stack bytes */
    rip_task_fn *fn;                /* the task's function */
    void *arg;                      /* its argument */
    int finished;                   /* fn has returned */
    unsigned vg_stack;              /* the stack's id for valgrind (san.h) */
    uc_task *next_free;             /* link in a stack cache, or in the abandoned list */
    uc_task *live_prev, *live_next; /* links in the thread's list of unfinished tasks */
};

/* Per scheduler thread. */
static __thread ucontext_t sched_ctx;   /* the scheduler loop's context */
static __thread sigset_t program_mask;  /* the signal mask the program set last (--posix), every context's */
static __thread int program_masked;     /* it set one: each switch carries it (swapcontext would restore the context's own) */

void rip__uc_mask_changed(const sigset_t *mask) {
    program_mask = *mask;
    program_masked = 1;
}
static __thread uc_task *cache;     /* finished tasks whose stacks are reused, pages warm */
static __thread int cached;         /* how many are in the cache */
static __thread uc_task *cold;      /* finished tasks whose stack pages went back to the system */
static __thread char *chunk;        /* the unused rest of the current chunk */
static __thread size_t chunk_left;  /* its bytes */
static __thread uc_task *live;      /* unfinished tasks, newest first */
static __thread const void *sched_stack; /* the scheduler's stack (for ASan) */
static __thread size_t sched_stack_size; /* its bytes */
static __thread void *alt_stack;    /* the signal stack this thread's run set up, or NULL */

typedef struct chunk_map chunk_map;
struct chunk_map {
    chunk_map *next;                /* the thread's other chunks */
    void *base;                     /* the mapping */
    size_t len;                     /* its bytes */
};
static __thread chunk_map *chunks;  /* every chunk this thread mapped */

/* Tasks blocked forever when a run deadlocked, and the chunks their stacks
 * are on: kept to the end of the process (channels and wait groups may
 * still name them), and reachable (no leak to a leak checker). */
static uc_task *abandoned;
static chunk_map *abandoned_chunks;
static pthread_mutex_t abandoned_lock = PTHREAD_MUTEX_INITIALIZER;

/* Per process. */
static pthread_once_t sizes_once = PTHREAD_ONCE_INIT;
static ucontext_t blank_ctx;        /* getcontext'd once; copied per task */
static size_t stack_size;           /* usable bytes per new stack, page-rounded */
static size_t page_size;
static int guard_by_mprotect;       /* the kernel has no MADV_GUARD_INSTALL */

/* vm.max_map_count, for the message when a guard page cannot be made. */
static long max_map_count(void) {
    long max = -1;
    FILE *f = fopen("/proc/sys/vm/max_map_count", "r");
    if (f) {
        if (fscanf(f, "%ld", &max) != 1)
            max = -1;
        fclose(f);
    }
    return max;
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
    rip__sys_pthread_once(&sizes_once, init_sizes);
    if (!bytes)
        return __atomic_load_n(&stack_size, __ATOMIC_RELAXED);
    return __atomic_exchange_n(&stack_size, round_stack(bytes), __ATOMIC_RELAXED);
}

/* A task is done with: its slot in the chunk stays unused until the
 * chunk goes. */
static void task_drop(uc_task *t) {
    RIP_STACK_DEREGISTER(t->vg_stack);
    free(t);
}

/* Make the page at p, the bottom of a slot, a guard page, or end the
 * program: a stack without one would let an overflow write over another
 * task's stack in silence. */
static void guard_page(char *p) {
    if (!__atomic_load_n(&guard_by_mprotect, __ATOMIC_RELAXED)) {
        if (madvise(p, page_size, MADV_GUARD_INSTALL) == 0)
            return;
        if (errno != EINVAL)
            rip__fatal("cannot make a task stack's guard page: madvise: %s", strerror(errno));
        __atomic_store_n(&guard_by_mprotect, 1, __ATOMIC_RELAXED); /* an older kernel */
    }
    if (mprotect(p, page_size, PROT_NONE) == -1)
        rip__fatal("cannot make a task stack's guard page: mprotect: %s (each guarded stack "
                   "takes two of the vm.max_map_count = %ld mappings on this kernel; "
                   "RIP_MAX_TASKS bounds the live tasks)", strerror(errno), max_map_count());
}

/* t->map: a slot of a guard page and t->size bytes of stack, from the
 * thread's current chunk, or a new one. */
static void stack_map(uc_task *t) {
    size_t slot = t->size + page_size;
    if (chunk_left < slot) {
        size_t n = CHUNK_BYTES / slot;
        n = n < 1 ? 1 : n > CHUNK_STACKS ? CHUNK_STACKS : n;
        void *base = mmap(NULL, n * slot, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (base == MAP_FAILED)
            rip__fatal("out of memory for task stacks: mmap of %zu bytes: %s",
                       n * slot, strerror(errno));
        chunk_map *m = malloc(sizeof *m);
        if (!m)
            rip__fatal("out of memory for a task");
        *m = (chunk_map){ chunks, base, n * slot };
        chunks = m;
        chunk = base;
        chunk_left = n * slot;
    }
    guard_page(chunk);
    t->map = chunk;
    chunk += slot;
    chunk_left -= slot;
}

/* A task struct with a stack of the current size: a cached one (warm
 * first), else a new slot. */
static uc_task *task_new(void) {
    rip__sys_pthread_once(&sizes_once, init_sizes);
    size_t size = __atomic_load_n(&stack_size, __ATOMIC_RELAXED);
    uc_task *t;
    while ((t = cache) || (t = cold)) {
        if (t == cache) {
            cache = t->next_free;
            cached--;
        } else {
            cold = t->next_free;
        }
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

/* t has finished: keep its stack for the next task; past STACK_CACHE
 * warm ones, give its pages back (the guard page stays). */
static void task_free(uc_task *t) {
    if (cached < STACK_CACHE) {
        t->next_free = cache;
        cache = t;
        cached++;
        return;
    }
    madvise((char *)t->map + page_size, t->size, MADV_DONTNEED); /* a hint: on failure the pages stay */
    t->next_free = cold;
    cold = t;
}

/* Core hook: the loop idles after many tasks ended (a spike of
 * connections): past STACK_WARM_IDLE warm stacks, give their pages back,
 * some MiB after a thousand tasks. */
void rip__backend_trim(void) {
    while (cached > STACK_WARM_IDLE) {
        uc_task *t = cache;
        cache = t->next_free;
        cached--;
        madvise((char *)t->map + page_size, t->size, MADV_DONTNEED); /* a hint, as in task_free */
        t->next_free = cold;
        cold = t;
    }
}

/* Append the string s to buf (n bytes used of cap): the new n.  For the
 * signal handler below, which may not call stdio. */
static size_t put(char *buf, size_t n, size_t cap, const char *s) {
    while (*s && n < cap)
        buf[n++] = *s++;
    return n;
}

/* A guard page hit is a task's stack overflow: say so, then let the
 * SIGSEGV end the program as it would have (returning re-runs the faulting
 * access with the default action; a SIGSEGV sent by kill is raised again).
 * Installed only where nothing else handles SIGSEGV. */
static void on_segv(int sig, siginfo_t *si, void *ctx) {
    (void)ctx;
    uc_task *t = (uc_task *)rip__current();
    char *at = si->si_addr;
    if (si->si_code > 0 && t && at >= (char *)t->map && at < (char *)t->map + page_size) {
        char msg[256], digits[24];
        size_t n = put(msg, 0, sizeof msg, "rip: a task overflowed its stack of "), d = 0;
        size_t v = t->size;
        do
            digits[d++] = (char)('0' + v % 10);
        while (v /= 10);
        while (d)
            msg[n++] = digits[--d];   /* room: the text so far is far shorter than msg */
        n = put(msg, n, sizeof msg, " bytes: the guard page below it stopped it "
                "(a bigger stack: RIP_STACK_SIZE or rip_set_stack_size)\n");
        ssize_t written = write(2, msg, n); /* if it fails, the SIGSEGV still ends it */
        (void)written;
    }
    struct sigaction dfl = { .sa_handler = SIG_DFL };
    rip__sys_sigaction(sig, &dfl, NULL);    /* past --posix's wrapper: the runtime's own */
    if (si->si_code <= 0)
        raise(sig);                 /* sent, not a fault: delivered once we return */
}

static pthread_once_t segv_once = PTHREAD_ONCE_INIT;

static void segv_install(void) {
    struct sigaction old, sa = { .sa_sigaction = on_segv, .sa_flags = SA_SIGINFO | SA_ONSTACK };
    sigemptyset(&sa.sa_mask);
    if (rip__sys_sigaction(SIGSEGV, NULL, &old) == 0 && !(old.sa_flags & SA_SIGINFO) &&
        old.sa_handler == SIG_DFL)
        rip__sys_sigaction(SIGSEGV, &sa, NULL);  /* the program's own handler, or ASan's, stays */
}

/* The run begins: the guard page report needs a stack of its own to run
 * on (the task's is used up), unless the thread has one. */
static void guard_report_begin(void) {
    stack_t ss;
    rip__sys_pthread_once(&segv_once, segv_install);
    if (sigaltstack(NULL, &ss) == -1 || !(ss.ss_flags & SS_DISABLE))
        return;
    void *p = mmap(NULL, ALT_STACK, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return;                     /* an overflow is still a SIGSEGV, without the message */
    ss = (stack_t){ .ss_sp = p, .ss_size = ALT_STACK };
    if (sigaltstack(&ss, NULL) == -1) {
        munmap(p, ALT_STACK);
        return;
    }
    alt_stack = p;
}

static void guard_report_end(void) {
    if (!alt_stack)
        return;
    stack_t ss = { .ss_flags = SS_DISABLE };
    sigaltstack(&ss, NULL);
    munmap(alt_stack, ALT_STACK);
    alt_stack = NULL;
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
    if (program_masked)
        sched_ctx.uc_sigmask = program_mask;
    switch_begin(NULL, sched_stack, sched_stack_size);
}

static void run(rip_task *base) {
    uc_task *t = (uc_task *)base;
    void *fake;
    switch_begin(&fake, (char *)t->map + page_size, t->size);
    if (program_masked)
        t->ctx.uc_sigmask = program_mask;
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
    if (program_masked)
        sched_ctx.uc_sigmask = program_mask;
    if (swapcontext(&t->ctx, &sched_ctx) == -1)
        rip__fatal("swapcontext: %s", strerror(errno));
    switch_end(fake, &sched_stack, &sched_stack_size);
}

int rip__can_park(void) {
    return rip__current() != NULL;
}

void rip__park(const char *call) {
    (void)call;
    rip__uc_park();
}

void rip__uc_exit(void) {
    uc_task *t = (uc_task *)rip__current();
    t->finished = 1;                /* run() frees the stack once we are off it */
    switch_begin(NULL, sched_stack, sched_stack_size);
    setcontext(&sched_ctx);
    rip__fatal("setcontext: %s", strerror(errno));
}

void rip_spawn(rip_task_fn *fn, void *arg) {
    rip__spawn_check();
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
    rip__sys_pthread_mutex_lock(&abandoned_lock);
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
    rip__sys_pthread_mutex_unlock(&abandoned_lock);
}

/* The run is over: give back the cached stacks, and the chunks too when
 * no blocked task is left on one (a worker thread that ends would leak
 * them); the blocked tasks of a deadlock are abandoned, with the chunks. */
static void release_stacks(int clean) {
    if (!clean)
        abandon_tasks();            /* with their chunks */
    uc_task *t;
    while ((t = cache)) {
        cache = t->next_free;
        task_drop(t);
    }
    while ((t = cold)) {
        cold = t->next_free;
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
    guard_report_begin();
    rip_spawn(fn, arg);
    int status = rip__sched_loop();
    release_stacks(status == 0);
    guard_report_end();
    return status;
}

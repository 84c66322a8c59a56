/* pool.c -- the slow paths of frame allocation for the rip backend (the
 * fast paths are inline in rip_frame.h): per-thread free lists, one per
 * 8-byte size class up to RIP__POOL_MAX bytes, refilled from slabs; no
 * lock and no malloc on the hot path.  Bigger blocks come from malloc.
 * Slabs are kept while the thread's run lasts (blocks are reused, not
 * returned to the system), and freed when it ends (rip__pool_end).
 *
 * The first slabs are 64 KiB from malloc, so a small program stays small.
 * Past HUGE_AFTER bytes of them a thread is spawning many tasks, and its
 * slabs become 2 MiB regions that the kernel may back with one
 * transparent huge page (madvise): first touching memory costs one fault
 * per 2 MiB instead of one per 4 KiB page, which is most of what a spawn
 * costs at 10^6 tasks (make bench-runtime). */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "rip_private.h"
#include "core.h"
#include "../shared/sys.h"

#define SLAB_BYTES (64 * 1024)      /* a first slab, carved into blocks of one class at a time */
#define HUGE_SLAB (2u << 20)        /* a later slab: one huge page */
#define HUGE_AFTER (4u << 20)       /* bytes of first slabs before slabs are huge */
#define BATCH 8                     /* blocks carved at a time */
#ifdef RIP__POOL_ASAN
#define HUGE_OK 0                   /* every slab from malloc, where LeakSanitizer looks */
#else
#define HUGE_OK 1
#endif

/* The start of every slab; its blocks follow. */
struct rip__slab {
    struct rip__slab *next;          /* the thread's older slabs */
    size_t bytes;                   /* the slab's size, this header included */
};
_Static_assert(sizeof(struct rip__slab) == 16, "blocks after the header stay 16-aligned");

__thread struct rip__pool rip__pool;

/* Slabs of runs that ended in a deadlock: they hold the frames of the tasks
 * blocked forever, which channels and wait groups may still name; kept to
 * the end of the process, and reachable (no leak to a leak checker). */
static struct rip__slab *abandoned;
static pthread_mutex_t abandoned_lock = PTHREAD_MUTEX_INITIALIZER;

/* A 2 MiB-aligned region of HUGE_SLAB bytes, or NULL. */
static char *huge_slab(void) {
    char *p = mmap(NULL, 2 * HUGE_SLAB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    char *start = (char *)(((uintptr_t)p + HUGE_SLAB - 1) & ~(uintptr_t)(HUGE_SLAB - 1));
    if (start > p)
        munmap(p, (size_t)(start - p));
    munmap(start + HUGE_SLAB, (size_t)(p + 2 * HUGE_SLAB - (start + HUGE_SLAB)));
#ifdef MADV_HUGEPAGE
    madvise(start, HUGE_SLAB, MADV_HUGEPAGE); /* a hint: without it, 4 KiB pages */
#endif
    return start;
}

static void new_slab(void) {
    size_t bytes = SLAB_BYTES;
    char *slab = NULL;
    if (HUGE_OK && rip__pool.slabbed >= HUGE_AFTER && (slab = huge_slab()))
        bytes = HUGE_SLAB;
    else if (!(slab = aligned_alloc(16, SLAB_BYTES)))
        rip__fatal("out of memory for frames");
    struct rip__slab *h = (struct rip__slab *)(void *)slab;
    *h = (struct rip__slab){ rip__pool.slabs, bytes };
    rip__pool.slabs = h;
    rip__pool.slab = slab + sizeof *h;
    rip__pool.slab_left = bytes - sizeof *h;
    rip__pool.slabbed += bytes;
    RIP__POOL_POISON(rip__pool.slab, rip__pool.slab_left);
}

void *rip__pool_slow(size_t bytes) {
    void *p;
    if (bytes > RIP__POOL_MAX) {
        if (!(p = aligned_alloc(16, (bytes + 15) & ~(size_t)15)))
            rip__fatal("out of memory for %zu bytes", bytes);
        return p;
    }
    if (bytes % 16 == 0 && (uintptr_t)rip__pool.slab % 16 && rip__pool.slab_left >= 8) {
        rip__pool.slab += 8;        /* a block that may hold a 16-aligned frame */
        rip__pool.slab_left -= 8;
    }
    if (rip__pool.slab_left < bytes)
        new_slab();
    /* Carve a batch: the next allocations of this class are inline pops. */
    size_t n = rip__pool.slab_left / bytes;
    if (n > BATCH)
        n = BATCH;
    void **head = &rip__pool.free[bytes / RIP__POOL_GRAIN - 1];
    p = rip__pool.slab;
    RIP__POOL_UNPOISON(p, n * bytes);
    for (size_t i = n - 1; i > 0; i--) {
        void *b = rip__pool.slab + i * bytes;
        *(void **)b = *head;
        *head = b;
        RIP__POOL_POISON(b, bytes);
    }
    rip__pool.slab += n * bytes;
    rip__pool.slab_left -= n * bytes;
    return p;
}

void rip__pool_free_big(void *p) {
    free(p);
}

void rip__pool_end(int clean) {
    struct rip__slab *s = rip__pool.slabs, *next;
    if (!clean && s) {
        struct rip__slab *last = s;
        while (last->next)
            last = last->next;
        rip__sys_pthread_mutex_lock(&abandoned_lock);
        last->next = abandoned;
        abandoned = s;
        rip__sys_pthread_mutex_unlock(&abandoned_lock);
    }
    for (; clean && s; s = next) {
        next = s->next;
        RIP__POOL_UNPOISON(s, s->bytes);
        if (s->bytes == HUGE_SLAB)
            munmap(s, s->bytes);
        else
            free(s);
    }
    memset(&rip__pool, 0, sizeof rip__pool);
}

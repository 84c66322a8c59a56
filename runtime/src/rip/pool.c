/* pool.c -- frame allocation for the rip backend: per-thread free lists,
 * one per 16-byte size class up to POOL_MAX bytes, refilled from 64 KiB
 * slabs; no lock and no malloc on the hot path.  Bigger frames come from
 * malloc.  Slabs are kept for the thread's lifetime (frames are reused,
 * not returned to the system). */
#include <stdlib.h>
#include "rip_frame.h"
#include "core.h"

#define POOL_GRAIN 16               /* bytes between size classes; frame alignment */
#define POOL_MAX 512                /* largest pooled frame */
#define POOL_CLASSES (POOL_MAX / POOL_GRAIN)
#define SLAB_BYTES (64 * 1024)      /* carved into frames of one class at a time */

typedef struct free_frame free_frame;
struct free_frame {
    free_frame *next;               /* next free frame of the same class */
};

static __thread struct {
    free_frame *free[POOL_CLASSES]; /* free frames by class (class i: (i+1)*16 bytes) */
    char *slab;                     /* unused rest of the current slab */
    size_t slab_left;               /* its bytes */
} pool;

static void *refill(size_t bytes) {
    if (pool.slab_left < bytes) {
        pool.slab = aligned_alloc(POOL_GRAIN, SLAB_BYTES);
        if (!pool.slab)
            rip__fatal("out of memory for frames");
        pool.slab_left = SLAB_BYTES;
    }
    void *p = pool.slab;
    pool.slab += bytes;
    pool.slab_left -= bytes;
    return p;
}

static size_t rounded(size_t size) {
    return (size + POOL_GRAIN - 1) & ~(size_t)(POOL_GRAIN - 1);
}

void *rip__pool_alloc(size_t size) {
    size_t bytes = rounded(size);
    void *p;
    if (bytes > POOL_MAX) {
        if (!(p = aligned_alloc(POOL_GRAIN, bytes)))
            rip__fatal("out of memory for %zu bytes", size);
        return p;
    }
    free_frame **head = &pool.free[bytes / POOL_GRAIN - 1];
    if (!*head)
        return refill(bytes);
    p = *head;
    *head = (*head)->next;
    return p;
}

void rip__pool_free(void *p, size_t size) {
    size_t bytes = rounded(size);
    if (bytes > POOL_MAX) {
        free(p);
        return;
    }
    free_frame *ff = p;
    free_frame **head = &pool.free[bytes / POOL_GRAIN - 1];
    ff->next = *head;
    *head = ff;
}

void *rip_frame_alloc(size_t size, rip_resume_fn *resume) {
    rip_frame *f = rip__pool_alloc(size);
    f->resume = resume;
    f->parent = NULL;
    f->state = 0;
    f->size = (unsigned)size;
    return f;
}

void rip_frame_free(rip_frame *f) {
    rip__pool_free(f, f->size);
}

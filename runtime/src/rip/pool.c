/* pool.c -- the slow paths of frame allocation for the rip backend (the
 * fast paths are inline in rip_frame.h): per-thread free lists, one per
 * 16-byte size class up to RIP_POOL_MAX bytes, refilled from 64 KiB slabs;
 * no lock and no malloc on the hot path.  Bigger blocks come from malloc.
 * Slabs are kept for the thread's lifetime (blocks are reused, not
 * returned to the system). */
#include <stdlib.h>
#include "rip_frame.h"
#include "core.h"

#define SLAB_BYTES (64 * 1024)      /* carved into blocks of one class at a time */

__thread struct rip_pool rip__pool;

void *rip__pool_slow(size_t bytes) {
    void *p;
    if (bytes > RIP_POOL_MAX) {
        if (!(p = aligned_alloc(RIP_POOL_GRAIN, bytes)))
            rip__fatal("out of memory for %zu bytes", bytes);
        return p;
    }
    if (rip__pool.slab_left < bytes) {
        rip__pool.slab = aligned_alloc(RIP_POOL_GRAIN, SLAB_BYTES);
        if (!rip__pool.slab)
            rip__fatal("out of memory for frames");
        rip__pool.slab_left = SLAB_BYTES;
    }
    p = rip__pool.slab;
    rip__pool.slab += bytes;
    rip__pool.slab_left -= bytes;
    return p;
}

void rip__pool_free_big(void *p) {
    free(p);
}

/* dump.c -- the rip backend's part of rip_dump_tasks (core/dump.c): a
 * task's logical call chain, read from its frames.  A suspended task's
 * innermost frame is its `impl`, and each frame links to its caller up to
 * the task's first; each frame's resume entry finds the table ripper
 * emitted for its function (rip_frame.h's struct rip__fninfo: name, file,
 * the source line of each resume point), and its state the line.  The
 * tables are sorted once, on the first dump. */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include "rip_private.h"
#include "core.h"
#include "../core/dumpline.h"
#include "../shared/sys.h"

extern const struct rip__fninfo __start_rip__fninfo[] __attribute__((weak));
extern const struct rip__fninfo __stop_rip__fninfo[] __attribute__((weak));

static const struct rip__fninfo **infos;    /* every table, by resume entry's address */
static size_t ninfos;

static int by_resume(const void *a, const void *b) {
    uintptr_t x = (uintptr_t)(*(const struct rip__fninfo *const *)a)->resume;
    uintptr_t y = (uintptr_t)(*(const struct rip__fninfo *const *)b)->resume;
    return x < y ? -1 : x > y;
}

static void sort_infos(void) {
    if (!__start_rip__fninfo || !__stop_rip__fninfo)
        return;
    size_t n = (size_t)(__stop_rip__fninfo - __start_rip__fninfo);
    infos = malloc((n ? n : 1) * sizeof *infos);
    if (!infos)
        return;                     /* no names: each level prints as unknown */
    for (size_t i = 0; i < n; i++)
        infos[i] = &__start_rip__fninfo[i];
    qsort(infos, n, sizeof *infos, by_resume);
    ninfos = n;
}

static const struct rip__fninfo *info_of(const rip_frame *f) {
    size_t lo = 0, hi = ninfos;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        uintptr_t at = (uintptr_t)infos[mid]->resume;
        if (at == (uintptr_t)f->resume)
            return infos[mid];
        if (at < (uintptr_t)f->resume)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static void level(rip_dump_out *o, const rip_frame *f, int running) {
    const struct rip__fninfo *info = info_of(f);
    rip_line l = { .len = 0 };
    if (!info) {
        rip__put_str(&l, "    ? (resume entry ");
        rip__put_ptr(&l, (const void *)(uintptr_t)f->resume);
        rip__put_str(&l, ": no line table; ripped by an older ripper, or in a shared object)\n");
    } else if (!info->file) {
        return;                     /* the runtime's: the wait says what it does */
    } else {
        rip__put_str(&l, "    ");
        rip__put_str(&l, info->name);
        rip__put_str(&l, " (");
        rip__put_str(&l, info->file);
        if (running) {
            rip__put_str(&l, ", running)\n");
        } else if (f->state >= 0 && f->state < info->points) {
            rip__put_str(&l, ":");
            rip__put_dec(&l, info->lines[f->state]);
            rip__put_str(&l, ")\n");
        } else {
            rip__put_str(&l, ", resume point ");
            rip__put_dec(&l, f->state);
            rip__put_str(&l, ")\n");
        }
    }
    rip__out_line(o, &l);
}

/* The running task (the caller of rip_dump_tasks) runs in the frame it
 * was resumed at, or one it called since, which are not linked yet: that
 * frame is printed without a line, its callers with theirs. */
void rip__backend_chain(rip_dump_out *o, rip_task *t, int running) {
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    rip__sys_pthread_once(&once, sort_infos);
    rip_frame *first = rip__task_first_frame(t), *f = t->impl;
    for (;; f = f->parent) {
        level(o, f, running);
        running = 0;
        if (f == first)
            break;
    }
}

void rip__backend_stats(struct rip_stats *st) {
    size_t pooled = rip__pool.slab_left;
    for (size_t i = 0; i < RIP__POOL_MAX / RIP__POOL_GRAIN; i++) {
        for (void *p = rip__pool.free[i], *next; p; p = next) {
            RIP__POOL_UNPOISON(p, sizeof(void *));  /* a free block: poisoned under ASan */
            next = *(void **)p;
            RIP__POOL_POISON(p, sizeof(void *));
            pooled += (i + 1) * RIP__POOL_GRAIN;
        }
    }
    st->pooled_bytes = pooled;
    st->frame_bytes = rip__pool.slabbed > pooled ? rip__pool.slabbed - pooled : 0;
}

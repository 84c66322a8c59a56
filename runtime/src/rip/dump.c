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
#include <string.h>
#include "rip_private.h"
#include "core.h"
#include "../core/dumpline.h"
#include "../shared/sys.h"

extern const struct rip__fninfo __start_rip__fninfo[] __attribute__((weak));
extern const struct rip__fninfo __stop_rip__fninfo[] __attribute__((weak));

typedef struct {
    uintptr_t resume;               /* the function's resume entry: the key */
    const struct rip__fninfo *info; /* its table */
    size_t name_len, file_len;      /* strlen of its name and file, once (file NULL: 0) */
} known;

static known *infos;                /* every table, by resume entry */
static size_t ninfos;

static int by_resume(const void *a, const void *b) {
    uintptr_t x = ((const known *)a)->resume, y = ((const known *)b)->resume;
    return x < y ? -1 : x > y;
}

static void sort_infos(void) {
    if (!__start_rip__fninfo || !__stop_rip__fninfo)
        return;
    size_t n = (size_t)(__stop_rip__fninfo - __start_rip__fninfo);
    known *k = malloc((n ? n : 1) * sizeof *k);
    if (!k)
        return;                     /* no names: each level prints as unknown */
    for (size_t i = 0; i < n; i++) {
        const struct rip__fninfo *info = &__start_rip__fninfo[i];
        k[i].resume = (uintptr_t)info->resume;
        k[i].info = info;
        k[i].name_len = strlen(info->name);
        k[i].file_len = info->file ? strlen(info->file) : 0;
    }
    qsort(k, n, sizeof *k, by_resume);
    infos = k;
    ninfos = n;
}

static const known *info_of(const rip_frame *f) {
    uintptr_t resume = (uintptr_t)f->resume;
    size_t lo = 0, hi = ninfos;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (infos[mid].resume == resume)
            return &infos[mid];
        if (infos[mid].resume < resume)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static void level(rip_dump_out *o, const rip_frame *f, int running) {
    const known *k = info_of(f);
    if (k && !k->info->file)
        return;                     /* the runtime's: the wait says what it does */
    rip_line l = rip__line_begin(o);
    if (!k) {
        rip__put_lit(&l, "    ? (resume entry ");
        rip__put_ptr(&l, (const void *)(uintptr_t)f->resume);
        rip__put_lit(&l, ": no line table; ripped by an older ripper, or in a shared object)");
    } else {
        const struct rip__fninfo *info = k->info;
        rip__put_lit(&l, "    ");
        rip__put_mem(&l, info->name, k->name_len);
        rip__put_lit(&l, " (");
        rip__put_mem(&l, info->file, k->file_len);
        if (running) {
            rip__put_lit(&l, ", running)");
        } else if (f->state >= 0 && f->state < info->points) {
            rip__put_lit(&l, ":");
            rip__put_dec(&l, info->lines[f->state]);
            rip__put_lit(&l, ")");
        } else {
            rip__put_lit(&l, ", resume point ");
            rip__put_dec(&l, f->state);
            rip__put_lit(&l, ")");
        }
    }
    rip__line_end(o, &l);
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

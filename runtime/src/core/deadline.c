/* deadline.c -- rip_set_deadline for the rip and ucontext backends.  Few
 * tasks set a deadline, and a rip task is a few dozen bytes, so deadlines
 * live in a per-scheduler hash table keyed by task rather than in every
 * task: a task without one pays nothing.  Open addressing with linear
 * probing; removal shifts the run back (no tombstones). */
#include "core.h"

static __thread struct {
    rip_task **keys;                /* NULL = empty slot */
    int64_t *values;                /* the deadlines */
    size_t cap;                     /* slots, a power of two */
    size_t count;                   /* tasks with a deadline */
} D;

static size_t slot_of(const rip_task *t) {
    uintptr_t h = (uintptr_t)t;
    h ^= h >> 17;
    h *= 0x9E3779B97F4A7C15u;
    return (size_t)(h >> 20) & (D.cap - 1);
}

static size_t find(const rip_task *t) {
    size_t i = slot_of(t);
    while (D.keys[i] && D.keys[i] != t)
        i = (i + 1) & (D.cap - 1);
    return i;
}

static void grow(void) {
    rip_task **keys = D.keys;
    int64_t *values = D.values;
    size_t cap = D.cap;
    D.cap = cap ? 2 * cap : 64;
    D.keys = calloc(D.cap, sizeof *D.keys);
    D.values = malloc(D.cap * sizeof *D.values);
    if (!D.keys || !D.values)
        rip__fatal("out of memory for deadlines");
    for (size_t i = 0; i < cap; i++) {
        if (keys[i]) {
            size_t j = find(keys[i]);
            D.keys[j] = keys[i];
            D.values[j] = values[i];
        }
    }
    free(keys);
    free(values);
}

int64_t rip__deadline(const rip_task *t) {
    if (!D.count)
        return -1;
    size_t i = find(t);
    return D.keys[i] ? D.values[i] : -1;
}

void rip__deadline_drop(const rip_task *t) {
    if (!D.count)
        return;
    size_t i = find(t);
    if (!D.keys[i])
        return;
    D.keys[i] = NULL;
    D.count--;
    /* Shift later members of the run back into the hole. */
    for (size_t j = (i + 1) & (D.cap - 1); D.keys[j]; j = (j + 1) & (D.cap - 1)) {
        size_t home = slot_of(D.keys[j]);
        if (((j - home) & (D.cap - 1)) >= ((j - i) & (D.cap - 1))) {
            D.keys[i] = D.keys[j];
            D.values[i] = D.values[j];
            D.keys[j] = NULL;
            i = j;
        }
    }
}

int64_t rip_set_deadline(int64_t at_ms) {
    rip_task *t = rip__current();
    rip_assert(t != NULL);          /* called outside any task */
    int64_t previous = rip__deadline(t);
    if (at_ms < 0) {
        rip__deadline_drop(t);
        return previous;
    }
    if (2 * (D.count + 1) > D.cap)
        grow();
    size_t i = find(t);
    if (!D.keys[i]) {
        D.keys[i] = t;
        D.count++;
    }
    D.values[i] = at_ms;
    return previous;
}

void rip__deadlines_end(void) {
    free(D.keys);
    free(D.values);
    D.keys = NULL;
    D.values = NULL;
    D.cap = D.count = 0;
}

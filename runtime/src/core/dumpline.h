/* dumpline.h -- the lines of rip_dump_tasks (core/dump.c, rip/dump.c),
 * formatted by hand straight into the block that is written next: at 10^6
 * tasks, printf's formatting, a stdio call per line and a copy of each
 * line were most of the dump's time.
 *
 *     rip_line l = rip__line_begin(o);
 *     rip__put_lit(&l, "task ");
 *     rip__put_ptr(&l, t);
 *     rip__line_end(o, &l);           -> "task 0x55d0c0a8b2a0\n"
 */
#ifndef RIP_DUMPLINE_H
#define RIP_DUMPLINE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "../shared/stdio_sys.h"

enum { RIP_LINE_MAX = 4096 };       /* a longer line is cut, and ends in "...\n" */

/* Where the lines go: formatted into `buf` and written a block at a time.
 * The block is malloc'd (a ucontext task's stack is small). */
typedef struct rip_dump_out {
    FILE *to;                       /* the dump's stream */
    char *buf;                      /* lines not yet written */
    size_t len, cap;                /* bytes in buf, its size (at least RIP_LINE_MAX) */
} rip_dump_out;

typedef struct {
    char *start;                    /* the line's first byte, in its block */
    char *at;                       /* where the next byte goes */
    char *end;                      /* start + RIP_LINE_MAX - 4: room left for "...\n" */
    int cut;                        /* something did not fit */
} rip_line;

static inline void rip__out_flush(rip_dump_out *o) {
    if (o->len)
        rip__sys_fwrite(o->buf, 1, o->len, o->to);
    o->len = 0;
}

/* A line begins where the block's bytes end, with room for the longest. */
static inline rip_line rip__line_begin(rip_dump_out *o) {
    if (o->cap - o->len < RIP_LINE_MAX)
        rip__out_flush(o);
    char *start = o->buf + o->len;
    rip_line l = { start, start, start + RIP_LINE_MAX - 4, 0 };
    return l;
}

/* Ends the line with its newline, and counts it in the block. */
static inline void rip__line_end(rip_dump_out *o, rip_line *l) {
    if (l->cut) {
        memcpy(l->at, "...", 3);
        l->at += 3;
    }
    *l->at++ = '\n';
    o->len += (size_t)(l->at - l->start);
}

static inline void rip__put_mem(rip_line *l, const char *s, size_t n) {
    if (n > (size_t)(l->end - l->at)) {
        n = (size_t)(l->end - l->at);
        l->cut = 1;
    }
    memcpy(l->at, s, n);
    l->at += n;
}

#define rip__put_lit(l, s) rip__put_mem((l), "" s, sizeof(s) - 1) /* a string literal */

static inline void rip__put_str(rip_line *l, const char *s) {
    rip__put_mem(l, s, strlen(s));
}

static inline void rip__put_dec(rip_line *l, long long v) {
    char digits[24], *d = digits + sizeof digits;
    unsigned long long u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
    do
        *--d = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (v < 0)
        *--d = '-';
    rip__put_mem(l, d, (size_t)(digits + sizeof digits - d));
}

static inline void rip__put_ptr(rip_line *l, const void *p) {     /* as printf's %p */
    char digits[24], *d = digits + sizeof digits;
    uintptr_t u = (uintptr_t)p;
    if (!p) {
        rip__put_lit(l, "(nil)");
        return;
    }
    do
        *--d = "0123456789abcdef"[u & 15];
    while ((u >>= 4) != 0);
    *--d = 'x';
    *--d = '0';
    rip__put_mem(l, d, (size_t)(digits + sizeof digits - d));
}

#endif

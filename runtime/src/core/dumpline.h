/* dumpline.h -- the lines of rip_dump_tasks (core/dump.c, rip/dump.c),
 * each formatted into one buffer by hand and written at once: at 10^6
 * tasks printf's formatting was most of the dump's time. */
#ifndef RIP_DUMPLINE_H
#define RIP_DUMPLINE_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "../shared/stdio_sys.h"

typedef struct {
    char text[512];                 /* the line so far, NUL-terminated */
    size_t len;                     /* its length (at most sizeof text - 1: a longer line is cut) */
} rip_line;

/* Where the lines go: collected into `buf` and written a block at a time
 * (one stdio call per line was a sixth of the dump of 10^6 tasks).  The
 * block is malloc'd (a ucontext task's stack is small); without one
 * (cap 0) each line goes straight to the stream. */
typedef struct rip_dump_out {
    FILE *to;                       /* the dump's stream */
    char *buf;                      /* lines not yet written, or NULL */
    size_t len, cap;                /* bytes in buf, its size */
} rip_dump_out;

static inline void rip__out_flush(rip_dump_out *o) {
    if (o->len)
        rip__sys_fwrite(o->buf, 1, o->len, o->to);
    o->len = 0;
}

static inline void rip__out_line(rip_dump_out *o, const rip_line *l) {
    if (l->len > o->cap - o->len) {
        rip__out_flush(o);
        if (l->len > o->cap) {
            rip__sys_fwrite(l->text, 1, l->len, o->to);
            return;
        }
    }
    memcpy(o->buf + o->len, l->text, l->len);
    o->len += l->len;
}

static inline void rip__put_str(rip_line *l, const char *str) {
    size_t n = strlen(str);
    if (n > sizeof l->text - 1 - l->len)
        n = sizeof l->text - 1 - l->len;
    memcpy(l->text + l->len, str, n);
    l->len += n;
    l->text[l->len] = 0;
}

static inline void rip__put_dec(rip_line *l, long long v) {
    char digits[24], *d = digits + sizeof digits;
    unsigned long long u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;
    *--d = 0;
    do
        *--d = (char)('0' + u % 10);
    while ((u /= 10) != 0);
    if (v < 0)
        *--d = '-';
    rip__put_str(l, d);
}

static inline void rip__put_ptr(rip_line *l, const void *p) {     /* as printf's %p */
    char digits[24], *d = digits + sizeof digits;
    uintptr_t u = (uintptr_t)p;
    if (!p) {
        rip__put_str(l, "(nil)");
        return;
    }
    *--d = 0;
    do
        *--d = "0123456789abcdef"[u & 15];
    while ((u >>= 4) != 0);
    *--d = 'x';
    *--d = '0';
    rip__put_str(l, d);
}

#endif

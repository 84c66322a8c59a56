/* scanf_calls.c -- the scanf family of rip_posix.h as plain C functions,
 * and their link-time wrappers (`ripcc --posix` wraps the names the
 * program's objects call, on rip and ucontext: scanf... and the __isoc99_
 * forms <stdio.h> renames them to): where the calling code can wait
 * (rip__can_park) the call is stepped by core/stdio.c and the task parks
 * while it waits (stdio_calls.c says how on each backend); glibc's
 * vfscanf reads the caller's va_list, alive on the task's stack.
 * Anywhere else it is the C library's call.  Ripped code on rip calls
 * the frames of rip/scanf.c instead. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include "core.h"
#include "rstdio.h"
#include "rip_posix.h"
#include "../shared/stdio_sys.h"

/* glibc's scanf before C99 (a -std=gnu89 program's scanf, whose %as
 * allocates): under --wrap=vfscanf the link gives it here. */
extern int __real_vfscanf(FILE *fp, const char *fmt, va_list ap) __attribute__((weak));

typedef int vfscanf_fn(FILE *fp, const char *fmt, va_list ap);

struct scan_args {
    vfscanf_fn *vfscanf;            /* glibc's: C99's (__isoc99_vfscanf) or the older */
    const char *fmt;                /* the format */
    va_list ap;                     /* the arguments (a copy; each attempt copies it again) */
};

static int scan_call(FILE *proxy, void *ctx) {
    struct scan_args *a = ctx;
    va_list again;
    va_copy(again, a->ap);
    int n = a->vfscanf(proxy, a->fmt, again);
    va_end(again);
    return n;
}

/* The call, with glibc's `real` vfscanf. */
static int vscan_with(vfscanf_fn *real, FILE *fp, const char *fmt, va_list ap) {
    if (!rip__can_park())
        return real(fp, fmt, ap);
    struct scan_args a = { .vfscanf = real, .fmt = fmt };
    va_copy(a.ap, ap);
    struct rip_scan scan = { .call = scan_call, .ctx = &a };
    size_t m[RIP_SCAN_MAX_M];
    rip__scan_format(fmt, m, RIP_SCAN_MAX_M, &scan.nm);
    if (scan.nm) {                  /* where the %m strings go: the pointers up to the last */
        size_t last = 0;
        for (size_t i = 0; i < scan.nm; i++)
            last = m[i] > last ? m[i] : last;
        va_list walk;
        va_copy(walk, ap);
        for (size_t i = 0; i <= last; i++) {
            void *p = va_arg(walk, void *);
            for (size_t k = 0; k < scan.nm; k++)
                if (m[k] == i)
                    scan.mtarget[k] = p;
        }
        va_end(walk);
    }
    rip_stdioop op = { .kind = RIP_SX_SCAN, .fp = fp, .scan = &scan, .parks = 1 };
    rip_waiter w;
    while (!rip__stdio_step(&op, &w))
        rip__park("scanf");
    va_end(a.ap);
    if (op.err)
        errno = op.err;
    return (int)op.result;
}

static int vscan(FILE *fp, const char *fmt, va_list ap) {
    return vscan_with(rip__sys___isoc99_vfscanf, fp, fmt, ap);
}

/* The names a program built before C99 calls (-std=gnu89): its scanf. */
static int vscan_gnu(FILE *fp, const char *fmt, va_list ap) {
    return vscan_with(__real_vfscanf ? __real_vfscanf : rip__sys___isoc99_vfscanf, fp, fmt, ap);
}

int rip_posix_vfscanf(FILE *fp, const char *fmt, va_list ap) { return vscan(fp, fmt, ap); }
int rip_posix_vscanf(const char *fmt, va_list ap) { return vscan(stdin, fmt, ap); }

int rip_posix_fscanf(FILE *fp, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vscan(fp, fmt, ap);
    va_end(ap);
    return n;
}

int rip_posix_scanf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vscan(stdin, fmt, ap);
    va_end(ap);
    return n;
}

int __wrap_vfscanf(FILE *fp, const char *fmt, va_list ap) { return vscan_gnu(fp, fmt, ap); }
int __wrap_vscanf(const char *fmt, va_list ap) { return vscan_gnu(stdin, fmt, ap); }
int __wrap___isoc99_vfscanf(FILE *fp, const char *fmt, va_list ap) { return vscan(fp, fmt, ap); }
int __wrap___isoc99_vscanf(const char *fmt, va_list ap) { return vscan(stdin, fmt, ap); }

int __wrap_fscanf(FILE *fp, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vscan_gnu(fp, fmt, ap);
    va_end(ap);
    return n;
}

int __wrap_scanf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vscan_gnu(stdin, fmt, ap);
    va_end(ap);
    return n;
}

int __wrap___isoc99_fscanf(FILE *fp, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vscan(fp, fmt, ap);
    va_end(ap);
    return n;
}

int __wrap___isoc99_scanf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vscan(stdin, fmt, ap);
    va_end(ap);
    return n;
}

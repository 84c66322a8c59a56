/* scanf.c -- scanf, fscanf, vscanf and vfscanf of rip_posix.h on the rip
 * backend: a hand-written frame each, which `ripper --posix` calls where
 * the program calls them; it steps core/stdio.c (glibc's vfscanf over the
 * bytes the task waited for).  The constructor keeps the caller's
 * arguments, all pointers, for glibc's vfscanf to read after a
 * suspension: as many as the format converts into (rip__scan_format). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include "rip_private.h"
#include "core.h"
#include "rstdio.h"
#include "rip_posix.h"
#include "../shared/stdio_sys.h"

struct scan_frame {
    rip_frame hdr;
    int result;                     /* RIP_RESULT slot: the conversions assigned, or EOF */
    const char *fmt;                /* the format */
    void **args;                    /* its pointers, in order (inline_args, or malloc'd) */
    void *inline_args[8];           /* a format's few */
    struct rip_scan scan;           /* the call's bytes, for core/stdio.c */
    rip_stdioop op;                 /* the call in progress */
    rip_waiter waiter;              /* our place in a wait list */
};

/* glibc's vfscanf with the kept pointers: a va_list over them. */
static int scan_call(FILE *proxy, void *ctx) {
    struct scan_frame *F = ctx;
#if defined(__x86_64__)
    /* the SysV x86-64 va_list with every register argument taken: va_arg
     * reads the next 8 bytes of overflow_arg_area, the pointers in order */
    struct { unsigned gp_offset, fp_offset; void *overflow_arg_area, *reg_save_area; } tag =
        { 48, 176, F->args, NULL };
    va_list ap;
    _Static_assert(sizeof ap == sizeof tag, "x86-64's va_list");
    memcpy(ap, &tag, sizeof tag);
    return rip__sys___isoc99_vfscanf(proxy, F->fmt, ap);
#else
    void **a = F->args;             /* more than the format reads are ignored (C11 7.16.1) */
    return fscanf(proxy, F->fmt, a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9],
                  a[10], a[11], a[12], a[13], a[14], a[15], a[16], a[17], a[18], a[19], a[20],
                  a[21], a[22], a[23], a[24], a[25], a[26], a[27], a[28], a[29], a[30], a[31]);
#endif
}

static void free_args(struct scan_frame *F) {
    if (F->args != F->inline_args)
        free(F->args);
    F->args = NULL;
}

static int scan_resume(rip_frame *f, rip_frame *done) {
    struct scan_frame *F = (struct scan_frame *)f;
    (void)done;
    if (!F->args) {                 /* the constructor failed: result and errno set */
        errno = F->op.err;
        return 1;
    }
    if (!rip__stdio_step(&F->op, &F->waiter)) {
        f->state = 1;
        rip__current()->impl = f;
        return 0;
    }
    free_args(F);
    if (F->op.err)
        errno = F->op.err;
    F->result = (int)F->op.result;
    return 1;
}

static rip_frame *scan_frame(FILE *fp, const char *fmt, va_list ap) {
    struct scan_frame *F = rip__frame_alloc(sizeof *F, scan_resume);
    memset(&F->result, 0, offsetof(struct scan_frame, op) - offsetof(struct scan_frame, result) +
           RIP_STDIO_CLEAR);
    F->fmt = fmt;
    size_t m[RIP_SCAN_MAX_M], nm;
    size_t n = rip__scan_format(fmt, m, RIP_SCAN_MAX_M, &nm), slots = n;
#if !defined(__x86_64__)
    if (n > 32) {                   /* scan_call passes 32 */
        F->result = EOF;
        F->op.err = EINVAL;
        return &F->hdr;
    }
    slots = 32;
#endif
    F->args = slots <= 8 ? F->inline_args : calloc(slots, sizeof *F->args);
    if (!F->args) {
        F->result = EOF;
        F->op.err = ENOMEM;
        return &F->hdr;
    }
    for (size_t i = 0; i < n; i++)
        F->args[i] = va_arg(ap, void *);
    for (size_t i = 0; i < nm; i++)
        F->scan.mtarget[i] = F->args[m[i]];
    F->scan.nm = nm;
    F->scan.call = scan_call;
    F->scan.ctx = F;
    F->op.kind = RIP_SX_SCAN;
    F->op.fp = fp;
    F->op.scan = &F->scan;
    return &F->hdr;
}

rip_frame *rip__new_rip_posix_vfscanf(FILE *fp, const char *fmt, va_list ap) {
    return scan_frame(fp, fmt, ap);
}

rip_frame *rip__new_rip_posix_vscanf(const char *fmt, va_list ap) {
    return scan_frame(stdin, fmt, ap);
}

rip_frame *rip__new_rip_posix_fscanf(FILE *fp, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    rip_frame *f = scan_frame(fp, fmt, ap);
    va_end(ap);
    return f;
}

rip_frame *rip__new_rip_posix_scanf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    rip_frame *f = scan_frame(stdin, fmt, ap);
    va_end(ap);
    return f;
}

RIP__RUNTIME_FRAME(scan_resume, "scanf");

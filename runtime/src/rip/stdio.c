/* stdio.c -- the stdio calls of rip_posix.h on the rip backend: a
 * hand-written frame for each, which `ripper --posix` calls where the
 * program calls fgets, printf...  Each steps core/stdio.c, the task
 * waiting between steps; the constructor does what needs the caller's
 * arguments at once (a printf is formatted there, its va_list alive). */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include "rip_private.h"
#include "core.h"
#include "rstdio.h"
#include "rip_posix.h"

void __chk_fail(void) __attribute__((noreturn));

enum {
    RET_FIXED,                      /* decided by the constructor: result and err set */
    RET_PUT_INT,                    /* fputs, fputc, puts, printf...: rip__stdio_put_result */
    RET_PUT_SIZE,                   /* fwrite: rip__stdio_put_result */
    RET_INT,                        /* fgetc, fflush, fclose: op.result */
    RET_FGETS,                      /* op.s or NULL */
    RET_SSIZE,                      /* getdelim: op.result */
    RET_FREAD                       /* fread: elements from op.result bytes */
};

struct sx_frame {
    rip_frame hdr;
    union { int i; size_t z; ssize_t n; char *p; } result; /* RIP_RESULT slot: the call's type */
    int ret;                        /* how the call's result comes from op: RET_* */
    int fixed_err;                  /* RET_FIXED: errno to set, or 0 */
    size_t nmemb;                   /* fread: elements asked for */
    rip_stdioop op;                 /* the call in progress */
    rip_waiter waiter;              /* our place in a wait list */
};

static int sx_resume(rip_frame *f, rip_frame *done) {
    struct sx_frame *F = (struct sx_frame *)f;
    (void)done;
    if (F->ret == RET_FIXED) {
        if (F->fixed_err)
            errno = F->fixed_err;
        return 1;
    }
    if (!rip__stdio_step(&F->op, &F->waiter)) {
        f->state = 1;
        rip__current()->impl = f;
        return 0;
    }
    if (F->op.err)
        errno = F->op.err;
    switch (F->ret) {
    case RET_PUT_INT: F->result.i = (int)rip__stdio_put_result(&F->op); break;
    case RET_PUT_SIZE: F->result.z = (size_t)rip__stdio_put_result(&F->op); break;
    case RET_INT: F->result.i = (int)F->op.result; break;
    case RET_FGETS: F->result.p = F->op.result ? F->op.s : NULL; break;
    case RET_SSIZE: F->result.n = F->op.result; break;
    default:
        F->result.z = (size_t)F->op.result == F->op.n ? F->nmemb : (size_t)F->op.result / F->op.size;
    }
    return 1;
}

static struct sx_frame *sx_frame(int kind, FILE *fp, int ret) {
    struct sx_frame *F = rip__frame_alloc(sizeof *F, sx_resume);
    memset(&F->result, 0, offsetof(struct sx_frame, op) - offsetof(struct sx_frame, result) +
           RIP_STDIO_CLEAR);
    F->op.kind = kind;
    F->op.fp = fp;
    F->ret = ret;
    return F;
}

static rip_frame *fixed_int(struct sx_frame *F, int value, int err) {
    F->ret = RET_FIXED;
    F->result.i = value;
    F->fixed_err = err;
    return &F->hdr;
}

static rip_frame *put_frame(FILE *fp, int call, const void *data, size_t n, size_t size) {
    struct sx_frame *F = sx_frame(RIP_SX_PUT, fp, call == RIP_PUT_FWRITE ? RET_PUT_SIZE : RET_PUT_INT);
    F->op.put = call;
    F->op.data = data;
    F->op.n = n;
    F->op.size = size;
    return &F->hdr;
}

rip_frame *rip__new_rip_posix_fwrite(const void *p, size_t size, size_t n, FILE *fp) {
    if (size == 0 || n == 0) {
        struct sx_frame *F = sx_frame(RIP_SX_PUT, fp, RET_FIXED);
        F->result.z = 0;
        return &F->hdr;
    }
    return put_frame(fp, RIP_PUT_FWRITE, p, size * n, size);
}

rip_frame *rip__new_rip_posix_fputs(const char *s, FILE *fp) {
    return put_frame(fp, RIP_PUT_FPUTS, s, strlen(s), 1);
}

rip_frame *rip__new_rip_posix_fputc(int c, FILE *fp) {
    struct sx_frame *F = (struct sx_frame *)(void *)put_frame(fp, RIP_PUT_FPUTC, NULL, 1, 1);
    F->op.small[0] = (char)c;
    F->op.data = F->op.small;
    return &F->hdr;
}

rip_frame *rip__new_rip_posix_putc(int c, FILE *fp) { return rip__new_rip_posix_fputc(c, fp); }
rip_frame *rip__new_rip_posix_putchar(int c) { return rip__new_rip_posix_fputc(c, stdout); }

rip_frame *rip__new_rip_posix_puts(const char *s) {
    size_t len = strlen(s);
    struct sx_frame *F = (struct sx_frame *)(void *)put_frame(stdout, RIP_PUT_PUTS, NULL, len + 1, 1);
    F->op.text = len + 2 <= sizeof F->op.small ? F->op.small : malloc(len + 2);
    if (!F->op.text)
        return fixed_int(F, EOF, ENOMEM);
    memcpy(F->op.text, s, len);
    F->op.text[len] = '\n';
    F->op.text[len + 1] = '\0';
    F->op.data = F->op.text;
    return &F->hdr;
}

static rip_frame *print_frame(FILE *fp, int flag, const char *fmt, va_list ap) {
    struct sx_frame *F = (struct sx_frame *)(void *)put_frame(fp, RIP_PUT_PRINTF, NULL, 0, 1);
    if (rip__stdio_format(&F->op, flag, fmt, ap) == -1)
        return fixed_int(F, -1, errno);
    return &F->hdr;
}

rip_frame *rip__new_rip_posix_vfprintf(FILE *fp, const char *fmt, va_list ap) {
    return print_frame(fp, -1, fmt, ap);
}

rip_frame *rip__new_rip_posix_vprintf(const char *fmt, va_list ap) {
    return print_frame(stdout, -1, fmt, ap);
}

rip_frame *rip__new_rip_posix_fprintf(FILE *fp, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    rip_frame *f = print_frame(fp, -1, fmt, ap);
    va_end(ap);
    return f;
}

rip_frame *rip__new_rip_posix_printf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    rip_frame *f = print_frame(stdout, -1, fmt, ap);
    va_end(ap);
    return f;
}

static rip_frame *dprint_frame(int fd, const char *fmt, va_list ap) {
    struct sx_frame *F = sx_frame(RIP_SX_DPRINTF, NULL, RET_INT);
    F->op.fd = fd;
    if (rip__stdio_format(&F->op, -1, fmt, ap) == -1)
        return fixed_int(F, -1, errno);
    return &F->hdr;
}

rip_frame *rip__new_rip_posix_vdprintf(int fd, const char *fmt, va_list ap) {
    return dprint_frame(fd, fmt, ap);
}

rip_frame *rip__new_rip_posix_dprintf(int fd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    rip_frame *f = dprint_frame(fd, fmt, ap);
    va_end(ap);
    return f;
}

rip_frame *rip__new_rip_posix_fflush(FILE *fp) {
    return &sx_frame(RIP_SX_FLUSH, fp, RET_INT)->hdr;
}

rip_frame *rip__new_rip_posix_fclose(FILE *fp) {
    return &sx_frame(RIP_SX_CLOSE, fp, RET_INT)->hdr;
}

rip_frame *rip__new_rip_posix_fgets(char *s, int n, FILE *fp) {
    struct sx_frame *F = sx_frame(RIP_SX_FGETS, fp, RET_FGETS);
    F->op.s = s;
    F->op.limit = n;
    if (n <= 0) {
        F->ret = RET_FIXED;
        F->result.p = NULL;
    }
    return &F->hdr;
}

rip_frame *rip__new_rip_posix_fgetc(FILE *fp) {
    return &sx_frame(RIP_SX_FGETC, fp, RET_INT)->hdr;
}

rip_frame *rip__new_rip_posix_getc(FILE *fp) { return rip__new_rip_posix_fgetc(fp); }
rip_frame *rip__new_rip_posix_getchar(void) { return rip__new_rip_posix_fgetc(stdin); }

rip_frame *rip__new_rip_posix_getdelim(char **line, size_t *n, int delim, FILE *fp) {
    struct sx_frame *F = sx_frame(RIP_SX_GETDELIM, fp, RET_SSIZE);
    F->op.lineptr = line;
    F->op.linecap = n;
    F->op.delim = delim;
    return &F->hdr;
}

rip_frame *rip__new_rip_posix_getline(char **line, size_t *n, FILE *fp) {
    return rip__new_rip_posix_getdelim(line, n, '\n', fp);
}

rip_frame *rip__new_rip_posix_fread(void *p, size_t size, size_t n, FILE *fp) {
    struct sx_frame *F = sx_frame(RIP_SX_FREAD, fp, RET_FREAD);
    F->op.s = p;
    F->op.n = size * n;
    F->op.size = size;
    F->nmemb = n;
    if (F->op.n == 0) {
        F->ret = RET_FIXED;
        F->result.z = 0;
    }
    return &F->hdr;
}

RIP__RUNTIME_FRAME(sx_resume, "stdio");

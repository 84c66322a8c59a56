/* rstdio.h -- stdio of POSIX mode on the rip and ucontext backends
 * (stdio.c): one stdio call stepped like an fd call, the task waiting
 * where glibc's call would block its thread.  (Not named stdio.h: the
 * runtime is built with -I on this folder.) */
#ifndef RIP_RSTDIO_H
#define RIP_RSTDIO_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include "core.h"

/* Which call a RIP_SX_PUT is, for its result (rip__stdio_put_result). */
enum { RIP_PUT_FWRITE, RIP_PUT_FPUTS, RIP_PUT_FPUTC, RIP_PUT_PUTS, RIP_PUT_PRINTF };

enum {
    RIP_SX_PUT,                     /* bytes out: fwrite, fputs, puts, printf..., fputc */
    RIP_SX_FGETS,                   /* fgets */
    RIP_SX_FGETC,                   /* fgetc, getc, getchar */
    RIP_SX_GETDELIM,                /* getdelim, getline */
    RIP_SX_FREAD,                   /* fread */
    RIP_SX_FLUSH,                   /* fflush (fp NULL: every stream) */
    RIP_SX_CLOSE,                   /* fclose */
    RIP_SX_DPRINTF,                 /* dprintf, vdprintf: the text (data, n) to fd, all of it */
    RIP_SX_SCAN                     /* the scanf family: glibc's vfscanf, fed (scan) */
};

/* A scanf call in progress (the caller's: in the rip frame, on the
 * ucontext task's stack).  glibc's vfscanf runs over a proxy stream that
 * serves `taken` (core/stdio.c says how). */
struct rip_scan {
    int (*call)(FILE *proxy, void *ctx); /* glibc's vfscanf(proxy, the call's format and arguments) */
    void *ctx;                      /* what `call` needs: the format and the arguments */
    char *taken;                    /* the bytes this call took from the stream's buffer (malloc'd) */
    size_t len, cap;                /* their number, and taken's size */
    size_t chunk;                   /* the last refill's share of them: still in the buffer, before its read pointer */
    size_t pos;                     /* during an attempt: how many the proxy has served */
    int end;                        /* 0; EOF: the stream's end is reached; 1: its read failed (err) */
    int err;                        /* end 1: the read's errno */
    jmp_buf abandon;                /* the proxy was asked for a byte beyond `taken`: give up the attempt */
    void **mtarget[8];              /* where %m conversions store their strings (the first 8) */
    void *mbefore[8];               /* what each held before the attempt */
    size_t nm;                      /* their number */
    char proxy_buf[512];            /* the proxy's buffer */
};

#define RIP_SCAN_MAX_M 8            /* the %m conversions whose abandoned strings are freed */

typedef struct {
    int kind;                       /* RIP_SX_* */
    FILE *fp;                       /* the stream (DPRINTF: NULL) */
    int fd;                         /* DPRINTF: the fd */
    int put;                        /* PUT: which call (RIP_PUT_*) */
    size_t size;                    /* PUT of fwrite: the element size (n is size * count) */
    int final;                      /* PUT: result is the call's own (glibc's call made it) */
    const char *data;               /* PUT: the bytes (the caller's, or `text`) */
    size_t n;                       /* PUT, FREAD: bytes asked for */
    char *text;                     /* PUT of a printf: the formatted text, malloc'd unless `small` */
    char *s;                        /* FGETS, FREAD: the caller's buffer */
    int limit;                      /* FGETS: its size */
    size_t chk;                     /* FGETS of __fgets_chk: the buffer's real size (0: unchecked) */
    char **lineptr;                 /* GETDELIM: the caller's line and its size */
    size_t *linecap;
    int delim;                      /* GETDELIM: the delimiter */
    /* progress */
    int pc, fpc, upc, wpc, lpc;     /* where each step (the call, flush, fill, write, lock) resumes; 0 at its start */
    size_t to_do;                   /* bytes not yet moved */
    size_t done;                    /* bytes moved so far (FGETS, GETDELIM, FREAD) */
    int must_flush;                 /* PUT: a line-buffered stream got a newline */
    int old_error;                  /* FGETS: the error flag before the call */
    FILE *ffp;                      /* the stream the flush step writes out */
    int fres;                       /* the flush step's result: 0, or EOF */
    int ures;                       /* the fill step's result: the next byte, or EOF */
    const char *wdata;              /* the write step's bytes */
    size_t wlen, wdone;             /* their number, and how many went */
    FILE **all;                     /* FLUSH of every stream: those with bytes to write (malloc'd) */
    size_t nall, iall;              /* their number, and the next one */
    FILE *held[2];                  /* streams this call holds against the other tasks (NULL: none) */
    int parks;                      /* run by plain code that parks (stdio_calls.c), not a frame */
    int waiting_lock;               /* queued on lockfp's holder */
    int flocked;                    /* flockfile(fp) is held for the call */
    ssize_t result;                 /* when done: PUT bytes taken (or EOF), FGETS 1/0, FGETC the byte
                                       or EOF, GETDELIM/FREAD count or -1, FLUSH/CLOSE 0 or EOF */
    int err;                        /* when done: errno to set, or 0 to leave errno alone */
    struct rip_stdio_io *io;        /* the fd call or wait, once the op needs one (malloc'd) */
    struct rip_scan *scan;          /* SCAN: the call (its maker's) */
    /* set before each use: a new op need not clear it (RIP_STDIO_CLEAR) */
    char small[128];                /* PUT of a printf or puts: a short text; of fputc: the byte */
} rip_stdioop;

#define RIP_STDIO_CLEAR offsetof(rip_stdioop, small) /* the bytes of a new op that must start zero */

/* What an op needs only when it must move bytes through the fd: apart,
 * so that the op (in a rip frame) stays small for the common call the
 * buffer serves. */
struct rip_stdio_io {
    rip_pxop px;                    /* the write (or fread's read) in progress */
    rip_intr intr;                  /* px's record for a signal's EINTR (psignal.c) */
    struct pollfd pfd;              /* the fd waited on for input */
    rip_pollop poll;                /* that wait */
};

int rip__stdio_step(rip_stdioop *op, rip_waiter *w); /* 1 done (result, err set), 0 queued: wait */
int rip__stdio_format(rip_stdioop *op, int flag, const char *fmt, va_list ap); /* a printf's text into op (data, n): 0, or -1 and errno (flag >= 0: the _chk form's) */
long rip__stdio_put_result(const rip_stdioop *op); /* a finished PUT: what its call returns */
size_t rip__scan_format(const char *fmt, size_t *alloc, size_t max_alloc, size_t *nalloc); /* a scanf format's pointers: how many, and (the first max_alloc) which receive a %m string (indexes from 0) */

#endif

/* stdio.c -- stdio on sockets, pipes and terminals in POSIX mode, on the
 * rip and ucontext backends: the call suspends its task where glibc's
 * would block the thread, and otherwise means exactly what glibc's does.
 *
 * glibc only: its FILE's buffer pointers and flags are public
 * (<bits/types/struct_FILE.h>), and the code below follows libio's own
 * (fileops.c, genops.c, iogetdelim.c, iofgets.c) on them:
 *   - output (_IO_new_file_xsputn, _IO_default_xsputn, new_do_write): the
 *     bytes are copied into the buffer while it has room; where glibc would
 *     write -- a full buffer, a newline on a line-buffered stream, every
 *     call on an unbuffered one, the whole blocks of a big write -- the
 *     pending bytes go out through the runtime's waiting write (posix.c)
 *     and the pointers are reset as glibc resets them (even after an
 *     error, which sets the error flag: glibc drops the buffer too);
 *   - input (__underflow): the buffer serves what it holds; when it is
 *     empty, the task waits until the fd is readable, then glibc's own
 *     fgetc refills it with its one read(2) and ungetc puts the byte back;
 *     fgets, getdelim and fread copy out of the buffer as glibc's do and
 *     refill the same way (a big fread reads straight into the caller's
 *     buffer, one waiting read per block, as glibc's);
 *   - before a refill, what glibc writes first is written first: the
 *     stream's own pending output, and stdout's when the stream is line-
 *     buffered or unbuffered and stdout is line-buffered (a prompt).
 * A stream goes straight to glibc when waiting cannot happen or cannot
 * be told: a regular file, block device or directory, no fd (fmemopen,
 * open_memstream), a wide stream, or an fd the program put in O_NONBLOCK
 * (glibc then says EAGAIN through the error flag, as it would).  The fd's
 * file status flags are never changed.  A printf is formatted first (into
 * the call's own bytes), then written as one fwrite: the same bytes; on a
 * line-buffered stream its lines may leave in one write(2) where glibc's
 * makes one per piece of the format.
 *
 * Tasks: a call that suspends holds its stream against the other tasks of
 * the scheduler (a FIFO of waiters, as a mutex) and flockfile(3) against
 * other threads, so each call's bytes stay together as glibc's lock keeps
 * them.  A waiting read leaves the same race as posix.c's poll: another
 * process reading the same fd between the wake and the read leaves the
 * read blocking the thread. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio_ext.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>
#include "rstdio.h"
#include "../shared/stdio_sys.h"

/* glibc's FILE flags (libio.h: part of its ABI, which macros compiled
 * into old programs read). */
#define F_UNBUFFERED 0x0002
#define F_NO_READS 0x0004
#define F_NO_WRITES 0x0008
#define F_EOF 0x0010
#define F_ERR 0x0020
#define F_LINKED 0x0080
#define F_IN_BACKUP 0x0100
#define F_LINE_BUF 0x0200
#define F_PUTTING 0x0800
#define F_APPENDING 0x1000

extern FILE *_IO_list_all;          /* glibc: the open streams, chained by _chain */
void _IO_list_lock(void);
void _IO_list_unlock(void);
void _IO_doallocbuf(FILE *fp);
void __chk_fail(void) __attribute__((noreturn));
int __vsnprintf_chk(char *s, size_t maxlen, int flag, size_t slen, const char *fmt, va_list ap);

/* The steps below are resumable functions (protothreads): `pc` records
 * the line of the wait to resume at; state that lives across a wait is
 * in the op. */
#define BEGIN(pc) switch (pc) { case 0:
#define END(pc) } pc = 0
#define AWAIT(op, pc, expr) \
    do { pc = __LINE__; __attribute__((fallthrough)); case __LINE__: \
         if (!(expr)) { hold_all(op); return 0; } } while (0)

/* -- streams held by a task against the others ----------------------- */

struct busy {
    FILE *fp;                       /* the stream */
    rip_task *holder;               /* the task whose call suspended on it */
    rip_waitlist waiters;           /* the other tasks' calls, oldest first */
    struct busy *next;              /* next held stream in its bucket */
};
/* The streams held now, one per suspended call (10,000 connections each
 * waiting in fgets are 10,000): a hash table by FILE address, chained,
 * grown by doubling, per scheduler thread. */
static __thread struct busy **busy_buckets; /* NULL until a stream is first held */
static __thread size_t busy_nbuckets;       /* a power of two, or 0 */
static __thread size_t busy_count;          /* streams held now */

static struct busy **bucket_of(const FILE *fp, struct busy **buckets, size_t n) {
    uintptr_t h = (uintptr_t)fp >> 4;       /* FILEs are 16-byte aligned */
    return &buckets[(h * 0x9E3779B97F4A7C15u >> 32) & (n - 1)];
}

static struct busy *busy_of(FILE *fp) {
    if (!busy_count)
        return NULL;
    for (struct busy *b = *bucket_of(fp, busy_buckets, busy_nbuckets); b; b = b->next)
        if (b->fp == fp)
            return b;
    return NULL;
}

/* Add b; the table doubles when it holds as many streams as buckets. */
static void busy_add(struct busy *b) {
    if (busy_count >= busy_nbuckets) {
        size_t n = busy_nbuckets ? 2 * busy_nbuckets : 64;
        struct busy **grown = calloc(n, sizeof *grown);
        if (!grown)
            rip__fatal("stdio: out of memory");
        for (size_t i = 0; i < busy_nbuckets; i++)
            for (struct busy *x = busy_buckets[i], *next; x; x = next) {
                next = x->next;
                struct busy **slot = bucket_of(x->fp, grown, n);
                x->next = *slot;
                *slot = x;
            }
        free(busy_buckets);
        busy_buckets = grown;
        busy_nbuckets = n;
    }
    struct busy **slot = bucket_of(b->fp, busy_buckets, busy_nbuckets);
    b->next = *slot;
    *slot = b;
    busy_count++;
}

static void busy_remove(struct busy *b) {
    for (struct busy **p = bucket_of(b->fp, busy_buckets, busy_nbuckets); *p; p = &(*p)->next)
        if (*p == b) {
            *p = b->next;
            busy_count--;
            return;
        }
    rip_assert(!"a held stream is in the table");
}

static int holds(const rip_stdioop *op, FILE *fp) {
    return op->held[0] == fp || op->held[1] == fp;
}

static void note_held(rip_stdioop *op, FILE *fp) {
    if (!holds(op, fp))
        op->held[op->held[0] ? 1 : 0] = fp;
}

/* The call is about to suspend: hold its streams (none is held by
 * another task: each was waited for first, with no suspension since). */
static void hold(rip_stdioop *op, FILE *fp) {
    if (!fp || holds(op, fp) || busy_of(fp) || (op->held[0] && op->held[1]))
        return;
    struct busy *b = calloc(1, sizeof *b);
    if (!b)
        rip__fatal("stdio: out of memory");
    b->fp = fp;
    b->holder = rip__current();
    busy_add(b);
    note_held(op, fp);
}

static void hold_all(rip_stdioop *op) {
    hold(op, op->fp);
    hold(op, op->ffp);
}

/* 1 when no other task holds fp; 0 when the call queued behind it (the
 * holder hands fp over when its call ends). */
static int lock_step(rip_stdioop *op, FILE *fp, rip_waiter *w) {
    if (op->waiting_lock) {
        op->waiting_lock = 0;
        note_held(op, fp);          /* handed over: ours */
        return 1;
    }
    struct busy *b = busy_of(fp);
    if (!b || b->holder == rip__current())
        return 1;
    if (op->parks && rip__nested_below(b->holder))
        rip__fatal("stdio: a call in plain code (a function called through a pointer, or a "
                   "library) would wait for a stream that a task holds while it waits itself "
                   "further down this thread's stack: it could never return; make the call "
                   "from a thread's own code");
    w->task = rip__current();
    w->status = 0;
    rip__wl_push(&b->waiters, w);
    op->waiting_lock = 1;
    return 0;
}

/* Let fp go: to its longest waiter, else free. */
static void release_one(rip_stdioop *op, FILE *fp) {
    for (int i = 0; i < 2; i++)
        if (op->held[i] == fp)
            op->held[i] = NULL;
    struct busy *b = fp ? busy_of(fp) : NULL;
    if (!b || b->holder != rip__current())
        return;                     /* never held (the call did not suspend), or another's */
    rip_waiter *w = rip__wl_pop(&b->waiters);
    if (w) {
        b->holder = w->task;
        rip__ready(w->task);
        return;
    }
    busy_remove(b);
    free(b);
}

static void release(rip_stdioop *op) {
    FILE *first = op->held[0], *second = op->held[1];
    release_one(op, first);
    release_one(op, second);
}

/* -- glibc's FILE ----------------------------------------------------- */

/* Does fp go straight to glibc (it cannot wait, or the program asked not to)? */
static int takes_real(FILE *fp) {
    struct stat st;
    int fd = fp->_fileno;
    if (fd < 0 || fp->_mode > 0)
        return 1;
    if (fstat(fd, &st) == 0 && (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode) || S_ISDIR(st.st_mode)))
        return 1;
    int fl = fcntl(fd, F_GETFL);
    return fl != -1 && (fl & O_NONBLOCK);
}

/* new_do_write's reset after a write (done or failed). */
static void reset_after_write(FILE *fp) {
    fp->_IO_read_base = fp->_IO_read_ptr = fp->_IO_read_end = fp->_IO_buf_base;
    fp->_IO_write_base = fp->_IO_write_ptr = fp->_IO_buf_base;
    fp->_IO_write_end = fp->_mode <= 0 && (fp->_flags & (F_LINE_BUF | F_UNBUFFERED)) ?
        fp->_IO_buf_base : fp->_IO_buf_end;
}

/* Bytes written at the stream's position: its offset, as _IO_new_file_write. */
static void moved(FILE *fp, size_t n) {
    if (fp->_flags & F_APPENDING)
        fp->_offset = -1;
    else if (fp->_offset >= 0)
        fp->_offset += (off64_t)n;
}

/* The op's fd call and wait state, made on first need. */
static void need_io(rip_stdioop *op) {
    if (!op->io && !(op->io = malloc(sizeof *op->io)))
        rip__fatal("stdio: out of memory");
}

/* Write op->wdata[wdone..wlen) to op->ffp's fd (no stream: op->fd), as
 * _IO_new_file_write: until all went or an error (which sets the
 * stream's error flag). */
static int write_step(rip_stdioop *op, rip_waiter *w) {
    BEGIN(op->wpc);
    while (op->wdone < op->wlen) {
        need_io(op);
        op->io->px = (rip_pxop){ .kind = RIP_PX_WRITE, .fd = op->ffp ? op->ffp->_fileno : op->fd,
                             .buf = (void *)(op->wdata + op->wdone), .len = op->wlen - op->wdone,
                             .intr = &op->io->intr };
        AWAIT(op, op->wpc, rip__px_step(&op->io->px, w) != 0);
        if (op->io->px.result < 0) {
            if (op->ffp)
                op->ffp->_flags |= F_ERR;
            op->err = op->io->px.err;
            break;
        }
        op->wdone += (size_t)op->io->px.result;
    }
    END(op->wpc);
    return 1;
}

/* _IO_do_flush(op->ffp): its pending bytes out; fres 0, or EOF. */
static int flush_step(rip_stdioop *op, rip_waiter *w) {
    FILE *fp = op->ffp;
    BEGIN(op->fpc);
    op->fres = 0;
    if (fp->_IO_write_ptr <= fp->_IO_write_base)
        break;
    if (!(fp->_flags & F_APPENDING) && fp->_IO_read_end != fp->_IO_write_base) {
        /* unread input before the output: glibc seeks back over it (a pipe refuses) */
        off64_t pos = lseek64(fp->_fileno, fp->_IO_write_base - fp->_IO_read_end, SEEK_CUR);
        if (pos == -1) {
            op->err = errno;
            op->fres = EOF;
            break;
        }
        fp->_offset = pos;
    }
    op->wdata = fp->_IO_write_base;
    op->wlen = (size_t)(fp->_IO_write_ptr - fp->_IO_write_base);
    op->wdone = 0;
    AWAIT(op, op->fpc, write_step(op, w));
    moved(fp, op->wdone);
    reset_after_write(fp);
    op->fres = op->wdone == op->wlen ? 0 : EOF;
    END(op->fpc);
    return 1;
}

/* glibc's fgetc, the byte put back: a refill that cannot wait (or the
 * one read(2) after the fd said readable). */
static int peek_real(rip_stdioop *op) {
    int c = rip__sys_fgetc(op->fp);
    if (c == EOF) {
        if (op->fp->_flags & F_ERR)
            op->err = errno;
    } else {
        ungetc(c, op->fp);
    }
    return c;
}

/* __underflow(op->fp): ures is the next byte (left in the buffer), or
 * EOF (the flags say which). */
static int fill_step(rip_stdioop *op, rip_waiter *w) {
    FILE *fp = op->fp;
    BEGIN(op->upc);
    for (;;) {
        if (fp->_IO_read_ptr < fp->_IO_read_end) {
            op->ures = (unsigned char)*fp->_IO_read_ptr;
            break;
        }
        if ((fp->_flags & (F_EOF | F_NO_READS)) ||
                ((fp->_flags & F_IN_BACKUP) && fp->_IO_save_end > fp->_IO_save_base) ||
                takes_real(fp)) {
            op->ures = peek_real(op);   /* sticky EOF, the main buffer after ungetc's: no read */
            break;
        }
        if (!fp->_IO_buf_base && !fp->_IO_save_base)
            _IO_doallocbuf(fp);     /* first, as glibc: it makes a terminal's stream line-buffered */
        if (fp->_IO_write_ptr > fp->_IO_write_base) {   /* _IO_switch_to_get_mode */
            op->ffp = fp;
            AWAIT(op, op->upc, flush_step(op, w));
            if (op->fres == EOF) {
                op->ures = EOF;
                break;
            }
            continue;
        }
        if ((fp->_flags & (F_LINE_BUF | F_UNBUFFERED)) && fp != stdout &&
                (stdout->_flags & (F_LINKED | F_NO_WRITES | F_LINE_BUF)) == (F_LINKED | F_LINE_BUF) &&
                stdout->_IO_write_ptr > stdout->_IO_write_base) {
            AWAIT(op, op->upc, lock_step(op, stdout, w));   /* a prompt before the read */
            flockfile(stdout);
            op->ffp = stdout;
            AWAIT(op, op->upc, flush_step(op, w));
            op->ffp = NULL;
            funlockfile(stdout);
            release_one(op, stdout);    /* held for the flush only, as glibc's lock */
            continue;
        }
        need_io(op);
        op->io->pfd = (struct pollfd){ .fd = fp->_fileno, .events = POLLIN };
        op->io->poll = (rip_pollop){ .fds = &op->io->pfd, .n = 1, .timeout_ms = -1 };
        AWAIT(op, op->upc, rip__poll_step(&op->io->poll));
        if (op->io->poll.result < 0) {  /* the task's deadline */
            fp->_flags |= F_ERR;
            op->err = op->io->poll.err;
            op->ures = EOF;
            break;
        }
        op->ures = peek_real(op);
        break;
    }
    END(op->upc);
    return 1;
}

/* -- the calls -------------------------------------------------------- */

/* Could the bytes go into fp's buffer with no write at all? */
static int fits(FILE *fp, const char *data, size_t n) {
    if (!(fp->_flags & F_PUTTING) || !fp->_IO_write_base || (fp->_flags & (F_UNBUFFERED | F_NO_WRITES)))
        return 0;
    if (fp->_flags & F_LINE_BUF)
        return (size_t)(fp->_IO_buf_end - fp->_IO_write_ptr) >= n && !memchr(data, '\n', n);
    return (size_t)(fp->_IO_write_end - fp->_IO_write_ptr) >= n;
}

/* _IO_new_file_xsputn(fp, data, n), stepped: result the count taken, or -1 (EOF). */
static int put_step(rip_stdioop *op, rip_waiter *w) {
    FILE *fp = op->fp;
    size_t count;
    BEGIN(op->pc);
    AWAIT(op, op->pc, lock_step(op, fp, w));
    if (op->n == 0) {
        op->result = 0;
        break;
    }
    if (fits(fp, op->data, op->n)) {
        fp->_IO_write_ptr = mempcpy(fp->_IO_write_ptr, op->data, op->n);
        op->result = (ssize_t)op->n;
        break;
    }
    if (fp->_flags & F_NO_WRITES) {
        fp->_flags |= F_ERR;
        op->err = EBADF;
        op->result = 0;
        break;
    }
    if (takes_real(fp)) {           /* glibc's own call, its result as it is */
        op->final = 1;
        switch (op->put) {
        case RIP_PUT_FWRITE: op->result = (ssize_t)rip__sys_fwrite(op->data, op->size, op->n / op->size, fp); break;
        case RIP_PUT_FPUTS: op->result = rip__sys_fputs(op->data, fp); break;
        case RIP_PUT_FPUTC: op->result = rip__sys_fputc((unsigned char)op->data[0], fp); break;
        case RIP_PUT_PUTS: op->result = rip__sys_fputs(op->data, fp) == EOF ? EOF :
                               op->n > INT_MAX ? INT_MAX : (ssize_t)op->n; break;
        default: op->result = rip__sys_fwrite(op->data, 1, op->n, fp) == op->n ? (ssize_t)op->n : -1;
        }
        break;
    }
    if (fp->_mode == 0)
        fwide(fp, -1);
    op->to_do = op->n;
    /* no buffer yet, or reading: glibc's first put sets it up (fputc of a byte that
     * does not write), else a lone newline to a line-buffered stream goes at once */
    while (op->to_do > 0 && (!(fp->_flags & F_PUTTING) || !fp->_IO_write_base) &&
           !(fp->_flags & F_UNBUFFERED)) {
        if (op->data[0] != '\n' || (!(fp->_flags & F_LINE_BUF) &&
                                    (fp->_IO_buf_base || !isatty(fp->_fileno)))) {
            if (rip__sys_fputc((unsigned char)op->data[0], fp) == EOF) {
                op->err = errno;
                break;
            }
        } else {
            op->ffp = fp;
            op->wdata = op->data;
            op->wlen = 1;
            op->wdone = 0;
            AWAIT(op, op->pc, write_step(op, w));
            if (op->wdone != 1)
                break;
        }
        op->data++;
        op->to_do--;
    }
    if (op->to_do == 0 || (!(fp->_flags & F_UNBUFFERED) &&
                           (!(fp->_flags & F_PUTTING) || !fp->_IO_write_base))) {
        op->result = (ssize_t)(op->n - op->to_do);
        break;
    }
    /* _IO_new_file_xsputn: fill the buffer, up to the last newline on a line-buffered one */
    count = 0;
    op->must_flush = 0;
    if ((fp->_flags & F_LINE_BUF) && (fp->_flags & F_PUTTING)) {
        count = (size_t)(fp->_IO_buf_end - fp->_IO_write_ptr);
        if (count >= op->to_do) {
            const char *nl = memrchr(op->data, '\n', op->to_do);
            if (nl) {
                count = (size_t)(nl - op->data) + 1;
                op->must_flush = 1;
            }
        }
    } else if (fp->_IO_write_end > fp->_IO_write_ptr) {
        count = (size_t)(fp->_IO_write_end - fp->_IO_write_ptr);
    }
    if (count > op->to_do)
        count = op->to_do;
    if (count) {
        fp->_IO_write_ptr = mempcpy(fp->_IO_write_ptr, op->data, count);
        op->data += count;
        op->to_do -= count;
    }
    if (op->to_do + (size_t)op->must_flush == 0) {
        op->result = (ssize_t)op->n;
        break;
    }
    op->ffp = fp;
    AWAIT(op, op->pc, flush_step(op, w));
    if (op->fres == EOF) {
        op->result = op->to_do == 0 ? -1 : (ssize_t)(op->n - op->to_do);
        break;
    }
    /* whole blocks straight from the caller's bytes */
    count = (size_t)(fp->_IO_buf_end - fp->_IO_buf_base);
    op->wlen = op->to_do - (count >= 128 ? op->to_do % count : 0);
    if (op->wlen) {
        op->wdata = op->data;
        op->wdone = 0;
        AWAIT(op, op->pc, write_step(op, w));
        moved(fp, op->wdone);
        reset_after_write(fp);
        op->data += op->wdone;
        op->to_do -= op->wdone;
        if (op->wdone < op->wlen) {
            op->result = (ssize_t)(op->n - op->to_do);
            break;
        }
    }
    /* the rest (less than a block), as _IO_default_xsputn: into the room,
     * then a byte at a time through the overflow (a newline flushes a
     * line-buffered stream, a full buffer is written first) */
    while (op->to_do > 0) {
        if (fp->_IO_write_ptr < fp->_IO_write_end) {
            count = (size_t)(fp->_IO_write_end - fp->_IO_write_ptr);
            if (count > op->to_do)
                count = op->to_do;
            fp->_IO_write_ptr = mempcpy(fp->_IO_write_ptr, op->data, count);
            op->data += count;
            op->to_do -= count;
            continue;
        }
        if (fp->_IO_write_ptr == fp->_IO_buf_end) {
            AWAIT(op, op->pc, flush_step(op, w));
            if (op->fres == EOF)
                break;
        }
        count = (size_t)(fp->_IO_buf_end - fp->_IO_write_ptr);
        if (count > op->to_do)
            count = op->to_do;
        {
            const char *nl = (fp->_flags & F_LINE_BUF) ? memchr(op->data, '\n', count) : NULL;
            if (nl)
                count = (size_t)(nl - op->data) + 1;
            op->must_flush = nl != NULL || (fp->_flags & F_UNBUFFERED);
        }
        fp->_IO_write_ptr = mempcpy(fp->_IO_write_ptr, op->data, count);
        op->data += count;
        op->to_do -= count;
        if (op->must_flush) {
            AWAIT(op, op->pc, flush_step(op, w));
            if (op->fres == EOF) {
                op->to_do++;        /* the byte whose overflow failed is not counted */
                break;
            }
        }
    }
    op->result = (ssize_t)(op->n - op->to_do);
    END(op->pc);
    return 1;
}

/* fgets: result 1 (s holds the line) or 0 (NULL). */
static int fgets_step(rip_stdioop *op, rip_waiter *w) {
    FILE *fp = op->fp;
    BEGIN(op->pc);
    AWAIT(op, op->pc, lock_step(op, fp, w));
    if (op->limit <= 1) {
        op->result = rip__sys_fgets(op->s, op->limit, fp) != NULL;
        break;
    }
    op->old_error = fp->_flags & F_ERR;
    fp->_flags &= ~F_ERR;
    op->done = 0;
    for (;;) {
        if (fp->_IO_read_ptr >= fp->_IO_read_end) {
            AWAIT(op, op->pc, fill_step(op, w));
            if (op->ures == EOF)
                break;
            continue;
        }
        size_t m = (size_t)(fp->_IO_read_end - fp->_IO_read_ptr), left = (size_t)op->limit - 1 - op->done;
        if (m > left)
            m = left;
        const char *nl = memchr(fp->_IO_read_ptr, '\n', m);
        if (nl)
            m = (size_t)(nl - fp->_IO_read_ptr) + 1;
        memcpy(op->s + op->done, fp->_IO_read_ptr, m);
        fp->_IO_read_ptr += m;
        op->done += m;
        if (nl || op->done == (size_t)op->limit - 1)
            break;
    }
    if (op->chk && op->done >= op->chk && !(op->done == 0 || ((fp->_flags & F_ERR) && op->err != EAGAIN)))
        __chk_fail();               /* __fgets_chk: the line would not fit the buffer */
    if (op->done == 0 || ((fp->_flags & F_ERR) && op->err != EAGAIN)) {
        op->result = 0;
    } else {
        op->s[op->done] = '\0';
        op->result = 1;
        op->err = 0;
    }
    fp->_flags |= op->old_error;
    END(op->pc);
    return 1;
}

static int fgetc_step(rip_stdioop *op, rip_waiter *w) {
    BEGIN(op->pc);
    AWAIT(op, op->pc, lock_step(op, op->fp, w));
    AWAIT(op, op->pc, fill_step(op, w));
    op->result = op->ures == EOF ? EOF : rip__sys_fgetc(op->fp);
    END(op->pc);
    return 1;
}

/* __getdelim: the line's length, or -1. */
static int getdelim_step(rip_stdioop *op, rip_waiter *w) {
    FILE *fp = op->fp;
    BEGIN(op->pc);
    AWAIT(op, op->pc, lock_step(op, fp, w));
    op->result = -1;
    if (!op->lineptr || !op->linecap) {
        op->err = EINVAL;
        break;
    }
    if (fp->_flags & F_ERR)
        break;
    if (!*op->lineptr || *op->linecap == 0) {
        *op->linecap = 120;
        if (!(*op->lineptr = malloc(*op->linecap))) {
            op->err = ENOMEM;
            break;
        }
    }
    op->done = 0;
    if (fp->_IO_read_ptr >= fp->_IO_read_end) {
        AWAIT(op, op->pc, fill_step(op, w));
        if (op->ures == EOF)
            break;
    }
    for (;;) {
        size_t len = (size_t)(fp->_IO_read_end - fp->_IO_read_ptr);
        const char *t = memchr(fp->_IO_read_ptr, op->delim, len);
        if (t)
            len = (size_t)(t - fp->_IO_read_ptr) + 1;
        size_t needed = op->done + len + 1;
        if (needed > *op->linecap) {
            if (needed < 2 * *op->linecap)
                needed = 2 * *op->linecap;
            char *grown = realloc(*op->lineptr, needed);
            if (!grown) {
                op->err = ENOMEM;
                op->done = (size_t)-1;
                break;
            }
            *op->lineptr = grown;
            *op->linecap = needed;
        }
        memcpy(*op->lineptr + op->done, fp->_IO_read_ptr, len);
        fp->_IO_read_ptr += len;
        op->done += len;
        if (t)
            break;
        AWAIT(op, op->pc, fill_step(op, w));
        if (op->ures == EOF)
            break;
    }
    if (op->done != (size_t)-1) {
        (*op->lineptr)[op->done] = '\0';
        op->result = (ssize_t)op->done;
        op->err = 0;
    }
    END(op->pc);
    return 1;
}

/* _IO_file_xsgetn: result the bytes read. */
static int fread_step(rip_stdioop *op, rip_waiter *w) {
    FILE *fp = op->fp;
    BEGIN(op->pc);
    AWAIT(op, op->pc, lock_step(op, fp, w));
    op->to_do = op->n;
    if (!fp->_IO_buf_base && !fp->_IO_save_base)
        _IO_doallocbuf(fp);
    while (op->to_do > 0) {
        size_t have = fp->_IO_read_ptr < fp->_IO_read_end ?
            (size_t)(fp->_IO_read_end - fp->_IO_read_ptr) : 0;
        char *to = op->s + (op->n - op->to_do);
        if (op->to_do <= have) {
            memcpy(to, fp->_IO_read_ptr, op->to_do);
            fp->_IO_read_ptr += op->to_do;
            op->to_do = 0;
            break;
        }
        if (have) {
            memcpy(to, fp->_IO_read_ptr, have);
            fp->_IO_read_ptr += have;
            op->to_do -= have;
            to += have;
        }
        if ((fp->_flags & F_IN_BACKUP) || !fp->_IO_buf_base ||
                op->to_do < (size_t)(fp->_IO_buf_end - fp->_IO_buf_base)) {
            AWAIT(op, op->pc, fill_step(op, w));    /* a buffer's worth: refill it */
            if (op->ures == EOF)
                break;
            continue;
        }
        /* a block or more: straight into the caller's buffer, whole blocks */
        fp->_IO_read_base = fp->_IO_read_ptr = fp->_IO_read_end = fp->_IO_buf_base;
        fp->_IO_write_base = fp->_IO_write_ptr = fp->_IO_write_end = fp->_IO_buf_base;
        {
            size_t block = (size_t)(fp->_IO_buf_end - fp->_IO_buf_base), count = op->to_do;
            if (block >= 128)
                count -= op->to_do % block;
            need_io(op);
            op->io->px = (rip_pxop){ .kind = RIP_PX_READ, .fd = fp->_fileno, .buf = to, .len = count,
                                     .intr = &op->io->intr };
        }
        AWAIT(op, op->pc, rip__px_step(&op->io->px, w) != 0);
        if (op->io->px.result <= 0) {
            if (op->io->px.result == 0) {
                fp->_flags |= F_EOF;
            } else {
                fp->_flags |= F_ERR;
                op->err = op->io->px.err;
            }
            break;
        }
        op->to_do -= (size_t)op->io->px.result;
        if (fp->_offset >= 0)
            fp->_offset += op->io->px.result;
    }
    op->result = (ssize_t)(op->n - op->to_do);
    END(op->pc);
    return 1;
}

/* -- the scanf family ------------------------------------------------- */

/* glibc's own vfscanf runs over a proxy stream (fopencookie) that serves
 * the bytes this call took from fp's buffer (taken).  Asked for a byte
 * beyond them, the proxy abandons the attempt (a longjmp out of its read,
 * before the conversion in progress stores a value; %s, %c and %[ store
 * their bytes as they go, and the next attempt stores the same again);
 * the task waits for fp's next refill (fill_step: glibc's one read, where
 * glibc's scanf would make it, after the same prompt flush), takes it,
 * and a new attempt runs from the call's first byte.  Each attempt reads
 * a prefix of the same bytes, so the last does what glibc's scanf on fp
 * does; the bytes it left unread (its pushed-back byte, or more when the
 * refill brought more) are the end of the last refill, still in fp's
 * buffer: the read pointer goes back over them.  A %m conversion's
 * string stored by an abandoned attempt (glibc stores it as it grows) is
 * freed and the pointer restored (the first RIP_SCAN_MAX_M of a format;
 * the backend names where they go). */

static ssize_t proxy_read(void *cookie, char *buf, size_t size) {
    struct rip_scan *s = cookie;
    if (s->pos == s->len) {
        if (s->end == EOF)
            return 0;
        if (s->end) {
            errno = s->err;
            return -1;
        }
        longjmp(s->abandon, 1);     /* glibc would read here: wait for the refill, start again */
    }
    size_t n = s->len - s->pos < size ? s->len - s->pos : size;
    memcpy(buf, s->taken + s->pos, n);
    s->pos += n;
    return (ssize_t)n;
}

/* Move what fp's buffer holds into taken (it is now the call's). */
static void take(rip_stdioop *op) {
    struct rip_scan *s = op->scan;
    FILE *fp = op->fp;
    size_t n = (size_t)(fp->_IO_read_end - fp->_IO_read_ptr);
    s->chunk = n;
    if (n == 0)
        return;                     /* (no buffer yet: its pointers are NULL) */
    if (s->len + n > s->cap) {
        size_t cap = s->cap ? s->cap : 256;
        while (cap < s->len + n)
            cap *= 2;
        char *grown = realloc(s->taken, cap);
        if (!grown)
            rip__fatal("scanf: out of memory");
        s->taken = grown;
        s->cap = cap;
    }
    memcpy(s->taken + s->len, fp->_IO_read_ptr, n);
    s->len += n;
    fp->_IO_read_ptr = fp->_IO_read_end;
}

/* One run of glibc's vfscanf over taken: 1 when it finished (result,
 * err set; its unread bytes back in fp), 0 when it wanted more. */
static int scan_attempt(rip_stdioop *op) {
    struct rip_scan *s = op->scan;
    int saved = errno;
    s->pos = 0;
    FILE *volatile proxy = fopencookie(s, "r", (cookie_io_functions_t){ .read = proxy_read });
    if (!proxy) {
        op->result = EOF;
        op->err = errno;
        errno = saved;
        return 1;
    }
    for (size_t i = 0; i < s->nm; i++)
        s->mbefore[i] = *s->mtarget[i];
    setvbuf(proxy, s->proxy_buf, _IOFBF, sizeof s->proxy_buf);  /* not a malloc'd one per call */
    errno = 0;                      /* what glibc's call sets, it sets (ERANGE, the read's) */
    if (setjmp(s->abandon)) {
        rip__sys_fclose(proxy);     /* its lock, which glibc's vfscanf took, goes with it */
        for (size_t i = 0; i < s->nm; i++)
            if (*s->mtarget[i] != s->mbefore[i]) {  /* a %m string of this attempt's */
                free(*s->mtarget[i]);
                *s->mtarget[i] = s->mbefore[i];
            }
        errno = saved;
        return 0;
    }
    op->result = s->call(proxy, s->ctx);
    op->err = errno;
    /* what glibc's vfscanf left unread: the proxy's buffer (and its
     * backup area, where it put back more than one byte over a refill's
     * edge: a multibyte separator that did not match), and what it never
     * asked for */
    size_t unread = (size_t)(proxy->_IO_read_end - proxy->_IO_read_ptr) + (s->len - s->pos);
    if (proxy->_flags & F_IN_BACKUP)
        unread += (size_t)(proxy->_IO_save_end - proxy->_IO_save_base);
    rip__sys_fclose(proxy);
    errno = saved;
    if (unread) {                   /* back into fp: the last refill's end is still in its buffer */
        FILE *fp = op->fp;
        size_t back = unread < s->chunk ? unread : s->chunk;
        rip_assert(unread <= s->len && (size_t)(fp->_IO_read_ptr - fp->_IO_read_base) >= back);
        fp->_IO_read_ptr -= back;
        rip_assert(memcmp(fp->_IO_read_ptr, s->taken + s->len - back, back) == 0);
        for (size_t i = back; i < unread; i++)  /* before it: as glibc's ungetc would */
            ungetc((unsigned char)s->taken[s->len - 1 - i], fp);
    }
    return 1;
}

/* scanf, fscanf, vscanf, vfscanf: result glibc's (the conversions
 * assigned, or EOF), err its errno (0: untouched). */
static int scan_step(rip_stdioop *op, rip_waiter *w) {
    FILE *fp = op->fp;
    struct rip_scan *s = op->scan;
    BEGIN(op->pc);
    AWAIT(op, op->pc, lock_step(op, fp, w));
    if (fp->_mode > 0 || (fp->_flags & F_NO_READS) ||
            (fp->_IO_read_ptr >= fp->_IO_read_end && takes_real(fp))) {
        int saved = errno;          /* cannot wait (or glibc refuses it): glibc's call on fp */
        errno = 0;
        op->result = s->call(fp, s->ctx);
        op->err = errno;
        errno = saved;
        break;
    }
    if (fp->_mode == 0)
        fwide(fp, -1);              /* as glibc's vfscanf orients fp */
    s->len = s->chunk = 0;
    s->end = 0;
    take(op);
    while (!scan_attempt(op)) {
        AWAIT(op, op->pc, fill_step(op, w));
        if (op->ures != EOF) {
            take(op);
            continue;
        }
        s->end = (fp->_flags & F_EOF) ? EOF : 1;
        s->err = op->err ? op->err : EIO;
        s->chunk = 0;
        op->err = 0;
    }
    END(op->pc);
    return 1;
}

/* Is fp still an open stream? */
static int listed(FILE *fp) {
    int found = 0;
    _IO_list_lock();
    for (FILE *f = _IO_list_all; f && !found; f = f->_chain)
        found = f == fp;
    _IO_list_unlock();
    return found;
}

/* fflush(fp), or of every stream (fp NULL): 0 or EOF. */
static int flush_call_step(rip_stdioop *op, rip_waiter *w) {
    BEGIN(op->pc);
    if (op->fp) {
        AWAIT(op, op->pc, lock_step(op, op->fp, w));
        if (op->fp->_IO_write_ptr > op->fp->_IO_write_base && !takes_real(op->fp)) {
            op->ffp = op->fp;
            AWAIT(op, op->pc, flush_step(op, w));
            if (op->fres == EOF) {
                op->result = EOF;
                break;
            }
        }
        op->result = rip__sys_fflush(op->fp);   /* nothing to write now: glibc's seek, its offset */
        break;
    }
    /* every stream with bytes pending, then glibc's fflush(NULL) for the rest */
    _IO_list_lock();
    for (FILE *f = _IO_list_all; f; f = f->_chain)
        op->nall++;
    op->all = malloc((op->nall ? op->nall : 1) * sizeof *op->all);
    op->nall = 0;
    for (FILE *f = _IO_list_all; f && op->all; f = f->_chain)
        if (f->_IO_write_ptr > f->_IO_write_base)
            op->all[op->nall++] = f;
    _IO_list_unlock();
    op->result = 0;
    for (op->iall = 0; op->iall < op->nall; op->iall++) {
        AWAIT(op, op->pc, lock_step(op, op->all[op->iall], w));
        op->ffp = op->all[op->iall];
        if (!listed(op->ffp) || op->ffp->_IO_write_ptr <= op->ffp->_IO_write_base ||
                takes_real(op->ffp))
            continue;
        flockfile(op->ffp);
        AWAIT(op, op->pc, flush_step(op, w));
        funlockfile(op->ffp);
        if (op->fres == EOF)
            op->result = EOF;
        release_one(op, op->ffp);   /* one stream at a time */
    }
    op->ffp = NULL;
    if (rip__sys_fflush(NULL) == EOF)
        op->result = EOF;
    END(op->pc);
    return 1;
}

/* fclose: pending bytes out (waiting), then glibc's fclose. */
static int close_step(rip_stdioop *op, rip_waiter *w) {
    FILE *fp = op->fp;
    BEGIN(op->pc);
    AWAIT(op, op->pc, lock_step(op, fp, w));
    op->fres = 0;
    if (fp->_IO_write_ptr > fp->_IO_write_base && !takes_real(fp)) {
        op->ffp = fp;
        AWAIT(op, op->pc, flush_step(op, w));
    }
    {
        int fd = fp->_fileno, flush_err = op->err;
        release(op);
        if (op->flocked) {
            funlockfile(fp);
            op->flocked = 0;
        }
        rip__fd_forget(fd);         /* waits on the fd end with EBADF; it leaves the epoll set */
        op->result = rip__sys_fclose(fp);
        op->fp = NULL;
        if (op->fres == EOF) {
            op->result = EOF;
            op->err = flush_err;
        } else if (op->result == EOF) {
            op->err = errno;
        } else {
            op->err = 0;
        }
    }
    END(op->pc);
    return 1;
}

/* dprintf: glibc's writes the text through a stream of its own on fd,
 * all of it: the count, or -1 when a write failed. */
static int dprintf_step(rip_stdioop *op, rip_waiter *w) {
    BEGIN(op->pc);
    op->ffp = NULL;
    op->wdata = op->data;
    op->wlen = op->n;
    op->wdone = 0;
    AWAIT(op, op->pc, write_step(op, w));
    op->result = op->wdone == op->wlen ? (ssize_t)op->n : -1;
    END(op->pc);
    return 1;
}

int rip__stdio_step(rip_stdioop *op, rip_waiter *w) {
    if (op->fp && !op->flocked && op->kind != RIP_SX_CLOSE) {
        flockfile(op->fp);
        op->flocked = 1;
    }
    int done;
    switch (op->kind) {
    case RIP_SX_PUT: done = put_step(op, w); break;
    case RIP_SX_FGETS: done = fgets_step(op, w); break;
    case RIP_SX_FGETC: done = fgetc_step(op, w); break;
    case RIP_SX_GETDELIM: done = getdelim_step(op, w); break;
    case RIP_SX_FREAD: done = fread_step(op, w); break;
    case RIP_SX_FLUSH: done = flush_call_step(op, w); break;
    case RIP_SX_DPRINTF: done = dprintf_step(op, w); break;
    case RIP_SX_SCAN: done = scan_step(op, w); break;
    default: done = close_step(op, w); break;
    }
    if (!done)
        return 0;
    release(op);
    if (op->flocked) {
        funlockfile(op->fp);
        op->flocked = 0;
    }
    if (op->text && op->text != op->small)
        free(op->text);
    op->text = NULL;
    free(op->all);
    op->all = NULL;
    free(op->io);
    op->io = NULL;
    if (op->scan) {
        free(op->scan->taken);
        op->scan->taken = NULL;
    }
    return 1;
}

int rip__stdio_format(rip_stdioop *op, int flag, const char *fmt, va_list ap) {
    va_list again;
    va_copy(again, ap);
    int n = flag < 0 ? vsnprintf(op->small, sizeof op->small, fmt, ap)
                     : __vsnprintf_chk(op->small, sizeof op->small, flag, sizeof op->small, fmt, ap);
    op->text = op->small;
    if (n >= (int)sizeof op->small) {
        op->text = malloc((size_t)n + 1);
        if (!op->text) {
            va_end(again);
            errno = ENOMEM;
            return -1;
        }
        n = flag < 0 ? vsnprintf(op->text, (size_t)n + 1, fmt, again)
                     : __vsnprintf_chk(op->text, (size_t)n + 1, flag, (size_t)n + 1, fmt, again);
    }
    va_end(again);
    if (n < 0) {
        if (op->text != op->small)
            free(op->text);
        op->text = NULL;
        return -1;
    }
    op->data = op->text;
    op->n = (size_t)n;
    return 0;
}

long rip__stdio_put_result(const rip_stdioop *op) {
    ssize_t r = op->result;
    if (op->final)
        return (long)r;
    switch (op->put) {
    case RIP_PUT_FWRITE:
        if (op->n == 0)
            return 0;
        return (long)((r == (ssize_t)op->n || r == -1 ? op->n : (size_t)r) / op->size);
    case RIP_PUT_FPUTS:
        return r == (ssize_t)op->n ? 1 : EOF;
    case RIP_PUT_FPUTC:
        return r == 1 ? (unsigned char)op->small[0] : EOF;
    case RIP_PUT_PUTS:
        return r == (ssize_t)op->n ? (op->n > INT_MAX ? INT_MAX : (long)op->n) : EOF;
    default:
        return r == (ssize_t)op->n ? (long)op->n : -1;
    }
}

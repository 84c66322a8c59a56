/* stdio_calls.c -- the stdio calls of rip_posix.h as plain C functions,
 * and their link-time wrappers (`ripcc --posix` links with
 * -Wl,--wrap= each on rip and ucontext): where the calling code can wait
 * (rip__can_park: in a task), the call is stepped by core/stdio.c and the
 * task parks where it must wait (rip__park: on ucontext a switch to the
 * scheduler; on rip, whose plain code -- a function used through a
 * pointer, a library -- cannot suspend, the other tasks run from inside
 * it); anywhere else it is the C library's (__real_NAME through
 * shared/stdio_sys.h).  The wrappers also catch what gcc makes of the
 * program's calls (printf("x\n") -> puts, getline -> __getdelim, getchar
 * -> getc) and _FORTIFY_SOURCE's forms.  Ripped code on rip does not come
 * here: it calls the frames of rip/stdio.c. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include "core.h"
#include "rstdio.h"
#include "rip_posix.h"
#include "../shared/stdio_sys.h"

#define IN_TASK rip__can_park()

void __chk_fail(void) __attribute__((noreturn));

/* Step op to its end, parking between steps. */
static ssize_t sx(rip_stdioop *op) {
    rip_waiter w;
    op->parks = 1;
    while (!rip__stdio_step(op, &w))
        rip__park("a stdio call");
    if (op->err)
        errno = op->err;
    return op->result;
}

static long put(FILE *fp, int call, const void *data, size_t n, size_t size) {
    rip_stdioop op = { .kind = RIP_SX_PUT, .fp = fp, .put = call, .data = data, .n = n,
                       .size = size };
    sx(&op);
    return rip__stdio_put_result(&op);
}

size_t rip_posix_fwrite(const void *p, size_t size, size_t n, FILE *fp) {
    if (!IN_TASK)
        return rip__sys_fwrite(p, size, n, fp);
    if (size == 0 || n == 0)
        return 0;
    return (size_t)put(fp, RIP_PUT_FWRITE, p, size * n, size);
}

int rip_posix_fputs(const char *s, FILE *fp) {
    if (!IN_TASK)
        return rip__sys_fputs(s, fp);
    return (int)put(fp, RIP_PUT_FPUTS, s, strlen(s), 1);
}

int rip_posix_fputc(int c, FILE *fp) {
    if (!IN_TASK)
        return rip__sys_fputc(c, fp);
    rip_stdioop op = { .kind = RIP_SX_PUT, .fp = fp, .put = RIP_PUT_FPUTC, .n = 1 };
    op.small[0] = (char)c;
    op.data = op.small;
    sx(&op);
    return (int)rip__stdio_put_result(&op);
}

int rip_posix_putc(int c, FILE *fp) { return rip_posix_fputc(c, fp); }
int rip_posix_putchar(int c) { return rip_posix_fputc(c, stdout); }

int rip_posix_puts(const char *s) {
    if (!IN_TASK)
        return rip__sys_fputs(s, stdout) == EOF || rip__sys_fputc('\n', stdout) == EOF ? EOF : 1;
    size_t len = strlen(s);
    rip_stdioop op = { .kind = RIP_SX_PUT, .fp = stdout, .put = RIP_PUT_PUTS, .n = len + 1 };
    op.text = len + 2 <= sizeof op.small ? op.small : malloc(len + 2);
    if (!op.text)
        return EOF;
    memcpy(op.text, s, len);
    op.text[len] = '\n';
    op.text[len + 1] = '\0';
    op.data = op.text;
    sx(&op);
    return (int)rip__stdio_put_result(&op);
}

/* printf's family: flag < 0 plain, else the _chk form's flag. */
static int vprint(FILE *fp, int flag, const char *fmt, va_list ap) {
    if (!IN_TASK)
        return flag < 0 ? rip__sys_vfprintf(fp, fmt, ap) : rip__sys___vfprintf_chk(fp, flag, fmt, ap);
    rip_stdioop op = { .kind = RIP_SX_PUT, .fp = fp, .put = RIP_PUT_PRINTF };
    if (rip__stdio_format(&op, flag, fmt, ap) == -1)
        return -1;
    sx(&op);
    return (int)rip__stdio_put_result(&op);
}

int rip_posix_vfprintf(FILE *fp, const char *fmt, va_list ap) { return vprint(fp, -1, fmt, ap); }
int rip_posix_vprintf(const char *fmt, va_list ap) { return vprint(stdout, -1, fmt, ap); }

int rip_posix_fprintf(FILE *fp, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vprint(fp, -1, fmt, ap);
    va_end(ap);
    return n;
}

int rip_posix_printf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vprint(stdout, -1, fmt, ap);
    va_end(ap);
    return n;
}

/* dprintf's family: flag as vprint's. */
static int vdprint(int fd, int flag, const char *fmt, va_list ap) {
    if (!IN_TASK)
        return flag < 0 ? rip__sys_vdprintf(fd, fmt, ap) : rip__sys___vdprintf_chk(fd, flag, fmt, ap);
    rip_stdioop op = { .kind = RIP_SX_DPRINTF, .fd = fd };
    if (rip__stdio_format(&op, flag, fmt, ap) == -1)
        return -1;
    return (int)sx(&op);
}

int rip_posix_vdprintf(int fd, const char *fmt, va_list ap) { return vdprint(fd, -1, fmt, ap); }

int rip_posix_dprintf(int fd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vdprint(fd, -1, fmt, ap);
    va_end(ap);
    return n;
}

int __wrap_vdprintf(int fd, const char *fmt, va_list ap) { return vdprint(fd, -1, fmt, ap); }
int __wrap___vdprintf_chk(int fd, int flag, const char *fmt, va_list ap) { return vdprint(fd, flag, fmt, ap); }

int __wrap_dprintf(int fd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vdprint(fd, -1, fmt, ap);
    va_end(ap);
    return n;
}

int __wrap___dprintf_chk(int fd, int flag, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vdprint(fd, flag, fmt, ap);
    va_end(ap);
    return n;
}

int rip_posix_fflush(FILE *fp) {
    if (!IN_TASK)
        return rip__sys_fflush(fp);
    rip_stdioop op = { .kind = RIP_SX_FLUSH, .fp = fp };
    return (int)sx(&op);
}

int rip_posix_fclose(FILE *fp) {
    if (!IN_TASK)
        return rip__sys_fclose(fp);
    rip_stdioop op = { .kind = RIP_SX_CLOSE, .fp = fp };
    return (int)sx(&op);
}

static char *fgets_checked(char *s, int n, FILE *fp, size_t chk) {
    rip_stdioop op = { .kind = RIP_SX_FGETS, .fp = fp, .s = s, .limit = n, .chk = chk };
    return sx(&op) ? s : NULL;
}

char *rip_posix_fgets(char *s, int n, FILE *fp) {
    if (!IN_TASK)
        return rip__sys_fgets(s, n, fp);
    return fgets_checked(s, n, fp, 0);
}

int rip_posix_fgetc(FILE *fp) {
    if (!IN_TASK)
        return rip__sys_fgetc(fp);
    rip_stdioop op = { .kind = RIP_SX_FGETC, .fp = fp };
    return (int)sx(&op);
}

int rip_posix_getc(FILE *fp) { return rip_posix_fgetc(fp); }
int rip_posix_getchar(void) { return rip_posix_fgetc(stdin); }

ssize_t rip_posix_getdelim(char **line, size_t *n, int delim, FILE *fp) {
    if (!IN_TASK)
        return rip__sys___getdelim(line, n, delim, fp);
    rip_stdioop op = { .kind = RIP_SX_GETDELIM, .fp = fp, .lineptr = line, .linecap = n,
                       .delim = delim };
    return sx(&op);
}

ssize_t rip_posix_getline(char **line, size_t *n, FILE *fp) {
    return rip_posix_getdelim(line, n, '\n', fp);
}

size_t rip_posix_fread(void *p, size_t size, size_t n, FILE *fp) {
    if (!IN_TASK)
        return rip__sys_fread(p, size, n, fp);
    size_t want = size * n;
    if (want == 0)
        return 0;
    rip_stdioop op = { .kind = RIP_SX_FREAD, .fp = fp, .s = p, .n = want };
    size_t got = (size_t)sx(&op);
    return got == want ? n : got / size;
}

/* The wrappers.  __real_NAME is the library's NAME under --wrap=NAME. */
size_t __wrap_fwrite(const void *p, size_t size, size_t n, FILE *fp) { return rip_posix_fwrite(p, size, n, fp); }
int __wrap_fputs(const char *s, FILE *fp) { return rip_posix_fputs(s, fp); }
int __wrap_fputc(int c, FILE *fp) { return rip_posix_fputc(c, fp); }
int __wrap_putc(int c, FILE *fp) { return rip_posix_fputc(c, fp); }
int __wrap_putchar(int c) { return rip_posix_fputc(c, stdout); }
int __wrap_puts(const char *s) { return rip_posix_puts(s); }
int __wrap_vfprintf(FILE *fp, const char *fmt, va_list ap) { return vprint(fp, -1, fmt, ap); }
int __wrap_vprintf(const char *fmt, va_list ap) { return vprint(stdout, -1, fmt, ap); }
int __wrap_fflush(FILE *fp) { return rip_posix_fflush(fp); }
int __wrap_fclose(FILE *fp) { return rip_posix_fclose(fp); }
char *__wrap_fgets(char *s, int n, FILE *fp) { return rip_posix_fgets(s, n, fp); }
int __wrap_fgetc(FILE *fp) { return rip_posix_fgetc(fp); }
int __wrap_getc(FILE *fp) { return rip_posix_fgetc(fp); }
int __wrap_getchar(void) { return rip_posix_fgetc(stdin); }
ssize_t __wrap_getdelim(char **line, size_t *n, int delim, FILE *fp) { return rip_posix_getdelim(line, n, delim, fp); }
ssize_t __wrap___getdelim(char **line, size_t *n, int delim, FILE *fp) { return rip_posix_getdelim(line, n, delim, fp); }
ssize_t __wrap_getline(char **line, size_t *n, FILE *fp) { return rip_posix_getdelim(line, n, '\n', fp); }
size_t __wrap_fread(void *p, size_t size, size_t n, FILE *fp) { return rip_posix_fread(p, size, n, fp); }

int __wrap_fprintf(FILE *fp, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vprint(fp, -1, fmt, ap);
    va_end(ap);
    return n;
}

int __wrap_printf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vprint(stdout, -1, fmt, ap);
    va_end(ap);
    return n;
}

/* _FORTIFY_SOURCE's forms: glibc's checks, then the call. */
int __wrap___printf_chk(int flag, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vprint(stdout, flag, fmt, ap);
    va_end(ap);
    return n;
}

int __wrap___fprintf_chk(FILE *fp, int flag, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vprint(fp, flag, fmt, ap);
    va_end(ap);
    return n;
}

int __wrap___vfprintf_chk(FILE *fp, int flag, const char *fmt, va_list ap) { return vprint(fp, flag, fmt, ap); }
int __wrap___vprintf_chk(int flag, const char *fmt, va_list ap) { return vprint(stdout, flag, fmt, ap); }

char *__wrap___fgets_chk(char *s, size_t size, int n, FILE *fp) {
    if (!IN_TASK)
        return rip__sys___fgets_chk(s, size, n, fp);
    if (n <= 0)
        return NULL;
    return fgets_checked(s, (size_t)n - 1 > size ? (int)size + 1 : n, fp, size);
}

size_t __wrap___fread_chk(void *p, size_t plen, size_t size, size_t n, FILE *fp) {
    if (!IN_TASK)
        return rip__sys___fread_chk(p, plen, size, n, fp);
    size_t want = size * n;
    if ((n | size) >= ((size_t)1 << (4 * sizeof(size_t))) && size != 0 && want / size != n)
        __chk_fail();
    if (want > plen)
        __chk_fail();
    return rip_posix_fread(p, size, n, fp);
}

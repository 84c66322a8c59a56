/* stdio_sys.h -- the C library's stdio calls the runtime itself makes,
 * past the wrappers of POSIX mode (as sys.h for the fd calls): under
 * `ripcc --posix --backend=ucontext` the link sends every fputs... to
 * __wrap_fputs, the runtime's own included; its messages must not come
 * back into the stdio of tasks.  rip__sys_NAME is __real_NAME under
 * --wrap=NAME, else NAME. */
#ifndef RIP_STDIO_SYS_H
#define RIP_STDIO_SYS_H

#include <stdarg.h>
#include <stdio.h>
#include <sys/types.h>

#define RIP__STDIO_SYS(ret, name, params, args)                                \
    extern ret __real_##name params __attribute__((weak));                     \
    static inline ret rip__sys_##name params {                                 \
        return __real_##name ? __real_##name args : name args;                 \
    }

RIP__STDIO_SYS(int, fputs, (const char *s, FILE *fp), (s, fp))
RIP__STDIO_SYS(int, fputc, (int c, FILE *fp), (c, fp))
RIP__STDIO_SYS(int, vfprintf, (FILE *fp, const char *fmt, va_list ap), (fp, fmt, ap))
RIP__STDIO_SYS(size_t, fwrite, (const void *p, size_t size, size_t n, FILE *fp), (p, size, n, fp))
RIP__STDIO_SYS(size_t, fread, (void *p, size_t size, size_t n, FILE *fp), (p, size, n, fp))
RIP__STDIO_SYS(char *, fgets, (char *s, int n, FILE *fp), (s, n, fp))
RIP__STDIO_SYS(int, fgetc, (FILE *fp), (fp))
RIP__STDIO_SYS(int, fflush, (FILE *fp), (fp))
RIP__STDIO_SYS(int, fclose, (FILE *fp), (fp))
RIP__STDIO_SYS(ssize_t, __getdelim, (char **line, size_t *n, int delim, FILE *fp),
               (line, n, delim, fp))

/* _FORTIFY_SOURCE's forms (declared by stdio.h only when it is on) */
int __vfprintf_chk(FILE *fp, int flag, const char *fmt, va_list ap);
char *__fgets_chk(char *s, size_t size, int n, FILE *fp);
size_t __fread_chk(void *p, size_t plen, size_t size, size_t n, FILE *fp);
int __vdprintf_chk(int fd, int flag, const char *fmt, va_list ap);
RIP__STDIO_SYS(int, vdprintf, (int fd, const char *fmt, va_list ap), (fd, fmt, ap))
RIP__STDIO_SYS(int, __vdprintf_chk, (int fd, int flag, const char *fmt, va_list ap),
               (fd, flag, fmt, ap))
RIP__STDIO_SYS(int, __vfprintf_chk, (FILE *fp, int flag, const char *fmt, va_list ap),
               (fp, flag, fmt, ap))
RIP__STDIO_SYS(char *, __fgets_chk, (char *s, size_t size, int n, FILE *fp), (s, size, n, fp))
RIP__STDIO_SYS(size_t, __fread_chk, (void *p, size_t plen, size_t size, size_t n, FILE *fp),
               (p, plen, size, n, fp))

/* The scanf of C99 and later (what <stdio.h> names vfscanf as) */
int __isoc99_vfscanf(FILE *fp, const char *fmt, va_list ap);
RIP__STDIO_SYS(int, __isoc99_vfscanf, (FILE *fp, const char *fmt, va_list ap), (fp, fmt, ap))

/* fprintf(fp, fmt, ...) to the library itself. */
static inline __attribute__((format(printf, 2, 3)))
int rip__sys_fprintf(FILE *fp, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = rip__sys_vfprintf(fp, fmt, ap);
    va_end(ap);
    return n;
}

#endif

/* stdio.c -- the stdio calls of rip_posix.h on the threads backend: each
 * task is a thread, so each is the C library's call itself. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include "rip_posix.h"

size_t rip_posix_fwrite(const void *p, size_t size, size_t n, FILE *fp) { return fwrite(p, size, n, fp); }
int rip_posix_fputs(const char *s, FILE *fp) { return fputs(s, fp); }
int rip_posix_fputc(int c, FILE *fp) { return fputc(c, fp); }
int rip_posix_putc(int c, FILE *fp) { return putc(c, fp); }
int rip_posix_putchar(int c) { return putchar(c); }
int rip_posix_puts(const char *s) { return puts(s); }
int rip_posix_vfprintf(FILE *fp, const char *fmt, va_list ap) { return vfprintf(fp, fmt, ap); }
int rip_posix_vprintf(const char *fmt, va_list ap) { return vprintf(fmt, ap); }
int rip_posix_fprintf(FILE *fp, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(fp, fmt, ap);
    va_end(ap);
    return n;
}
int rip_posix_printf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vprintf(fmt, ap);
    va_end(ap);
    return n;
}
int rip_posix_vdprintf(int fd, const char *fmt, va_list ap) { return vdprintf(fd, fmt, ap); }
int rip_posix_dprintf(int fd, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vdprintf(fd, fmt, ap);
    va_end(ap);
    return n;
}
int rip_posix_fflush(FILE *fp) { return fflush(fp); }
int rip_posix_fclose(FILE *fp) { return fclose(fp); }
char *rip_posix_fgets(char *s, int n, FILE *fp) { return fgets(s, n, fp); }
int rip_posix_fgetc(FILE *fp) { return fgetc(fp); }
int rip_posix_getc(FILE *fp) { return getc(fp); }
int rip_posix_getchar(void) { return getchar(); }
ssize_t rip_posix_getdelim(char **line, size_t *n, int delim, FILE *fp) { return getdelim(line, n, delim, fp); }
ssize_t rip_posix_getline(char **line, size_t *n, FILE *fp) { return getline(line, n, fp); }
size_t rip_posix_fread(void *p, size_t size, size_t n, FILE *fp) { return fread(p, size, n, fp); }

/* scanf.c -- the scanf family of rip_posix.h on the threads backend:
 * each task is a thread, so each is the C library's call itself. */
#include <stdarg.h>
#include <stdio.h>
#include "rip_posix.h"

int rip_posix_vfscanf(FILE *fp, const char *fmt, va_list ap) { return vfscanf(fp, fmt, ap); }
int rip_posix_vscanf(const char *fmt, va_list ap) { return vscanf(fmt, ap); }
int rip_posix_fscanf(FILE *fp, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vfscanf(fp, fmt, ap);
    va_end(ap);
    return n;
}
int rip_posix_scanf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vscanf(fmt, ap);
    va_end(ap);
    return n;
}

/* fatal.h -- shared by every backend: how misuse and broken invariants end. */
#ifndef RIP_FATAL_H
#define RIP_FATAL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include "stdio_sys.h"             /* the library's stdio, past POSIX mode's wrappers */

/* Print `what` and the message as one line on stderr, past the wrappers. */
static inline void rip__say(const char *what, const char *fmt, va_list ap) {
    rip__sys_fputs(what, stderr);
    rip__sys_vfprintf(stderr, fmt, ap);
    rip__sys_fputc('\n', stderr);
}

/* Print "rip: " and the message on stderr, then abort. */
static inline __attribute__((noreturn, format(printf, 1, 2)))
void rip__fatal(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    rip__say("rip: ", fmt, ap);
    va_end(ap);
    abort();
}

/* Print "rip: warning: " and the message on stderr; the program goes on. */
static inline __attribute__((format(printf, 1, 2)))
void rip__warn(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    rip__say("rip: warning: ", fmt, ap);
    va_end(ap);
}

/* A blocking call made where no task runs (before rip_run, in a plain
 * thread): the same message and SIGABRT on every backend. */
static inline __attribute__((noreturn)) void rip__outside_task(const char *call) {
    rip__fatal("%s called outside rip_run: a blocking call must run in a task "
               "(a function given to rip_run or rip_spawn)", call);
}

#endif

/* checks: a variadic async function declared in a header marked
 * `#pragma GCC system_header` is called and defined with one ABI */
#include <stdarg.h>
#include <stdio.h>
#include "variadic_async_declared_in_a_system_header.h"

RIP_ASYNC int note(int level, const char *fmt, ...) {
    char buf[80];
    va_list ap;
    va_start(ap, fmt);
    rip_yield();
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    printf("%d %s\n", level, buf);
    return n;
}

static void task(void *arg) {
    (void)arg;
    printf("wrote %d\n", note(3, "%s %d %.1f", "x", 42, 2.5));
}

int main(void) { return rip_run(task, NULL); }

/* scanf.c -- what a scanf format says of its arguments, for the scanf
 * family of POSIX mode (core/stdio.c): how many pointers it reads (the
 * rip backend keeps them across a suspension) and which receive a %m
 * conversion's string (an abandoned attempt's must be freed).  It only
 * counts: glibc's vfscanf does the conversions. */
#include <string.h>
#include "rstdio.h"

size_t rip__scan_format(const char *fmt, size_t *alloc, size_t max_alloc, size_t *nalloc) {
    size_t seq = 0, top = 0;
    *nalloc = 0;
    for (const char *p = fmt; *p; p++) {
        if (*p != '%')
            continue;
        p++;
        size_t pos = 0;
        const char *q = p;
        while (*q >= '0' && *q <= '9' && pos < 100000)
            pos = pos * 10 + (size_t)(*q++ - '0');
        if (*q == '$' && pos)
            p = q + 1;
        else
            pos = 0;
        int assigns = *p != '*', allocates = 0;
        if (!assigns)
            p++;
        for (; *p && strchr("0123456789hlLqjztmI'", *p); p++)
            allocates |= *p == 'm';
        if (!*p)
            break;
        if (*p == '%')
            continue;
        if (*p == '[') {            /* the set may hold ']' first, and '%' anywhere */
            p++;
            if (*p == '^')
                p++;
            if (*p == ']')
                p++;
            while (*p && *p != ']')
                p++;
            if (!*p)
                p--;
        }
        if (!assigns)
            continue;
        size_t index = pos ? pos - 1 : seq++;
        if (pos)
            top = pos > top ? pos : top;
        if (allocates && *nalloc < max_alloc)
            alloc[(*nalloc)++] = index;
    }
    return seq > top ? seq : top;
}

/* checks: a file that defines _GNU_SOURCE before its first include, inside
 * the usual #ifndef guard, still gets GNU declarations when ripped (the
 * runtime's header goes after the leading definitions and conditionals
 * around them, not before them). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <string.h>
#include "rip.h"

RIP_ASYNC static const char *after_colon(const char *s) {
    rip_yield();
    return strchrnul(s, ':');       /* declared only under _GNU_SOURCE */
}

static void task(void *arg) {
    (void)arg;
    printf("[%s] [%s]\n", after_colon("key:value"), after_colon("novalue"));
}

int main(void) {
    return rip_run(task, NULL);
}

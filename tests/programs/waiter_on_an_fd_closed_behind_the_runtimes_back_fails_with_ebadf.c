/* backends: rip ucontext (on threads a waiter polls the number, whatever file it names) */
/* A task waits to read an fd; another closes it with close(2), not
 * rip_close, and a new file takes the number.  No event can ever come for
 * the old file: when the runtime first sees the number again (the next
 * wait on it), the old waiter fails with EBADF, as after rip_close,
 * instead of waiting forever. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "rip.h"

static int p[2];

static void waiter(void *arg) {
    char c;
    (void)arg;
    ssize_t n = rip_read(p[0], &c, 1);
    printf("old waiter: %zd %s\n", n, n < 0 && errno == EBADF ? "EBADF" : "?");
}

static void late_writer(void *arg) {
    rip_sleep_ms(20);
    rip_write(*(int *)arg, "new", 3);
}

static void task(void *arg) {
    int q[2];
    char buf[8];
    (void)arg;
    if (pipe(p) == -1)
        return;
    rip_spawn(waiter, NULL);
    rip_yield();                    /* the waiter waits on p[0] */
    close(p[0]);
    close(p[1]);
    if (pipe(q) == -1)
        return;
    printf("number reused: %d\n", q[0] == p[0]);
    rip_spawn(late_writer, &q[1]);
    ssize_t n = rip_read(q[0], buf, sizeof buf);
    printf("new reader: %.*s\n", n < 0 ? 0 : (int)n, buf);
    close(q[0]);
    close(q[1]);
}

int main(void) {
    return rip_run(task, NULL);
}

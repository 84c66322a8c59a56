/* checks: rip_close on an fd other tasks wait on wakes them with -1/EBADF, even if the number is reused at once */
/* threads: sorted */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "rip.h"

static int fds[2];

static void reader(void *arg) {
    char c;
    ssize_t n = rip_read(fds[0], &c, 1);
    printf("reader %s: %zd %s\n", (const char *)arg, n, n < 0 && errno == EBADF ? "EBADF" : strerror(errno));
}

static void closer(void *arg) {
    int again[2];
    (void)arg;
    rip_sleep_ms(50);               /* both readers are waiting now (threads: started) */
    rip_close(fds[0]);
    if (pipe(again) == 0)           /* most likely reuses the closed number */
        printf("closer: closed, new pipe %s\n", again[0] == fds[0] ? "reuses the number" : "elsewhere");
    write(again[1], "x", 1);
    rip_close(again[0]);
    rip_close(again[1]);
    rip_close(fds[1]);
}

static void start(void *arg) {
    (void)arg;
    rip_spawn(reader, "one");
    rip_spawn(reader, "two");
    rip_spawn(closer, NULL);
}

int main(void) {
    if (pipe(fds))
        return 1;
    return rip_run(start, NULL);
}

/* checks: data that arrives before the deadline is read normally, and the deadline set earlier is what rip_set_deadline returns next */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include "rip.h"

static int fds[2];

static void writer(void *arg) {
    (void)arg;
    rip_sleep_ms(20);
    rip_write(fds[1], "hello", 5);
}

static void reader(void *arg) {
    char buf[16];
    size_t got = 0;
    (void)arg;
    int64_t deadline = rip_now_ms() + 10000;
    rip_set_deadline(deadline);
    while (got < 5) {
        ssize_t n = rip_read(fds[0], buf + got, sizeof buf - got);
        if (n <= 0) {
            printf("read failed: %s\n", strerror(errno));
            return;
        }
        got += (size_t)n;
    }
    printf("read: %.*s\n", (int)got, buf);
    printf("deadline kept: %s\n", rip_set_deadline(-1) == deadline ? "yes" : "no");
}

static void start(void *arg) {
    rip_spawn(reader, arg);
    rip_spawn(writer, arg);
}

int main(void) {
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds))
        return 1;
    return rip_run(start, NULL);
}

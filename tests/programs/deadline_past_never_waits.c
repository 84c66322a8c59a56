/* checks: with a deadline already past, fd calls that would wait fail at once with ETIMEDOUT, and calls that can finish at once still do */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include "rip.h"

static int fds[2];
static int listener;

static const char *outcome(ssize_t r) {
    return r >= 0 ? "ok" : errno == ETIMEDOUT ? "ETIMEDOUT" : "other error";
}

static void task(void *arg) {
    char buf[8];
    (void)arg;
    int64_t start = rip_now_ms();
    rip_set_deadline(start - 1);
    ssize_t r = rip_read(fds[0], buf, sizeof buf);      /* nothing to read */
    printf("read with nothing to read: %zd %s\n", r, outcome(r));
    r = rip_accept(listener, NULL, NULL);               /* nobody connects */
    printf("accept with nobody connecting: %zd %s\n", r, outcome(r));
    r = rip_write(fds[1], "hi", 2);                     /* room in the buffer */
    printf("write with room: %zd %s\n", r, outcome(r));
    r = rip_read(fds[0], buf, sizeof buf);              /* "hi" is there */
    printf("read with data: %zd %s\n", r, outcome(r));
    printf("did not wait: %s\n", rip_now_ms() - start < 1000 ? "yes" : "no");
}

int main(void) {
    struct sockaddr_in addr = { .sin_family = AF_INET };
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    listener = socket(AF_INET, SOCK_STREAM, 0);
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) || listener < 0 ||
        bind(listener, (struct sockaddr *)&addr, sizeof addr) || listen(listener, 8))
        return 1;
    return rip_run(task, NULL);
}

/* checks: with a deadline already past, a read still tries once even when
 * the runtime remembers the fd as empty (data arrived without the runtime
 * polling since), and gets the data */
#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>
#include "rip.h"

static void task(void *arg) {
    int sv[2];
    char buf[16];
    (void)arg;
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
        return;
    for (int i = 0; i < 2; i++) {                   /* the second finds EAGAIN remembered */
        rip_set_deadline(rip_now_ms() + 20);
        ssize_t n = rip_read(sv[0], buf, sizeof buf);
        printf("empty read: %zd %s\n", n, n < 0 && errno == ETIMEDOUT ? "ETIMEDOUT" : "?");
    }
    if (write(sv[1], "hi", 2) != 2)
        return;
    rip_set_deadline(rip_now_ms() - 1);
    ssize_t n = rip_read(sv[0], buf, sizeof buf);
    printf("read with data, deadline past: %zd\n", n);
    rip_close(sv[0]);
    rip_close(sv[1]);
}

int main(void) {
    return rip_run(task, NULL);
}

/* backends: rip ucontext (threads keep no readiness: nothing to check) */
/* A socket the runtime watches, known to be empty (a read timed out
 * waiting), closed with close(2) instead of rip_close.  Its number is then
 * read again: the runtime, which trusts a wait on a watched number and
 * checks it with epoll a few polls later, must find that the file is gone
 * (EBADF), or that a new socket has the number: then the read gets the
 * bytes already waiting in it. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "rip.h"

/* A socket pair whose first end the runtime watches and knows empty: a
 * read waited in vain (the runtime watches it from then), and another
 * said EAGAIN on the watched socket. */
static int known_empty(int s[2]) {
    char buf[8];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, s) == -1)
        return -1;
    for (int i = 0; i < 2; i++) {
        rip_set_deadline(rip_now_ms() + 20);
        ssize_t n = rip_read(s[0], buf, sizeof buf);
        rip_set_deadline(-1);
        printf("timed out: %s\n", n == -1 && errno == ETIMEDOUT ? "yes" : "no");
    }
    return 0;
}

static void task(void *arg) {
    int s[2], t[2];
    char buf[8];
    (void)arg;
    if (known_empty(s) == -1)
        return;
    close(s[0]);                    /* behind the runtime's back */
    ssize_t n = rip_read(s[0], buf, sizeof buf);
    printf("read of the closed number: %zd %s\n", n, n == -1 && errno == EBADF ? "EBADF" : "?");
    close(s[1]);

    if (known_empty(s) == -1)
        return;
    int old = s[0];
    close(s[0]);
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, t) == -1)
        return;
    printf("a new socket on the number: %d\n", t[0] == old);
    if (write(t[1], "fresh", 5) != 5)
        return;
    n = rip_read(t[0], buf, sizeof buf);
    printf("read of the new socket: %.*s\n", n > 0 ? (int)n : 0, buf);
    close(t[0]);
    close(t[1]);
    close(s[1]);
}

int main(void) {
    return rip_run(task, NULL);
}

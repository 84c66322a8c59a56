/* checks: a write that cannot finish (nobody reads, the socket buffer fills) fails with -1 and ETIMEDOUT no sooner than the deadline */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include "rip.h"

#define BIG (8 << 20)               /* far more than a socket buffer holds */

static int fds[2];

static void writer(void *arg) {
    char *big = arg;
    int64_t start = rip_now_ms();
    rip_set_deadline(start + 50);
    ssize_t n = rip_write(fds[1], big, BIG);
    int err = errno;
    int64_t waited = rip_now_ms() - start;
    printf("write: %zd %s\n", n, err == ETIMEDOUT ? "ETIMEDOUT" : "other error");
    printf("waited at least 50 ms: %s\n", waited >= 50 ? "yes" : "no");
}

int main(void) {
    char *big = calloc(1, BIG);
    if (big == NULL || socketpair(AF_UNIX, SOCK_STREAM, 0, fds))
        return 1;
    int r = rip_run(writer, big);
    free(big);
    return r;
}

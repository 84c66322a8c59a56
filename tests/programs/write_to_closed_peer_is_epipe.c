/* checks: rip_write to a socket whose peer has gone returns -1/EPIPE (no SIGPIPE); read sees EOF */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include "rip.h"

static int pair[2];

static void writer(void *arg) {
    static char block[65536];
    ssize_t r = 0;
    (void)arg;
    rip_close(pair[1]);
    for (int i = 0; i < 100 && r >= 0; i++)
        r = rip_write(pair[0], block, sizeof block);
    printf("write: %zd %s\n", r, r < 0 && errno == EPIPE ? "EPIPE" : strerror(errno));
    char c;
    r = rip_read(pair[0], &c, 1);
    printf("read after peer close: %zd\n", r);
    rip_close(pair[0]);
}

int main(void) {
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, pair)) {
        perror("socketpair");
        return 1;
    }
    return rip_run(writer, NULL);
}

/* timeo.c -- SO_RCVTIMEO and SO_SNDTIMEO, as plain POSIX: a recv, read or
 * accept that waits past the socket's receive timeout fails with EAGAIN;
 * MSG_WAITALL with some bytes come returns them; a blocking send past the
 * send timeout returns the count sent (or EAGAIN if none).  The output
 * must be the same built plainly and ripped (tests/test_posix.py). */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static long ms_since(const struct timespec *t0) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static const char *err(ssize_t n) {
    return n >= 0 ? "" : errno == EAGAIN ? "EAGAIN" : "?";
}

int main(void) {
    int sv[2];
    char buf[16];
    struct timeval tv = { 0, 60000 };
    struct timespec t0;
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);

    clock_gettime(CLOCK_MONOTONIC, &t0);
    ssize_t n = recv(sv[0], buf, sizeof buf, 0);
    printf("recv: %zd %s, after at least 60 ms: %d\n", n, err(n), ms_since(&t0) >= 60);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    n = read(sv[0], buf, sizeof buf);
    printf("read: %zd %s, after at least 60 ms: %d\n", n, err(n), ms_since(&t0) >= 60);
    write(sv[1], "abc", 3);
    n = recv(sv[0], buf, 8, MSG_WAITALL);
    printf("waitall, 3 of 8 came: %zd\n", n);

    /* A blocking send into a full socket past SO_SNDTIMEO: the count sent. */
    setsockopt(sv[1], SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    size_t big = 8 << 20;
    char *data = calloc(1, big);
    n = send(sv[1], data, big, 0);
    printf("big send: some but not all: %d\n", n > 0 && (size_t)n < big);
    n = send(sv[1], data, big, 0);
    printf("then: %zd %s\n", n, err(n));

    int l = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    bind(l, (struct sockaddr *)&addr, sizeof addr);
    listen(l, 4);
    setsockopt(l, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int c = accept(l, NULL, NULL);
    printf("accept: %d %s, after at least 60 ms: %d\n", c, err(c), ms_since(&t0) >= 60);
    free(data);
    return 0;
}

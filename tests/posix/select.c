/* select.c -- select(2), as plain POSIX: a timeout that runs out (0, the
 * sets cleared, the timeout left at 0), a ready pipe, a wait for a slower
 * writer, read and write sets counted apart, EBADF for a closed fd, EINVAL
 * for a negative timeout (a million microseconds or more is carried into
 * seconds), no sets as a sleep.  The output must be the same
 * built plainly and ripped (tests/test_posix.py). */
#include <errno.h>
#include <stdio.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long ms_since(const struct timespec *t0) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

int main(void) {
    int p[2], sv[2];
    fd_set r, w;
    struct timeval tv = { 0, 50000 };
    struct timespec t0;
    pipe(p);
    FD_ZERO(&r);
    FD_SET(p[0], &r);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int n = select(p[0] + 1, &r, NULL, NULL, &tv);
    printf("timeout: %d, set cleared %d, tv %ld.%06ld, waited at least 50 ms: %d\n", n,
           !FD_ISSET(p[0], &r), (long)tv.tv_sec, (long)tv.tv_usec, ms_since(&t0) >= 50);

    write(p[1], "x", 1);
    FD_SET(p[0], &r);
    n = select(p[0] + 1, &r, NULL, NULL, NULL);
    printf("ready: %d, set %d\n", n, FD_ISSET(p[0], &r) != 0);
    char c;
    read(p[0], &c, 1);

    fflush(stdout);
    if (fork() == 0) {
        usleep(30000);
        _exit(write(p[1], "y", 1) != 1);
    }
    FD_SET(p[0], &r);
    tv.tv_sec = 5;
    tv.tv_usec = 0;
    n = select(p[0] + 1, &r, NULL, NULL, &tv);
    printf("waited for a writer: %d, set %d, time left: %d\n", n, FD_ISSET(p[0], &r) != 0,
           tv.tv_sec >= 3 && tv.tv_sec < 5);
    wait(NULL);
    read(p[0], &c, 1);

    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    write(sv[1], "z", 1);
    FD_ZERO(&r);
    FD_ZERO(&w);
    FD_SET(sv[0], &r);
    FD_SET(sv[0], &w);
    FD_SET(p[0], &r);
    int max = sv[0] > p[0] ? sv[0] : p[0];
    n = select(max + 1, &r, &w, NULL, NULL);
    printf("read and write counted apart: %d, socket r %d w %d, pipe r %d\n", n,
           FD_ISSET(sv[0], &r) != 0, FD_ISSET(sv[0], &w) != 0, FD_ISSET(p[0], &r) != 0);

    close(p[1]);
    int closed = p[1];
    FD_ZERO(&r);
    FD_SET(closed, &r);
    n = select(closed + 1, &r, NULL, NULL, NULL);
    printf("closed fd: %d %s\n", n, n < 0 && errno == EBADF ? "EBADF" : "?");
    tv.tv_sec = 0;
    tv.tv_usec = -1;
    FD_ZERO(&r);
    FD_SET(p[0], &r);
    n = select(p[0] + 1, &r, NULL, NULL, &tv);
    printf("negative timeout: %d %s\n", n, n < 0 && errno == EINVAL ? "EINVAL" : "?");
    tv.tv_usec = 1000000;           /* a whole second in microseconds: Linux carries it */
    n = select(p[0] + 1, &r, NULL, NULL, &tv);
    printf("timeout of 1000000 us, an fd at EOF: %d, time left: %d\n", n, tv.tv_sec == 0 || tv.tv_sec == 1);
    tv.tv_usec = 40000;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    n = select(0, NULL, NULL, NULL, &tv);
    printf("no sets: %d, at least 40 ms: %d\n", n, ms_since(&t0) >= 40);
    return 0;
}

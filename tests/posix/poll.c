/* poll.c -- poll(2), as plain POSIX: timeout 0 and a timeout that runs
 * out (0, after at least the time), a ready fd (POLLIN), a wait for a
 * slower writer, POLLHUP and POLLNVAL, negative fds ignored, POLLOUT, no
 * fds at all as a sleep.  The output must be the same built plainly and
 * ripped (tests/test_posix.py). */
#include <poll.h>
#include <stdio.h>
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
    struct timespec t0;
    struct pollfd f[3];
    pipe(p);
    f[0] = (struct pollfd){ .fd = p[0], .events = POLLIN };
    printf("empty, timeout 0: %d\n", poll(f, 1, 0));
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int zero = poll(f, 1, 50);
    printf("empty, timeout 50: %d, waited at least 50 ms: %d\n", zero, ms_since(&t0) >= 50);

    write(p[1], "x", 1);
    int n = poll(f, 1, -1);
    printf("ready: %d revents POLLIN %d\n", n, f[0].revents == POLLIN);
    char c;
    read(p[0], &c, 1);

    fflush(stdout);
    if (fork() == 0) {
        usleep(30000);
        _exit(write(p[1], "y", 1) != 1);
    }
    f[0].revents = 0;
    n = poll(f, 1, -1);
    printf("waited for a writer: %d revents POLLIN %d\n", n, f[0].revents == POLLIN);
    wait(NULL);
    read(p[0], &c, 1);

    close(p[1]);
    n = poll(f, 1, 1000);
    printf("writer gone: %d POLLHUP %d\n", n, (f[0].revents & POLLHUP) != 0);
    close(p[0]);
    f[0].fd = p[0];                 /* closed now */
    n = poll(f, 1, 1000);
    printf("closed fd: %d POLLNVAL %d\n", n, f[0].revents == POLLNVAL);

    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    f[0] = (struct pollfd){ .fd = -1, .events = POLLIN };
    f[1] = (struct pollfd){ .fd = sv[0], .events = POLLIN };
    f[2] = (struct pollfd){ .fd = sv[1], .events = POLLOUT };
    n = poll(f, 3, 1000);
    printf("negative ignored, one writable: %d revents %d %d %d\n", n, f[0].revents,
           f[1].revents, f[2].revents == POLLOUT);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    n = poll(NULL, 0, 40);
    printf("no fds: %d, at least 40 ms: %d\n", n, ms_since(&t0) >= 40);
    return 0;
}

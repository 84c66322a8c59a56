/* epoll.c -- epoll_wait(2), as plain POSIX: timeout 0 and a timeout that
 * runs out (0), a ready fd with its data, a wait for a slower writer,
 * maxevents 0 (EINVAL), a bad epoll fd (EBADF).  The output must be the
 * same built plainly and ripped (tests/test_posix.py). */
#include <errno.h>
#include <stdio.h>
#include <sys/epoll.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long ms_since(const struct timespec *t0) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

int main(void) {
    int p[2];
    struct epoll_event ev = { .events = EPOLLIN, .data.u32 = 42 }, got[4];
    struct timespec t0;
    pipe(p);
    int ep = epoll_create1(0);
    epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev);
    printf("timeout 0: %d\n", epoll_wait(ep, got, 4, 0));
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int n = epoll_wait(ep, got, 4, 50);
    printf("timeout 50: %d, at least 50 ms: %d\n", n, ms_since(&t0) >= 50);
    write(p[1], "x", 1);
    n = epoll_wait(ep, got, 4, -1);
    printf("ready: %d data %u EPOLLIN %d\n", n, got[0].data.u32, (got[0].events & EPOLLIN) != 0);
    char c;
    read(p[0], &c, 1);
    fflush(stdout);
    if (fork() == 0) {
        usleep(30000);
        _exit(write(p[1], "y", 1) != 1);
    }
    n = epoll_wait(ep, got, 4, 5000);
    printf("waited for a writer: %d data %u\n", n, got[0].data.u32);
    wait(NULL);
    n = epoll_wait(ep, got, 0, 0);
    printf("maxevents 0: %d %s\n", n, n < 0 && errno == EINVAL ? "EINVAL" : "?");
    n = epoll_wait(p[0], got, 4, 0);
    printf("not an epoll fd: %d %s\n", n, n < 0 && errno == EINVAL ? "EINVAL" : "?");
    close(ep);
    n = epoll_wait(ep, got, 4, 100);
    printf("closed: %d %s\n", n, n < 0 && errno == EBADF ? "EBADF" : "?");
    return 0;
}

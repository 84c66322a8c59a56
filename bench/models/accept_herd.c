/* accept_herd.c -- what one accept() costs when N processes wait on one
 * listening socket: the thundering-herd measurement.
 *
 *   accept_herd N MODE CONNECTIONS     MODE: blocking | epoll
 *
 * blocking: each process sits in accept(2) (Linux wakes one: exclusive).
 * epoll: each waits in epoll_wait on the socket, then tries a
 * non-blocking accept, the way event-loop servers do (every waiter may
 * wake; the losers get EAGAIN).  The parent makes CONNECTIONS connections
 * one after another, each waiting until its server closed it, and prints
 *   us_per_connection CPU_us_per_accept wakeups_per_accept */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long *wakeups;               /* shared: wake-ups of all servers */

static void server(int lfd, int use_epoll) {
    int ep = -1;
    if (use_epoll) {
        ep = epoll_create1(0);
        struct epoll_event ev = { .events = EPOLLIN, .data.fd = lfd };
        epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
    }
    for (;;) {
        if (use_epoll) {
            struct epoll_event ev;
            if (epoll_wait(ep, &ev, 1, -1) < 1)
                continue;
        }
        __atomic_fetch_add(wakeups, 1, __ATOMIC_RELAXED);
        int fd = accept(lfd, NULL, NULL);
        if (fd >= 0)
            close(fd);
    }
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fputs("usage: accept_herd N blocking|epoll CONNECTIONS\n", stderr);
        return 2;
    }
    int n = atoi(argv[1]), use_epoll = !strcmp(argv[2], "epoll"), conns = atoi(argv[3]);
    wakeups = mmap(NULL, sizeof *wakeups, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    if (use_epoll)                  /* losers must get EAGAIN, not block in accept */
        fcntl(lfd, F_SETFL, fcntl(lfd, F_GETFL) | O_NONBLOCK);
    if (bind(lfd, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(lfd, 1024) < 0) {
        perror("listen");
        return 1;
    }
    socklen_t len = sizeof addr;
    getsockname(lfd, (struct sockaddr *)&addr, &len);
    pid_t *kids = calloc((size_t)n, sizeof *kids);
    for (int i = 0; i < n; i++)
        if ((kids[i] = fork()) == 0)
            server(lfd, use_epoll);
    usleep(200000);                 /* let every server reach its wait */
    *wakeups = 0;
    double t0 = now_s();
    for (int i = 0; i < conns; i++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        char c;
        connect(fd, (struct sockaddr *)&addr, sizeof addr);
        read(fd, &c, 1);            /* returns once the server closed it */
        close(fd);
    }
    double elapsed = now_s() - t0;
    usleep(100000);
    long woke = *wakeups;
    for (int i = 0; i < n; i++)
        kill(kids[i], SIGKILL);
    for (int i = 0; i < n; i++)
        waitpid(kids[i], NULL, 0);
    struct rusage ru;
    getrusage(RUSAGE_CHILDREN, &ru);
    double cpu = ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
                 (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    printf("%.2f %.2f %.2f\n", elapsed * 1e6 / conns, cpu * 1e6 / conns, (double)woke / conns);
    return 0;
}

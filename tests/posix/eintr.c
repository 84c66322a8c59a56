/* eintr.c -- a handled signal interrupts a waiting call as signal(7) says:
 * poll, select, epoll_wait, ppoll, pselect, epoll_pwait, the sleeps, pause
 * and sigsuspend always fail with EINTR (sleep returns the whole seconds
 * not slept, nanosleep fills rem, clock_nanosleep returns EINTR); read,
 * accept, recv are restarted when the handler has SA_RESTART (signal()
 * gives it) and fail with EINTR otherwise; a call that moved bytes returns
 * the count; a socket with SO_RCVTIMEO is never restarted; a signal the
 * call's mask blocks does not interrupt it; sigaction gives back the
 * program's own action.  The signal is SIGALRM from setitimer, or one a
 * child sends.  The output must be the same built plainly and ripped
 * (tests/test_posix.py). */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t got;

static void on_signal(int sig) {
    (void)sig;
    got++;
}

static volatile sig_atomic_t usr2;

static void on_usr2(int sig) {
    (void)sig;
    usr2++;
}

static void on_info(int sig, siginfo_t *si, void *uc) {
    (void)uc;
    got += si->si_signo == sig;
}

/* The handler for SIGALRM, with SA_RESTART or not. */
static void handle(int restart) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = restart ? SA_RESTART : 0;
    sigaction(SIGALRM, &sa, NULL);
}

/* SIGALRM in ms milliseconds. */
static void alarm_in(int ms) {
    struct itimerval it = { { 0, 0 }, { ms / 1000, (ms % 1000) * 1000 } };
    setitimer(ITIMER_REAL, &it, NULL);
}

static const char *err(int r) {
    return r < 0 ? (errno == EINTR ? "EINTR" : strerror(errno)) : "ok";
}

/* A child that writes one byte to fd after ms milliseconds, then exits. */
static pid_t write_later(int fd, int ms) {
    pid_t pid = fork();
    if (pid == 0) {
        usleep((useconds_t)ms * 1000);
        if (write(fd, "x", 1) != 1)
            _exit(1);
        _exit(0);
    }
    return pid;
}

int main(void) {
    int p[2];
    char c;
    setvbuf(stdout, NULL, _IONBF, 0);
    if (pipe(p) == -1)
        return 1;

    /* The waits a signal always ends. */
    handle(1);
    struct pollfd pf = { p[0], POLLIN, 0 };
    alarm_in(50);
    int n = poll(&pf, 1, -1);
    printf("poll (SA_RESTART): %d %s got=%d\n", n, err(n), got);
    fd_set rd;
    FD_ZERO(&rd);
    FD_SET(p[0], &rd);
    struct timeval tv = { 5, 0 };
    alarm_in(50);
    n = select(p[0] + 1, &rd, NULL, NULL, &tv);
    printf("select: %d %s set kept=%d slept<5s=%d\n", n, err(n), FD_ISSET(p[0], &rd),
           tv.tv_sec < 5);
    int ep = epoll_create1(0);
    struct epoll_event ev = { .events = EPOLLIN, .data.fd = p[0] }, out[2];
    epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev);
    alarm_in(50);
    n = epoll_wait(ep, out, 2, -1);
    printf("epoll_wait: %d %s\n", n, err(n));
    alarm_in(50);
    n = epoll_pwait(ep, out, 2, 5000, NULL);
    printf("epoll_pwait: %d %s\n", n, err(n));
    alarm_in(200);
    unsigned left = sleep(2);
    printf("sleep(2): %u left\n", left);
    struct timespec req = { 1, 0 }, rem = { 0, 0 };
    alarm_in(200);
    n = nanosleep(&req, &rem);
    printf("nanosleep: %d %s rem in 0.5..0.9s=%d\n", n, err(n),
           rem.tv_sec == 0 && rem.tv_nsec > 500000000 && rem.tv_nsec < 900000000);
    alarm_in(50);
    n = usleep(2000000);
    printf("usleep: %d %s\n", n, err(n));
    alarm_in(50);
    rem.tv_sec = 9;
    n = clock_nanosleep(CLOCK_MONOTONIC, 0, &req, &rem);
    printf("clock_nanosleep: %s rem<1s=%d\n", n == EINTR ? "EINTR" : "?", rem.tv_sec == 0);
    struct timespec at;
    clock_gettime(CLOCK_REALTIME, &at);
    at.tv_sec += 2;
    rem.tv_sec = 9;
    alarm_in(50);
    n = clock_nanosleep(CLOCK_REALTIME, TIMER_ABSTIME, &at, &rem);
    printf("clock_nanosleep abstime: %s rem untouched=%d\n", n == EINTR ? "EINTR" : "?",
           rem.tv_sec == 9);
    clock_gettime(CLOCK_MONOTONIC, &at);
    at.tv_nsec += 30000000;
    if (at.tv_nsec >= 1000000000) {
        at.tv_sec++;
        at.tv_nsec -= 1000000000;
    }
    printf("clock_nanosleep abstime, no signal: %d\n",
           clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL));
    alarm_in(50);
    n = pause();
    printf("pause: %d %s\n", n, err(n));
    sigset_t none;
    sigemptyset(&none);
    alarm_in(50);
    n = sigsuspend(&none);
    printf("sigsuspend: %d %s\n", n, err(n));

    /* read: restarted under SA_RESTART (the byte comes later), else EINTR. */
    pid_t pid = write_later(p[1], 300);
    alarm_in(50);
    got = 0;
    ssize_t r = read(p[0], &c, 1);
    printf("read (SA_RESTART): %zd %s got=%d\n", r, err((int)r), got);
    waitpid(pid, NULL, 0);
    handle(0);
    alarm_in(50);
    r = read(p[0], &c, 1);
    printf("read: %zd %s\n", r, err((int)r));
    signal(SIGALRM, on_signal);     /* glibc's signal: SA_RESTART */
    pid = write_later(p[1], 300);
    alarm_in(50);
    r = read(p[0], &c, 1);
    printf("read (signal()): %zd %s\n", r, err((int)r));
    waitpid(pid, NULL, 0);

    /* A write that moved bytes returns the count, SA_RESTART or not. */
    handle(1);
    size_t big = 1 << 20;
    char *buf = calloc(1, big);
    alarm_in(100);
    r = write(p[1], buf, big);
    printf("write moved some: %d\n", r > 0 && (size_t)r < big);
    free(buf);
    close(p[0]);
    close(p[1]);

    /* Sockets: accept restarted under SA_RESTART, EINTR otherwise;
     * SO_RCVTIMEO never restarted; MSG_WAITALL returns what came. */
    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t alen = sizeof a;
    bind(lfd, (struct sockaddr *)&a, sizeof a);
    listen(lfd, 4);
    getsockname(lfd, (struct sockaddr *)&a, &alen);
    handle(0);
    alarm_in(50);
    n = accept(lfd, NULL, NULL);
    printf("accept: %d %s\n", n, err(n));
    int sv[2];
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    handle(1);
    struct timeval rcv = { 2, 0 };
    setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &rcv, sizeof rcv);
    alarm_in(50);
    r = recv(sv[0], &c, 1, 0);
    printf("recv SO_RCVTIMEO (SA_RESTART): %zd %s\n", r, err((int)r));
    char four[4];
    send(sv[1], "ab", 2, 0);
    alarm_in(50);
    r = recv(sv[1 - 1], four, 4, MSG_WAITALL);
    printf("recv MSG_WAITALL cut: %zd\n", r);
    r = send(sv[1], "cd", 2, 0);

    /* A signal the call's mask blocks does not end it; its handler runs
     * once the mask is lifted (after the call, or during it: the count). */
    sigset_t alrm;
    sigemptyset(&alrm);
    sigaddset(&alrm, SIGALRM);
    handle(0);
    got = 0;
    alarm_in(20);
    struct timespec ts = { 0, 200000000 };
    n = ppoll(NULL, 0, &ts, &alrm);
    printf("ppoll, mask blocks it: %d %s got=%d\n", n, err(n), got);
    alarm_in(20);
    n = pselect(0, NULL, NULL, NULL, &ts, &alrm);
    printf("pselect, mask blocks it: %d %s got=%d\n", n, err(n), got);
    alarm_in(20);
    n = ppoll(NULL, 0, &ts, &none);
    printf("ppoll: %d %s got=%d\n", n, err(n), got);

    /* The pselect pattern: SIGCHLD blocked outside, let in by the mask. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_info;
    sa.sa_flags = SA_SIGINFO | SA_RESTART;
    sigaction(SIGCHLD, &sa, NULL);
    sigset_t chld, orig;
    sigemptyset(&chld);
    sigaddset(&chld, SIGCHLD);
    sigprocmask(SIG_BLOCK, &chld, &orig);
    got = 0;
    pid = fork();
    if (pid == 0)
        _exit(0);
    usleep(100000);
    printf("SIGCHLD blocked: got=%d\n", got);
    struct timespec five = { 5, 0 };
    n = pselect(0, NULL, NULL, NULL, &five, &orig);
    printf("pselect lets it in: %d %s got=%d\n", n, err(n), got);
    sigprocmask(SIG_SETMASK, &orig, NULL);
    waitpid(pid, NULL, 0);

    /* Never lost, never twice: five signals a child sends apart, each
     * runs the handler once and ends one wait. */
    signal(SIGUSR2, on_usr2);
    pid = fork();
    if (pid == 0) {
        for (int i = 0; i < 5; i++) {
            usleep(40000);
            kill(getppid(), SIGUSR2);
        }
        _exit(0);
    }
    int eintrs = 0, rounds = 0;
    while (usr2 < 5 && rounds++ < 8)
        eintrs += poll(NULL, 0, 1000) < 0 && errno == EINTR;
    printf("five signals: handler ran %d times, %d waits ended\n", usr2, eintrs);
    waitpid(pid, NULL, 0);

    /* The program's action comes back, never the runtime's. */
    struct sigaction q;
    sigaction(SIGCHLD, NULL, &q);
    printf("sigaction gives back: %d %d\n", q.sa_sigaction == on_info,
           (q.sa_flags & (SA_SIGINFO | SA_RESTART)) == (SA_SIGINFO | SA_RESTART));
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigaction(SIGUSR1, &sa, NULL);
    raise(SIGUSR1);
    sigaction(SIGUSR1, NULL, &q);
    printf("SA_RESETHAND: reset to SIG_DFL=%d\n", q.sa_handler == SIG_DFL);
    printf("signal() gives back: %d\n", signal(SIGALRM, SIG_DFL) == on_signal);
    return 0;
}

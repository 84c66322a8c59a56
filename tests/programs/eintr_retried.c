/* checks: fd calls are not cut short by signals: with a handler installed without SA_RESTART and a timer signal every 5 ms aimed at the thread that waits, a blocked reader still gets its data */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include "rip.h"

#ifndef sigev_notify_thread_id      /* glibc before 2.41 names only the union member */
#define sigev_notify_thread_id _sigev_un._tid
#endif

static int fds[2];
static volatile sig_atomic_t signals;   /* SIGALRMs handled */

static void on_alarm(int sig) {
    (void)sig;
    signals = signals + 1;
}

/* Every 5 ms, SIGALRM to the calling thread: the one that waits for the
 * reader (the scheduler's, or the task's own under threads). */
static int alarm_this_thread(timer_t *timer) {
    struct sigevent ev;
    struct itimerspec every_5ms = { { 0, 5000000 }, { 0, 5000000 } };
    memset(&ev, 0, sizeof ev);
    ev.sigev_notify = SIGEV_THREAD_ID;
    ev.sigev_signo = SIGALRM;
    ev.sigev_notify_thread_id = (pid_t)syscall(SYS_gettid);
    if (timer_create(CLOCK_MONOTONIC, &ev, timer))
        return -1;
    return timer_settime(*timer, 0, &every_5ms, NULL);
}

static void writer(void *arg) {
    (void)arg;
    rip_sleep_ms(200);
    rip_write(fds[1], "hello", 5);
}

static void reader(void *arg) {
    char buf[8];
    size_t got = 0;
    timer_t timer;
    (void)arg;
    if (alarm_this_thread(&timer)) {
        perror("timer");
        return;
    }
    while (got < 5) {
        ssize_t n = rip_read(fds[0], buf + got, 5 - got);
        if (n <= 0) {
            printf("read failed: %s\n", n < 0 ? strerror(errno) : "EOF");
            break;
        }
        got += (size_t)n;
    }
    timer_delete(timer);
    printf("reader got: %.*s\n", (int)got, buf);
}

static void start(void *arg) {
    rip_spawn(reader, arg);
    rip_spawn(writer, arg);
}

int main(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;       /* sa_flags 0: no SA_RESTART */
    sigemptyset(&sa.sa_mask);
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds) || sigaction(SIGALRM, &sa, NULL))
        return 1;
    int r = rip_run(start, NULL);
    printf("signals arrived meanwhile: %s\n", signals > 0 ? "yes" : "no");
    return r;
}

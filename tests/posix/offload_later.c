/* offload_later.c -- more calls with no non-blocking form, as plain
 * POSIX: wait4 (WNOHANG, a running child and its rusage, any child,
 * ECHILD), wait3, gethostbyaddr (found, and a bad length), sync, syncfs
 * (EBADF too), lockf on a region a child holds for a while (F_TEST,
 * F_TLOCK, then F_LOCK waits; EBADF, EINVAL), with a thread that keeps
 * running while the main one waits.  The output must be the same built
 * plainly and ripped (tests/test_posix.py). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ticker.h"

/* The call's result, and errno's name when it failed. */
#define SHOW(label, expr) do {                                                \
        errno = 0;                                                            \
        long r_ = (long)(expr);                                               \
        int e_ = errno;                                                       \
        printf("%s: %ld%s%s\n", label, r_, r_ == -1 ? " " : "",               \
               r_ == -1 ? strerrorname_np(e_) : "");                          \
    } while (0)

/* A child that spins for `ms` of CPU time (its rusage shows it), then exits. */
static pid_t child_exiting(int status, int ms) {
    pid_t pid = fork();
    if (pid == 0) {
        struct timespec t0, t;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
        do
            clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
        while ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
        _exit(status);
    }
    return pid;
}

static void waits(void) {
    int st = -1;
    struct rusage ru;
    pid_t pid = child_exiting(3, 200);
    printf("wait4 WNOHANG on a running child: %d\n", (int)wait4(pid, &st, WNOHANG, &ru));
    int before = now();
    memset(&ru, 0, sizeof ru);
    pid_t got = wait4(pid, &st, 0, &ru);
    printf("wait4: own pid %d, status %d, its CPU time in rusage %d, the other thread ran %d\n",
           got == pid, WEXITSTATUS(st), ru.ru_utime.tv_sec + ru.ru_stime.tv_sec > 0 ||
           ru.ru_utime.tv_usec + ru.ru_stime.tv_usec > 50000, now() - before >= 5);
    SHOW("wait4 of no child", wait4(pid, &st, 0, NULL));
    pid = child_exiting(4, 20);
    got = wait4(-1, &st, 0, NULL);
    printf("wait4(-1): own pid %d, status %d\n", got == pid, WEXITSTATUS(st));
    pid = child_exiting(5, 200);
    printf("wait3 WNOHANG: %d\n", (int)wait3(&st, WNOHANG, NULL));
    memset(&ru, 0, sizeof ru);
    before = now();
    got = wait3(&st, 0, &ru);
    printf("wait3: own pid %d, status %d, the other thread ran %d\n", got == pid, WEXITSTATUS(st),
           now() - before >= 5);
    SHOW("wait3 with no child", wait3(&st, 0, NULL));
    SHOW("wait4(-1, bad options)", wait4(-1, &st, 0x7000, NULL));
}

static void names(void) {
    struct in_addr lo;
    inet_pton(AF_INET, "127.0.0.1", &lo);
    struct hostent *h = gethostbyaddr(&lo, sizeof lo, AF_INET);
    printf("gethostbyaddr(127.0.0.1): %s\n", h && h->h_addrtype == AF_INET && h->h_name[0] ? "a name" : "NULL");
    h_errno = 0;
    h = gethostbyaddr(&lo, 3, AF_INET);
    printf("gethostbyaddr(length 3): %s, h_errno %d\n", h ? "a name" : "NULL", h_errno);
}

static void syncs(const char *file) {
    sync();
    printf("sync returned\n");
    int fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0600);
    write(fd, "data", 4);
    SHOW("syncfs", syncfs(fd));
    SHOW("syncfs(-1)", syncfs(-1));
    close(fd);
}

/* A child locks the file's first 10 bytes, says so through a pipe,
 * holds them 200 ms. */
static pid_t child_holding(const char *file) {
    int p[2];
    pipe(p);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(file, O_RDWR);
        lockf(fd, F_LOCK, 10);
        write(p[1], "x", 1);
        usleep(200000);
        _exit(0);
    }
    close(p[1]);
    char c;
    read(p[0], &c, 1);
    close(p[0]);
    return pid;
}

static void locks(const char *file) {
    int st;
    pid_t pid = child_holding(file);
    int fd = open(file, O_RDWR);
    SHOW("lockf(F_TEST) while the child holds it", lockf(fd, F_TEST, 10));
    SHOW("lockf(F_TLOCK) while the child holds it", lockf(fd, F_TLOCK, 10));
    SHOW("lockf(F_TLOCK) from 0 to the end", lockf(fd, F_TLOCK, 0));
    lseek(fd, 20, SEEK_SET);
    SHOW("lockf(F_TLOCK) of bytes 20..", lockf(fd, F_TLOCK, 5));
    lseek(fd, 0, SEEK_SET);
    int before = now();
    SHOW("lockf(F_LOCK) waits for the child", lockf(fd, F_LOCK, 10));
    printf("the other thread ran meanwhile: %d\n", now() - before >= 5);
    SHOW("lockf(F_ULOCK)", lockf(fd, F_ULOCK, 10));
    waitpid(pid, &st, 0);
    SHOW("lockf(-1, F_LOCK)", lockf(-1, F_LOCK, 0));
    SHOW("lockf(bad cmd)", lockf(fd, 99, 0));
    close(fd);
}

int main(void) {
    char file[] = "/tmp/rip-offload-later-XXXXXX";
    int fd = mkstemp(file);
    if (fd < 0)
        return 1;
    close(fd);
    setvbuf(stdout, NULL, _IONBF, 0);
    pthread_t t;
    pthread_create(&t, NULL, ticker, NULL);
    waits();
    names();
    syncs(file);
    locks(file);
    stop = 1;
    pthread_join(t, NULL);
    unlink(file);
    return 0;
}

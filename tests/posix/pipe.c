/* pipe.c -- read(2) and write(2) on pipes, as plain POSIX: short reads,
 * EOF, EAGAIN under the program's own O_NONBLOCK, a blocking read that
 * waits for a slower writer, a blocking write that waits for a slower
 * reader and writes every byte, a short write when non-blocking, EPIPE.
 * The output must be the same built plainly and ripped (tests/test_posix.py). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define BIG (1 << 20)

static int nonblocking(int fd) {
    return (fcntl(fd, F_GETFL) & O_NONBLOCK) != 0;
}

/* The child writes `n` bytes to fd after sleeping `ms`, in one write. */
static void writer_child(int fd, int ms, const char *text) {
    fflush(stdout);
    if (fork() == 0) {
        usleep(ms * 1000);
        ssize_t n = write(fd, text, strlen(text));
        _exit(n == (ssize_t)strlen(text) ? 0 : 1);
    }
}

static void reap(void) {
    int status;
    wait(&status);
    printf("child: %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

int main(void) {
    int p[2];
    char buf[100];
    signal(SIGPIPE, SIG_IGN);
    pipe(p);
    printf("write: %zd\n", write(p[1], "hello", 5));
    printf("short read: %zd\n", read(p[0], buf, sizeof buf));
    printf("read 0 bytes: %zd\n", read(p[0], buf, 0));

    writer_child(p[1], 50, "late");
    ssize_t n = read(p[0], buf, sizeof buf);
    printf("waited read: %zd '%.*s', still blocking: %d\n", n, (int)(n > 0 ? n : 0), buf,
           !nonblocking(p[0]));
    reap();

    fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
    n = read(p[0], buf, sizeof buf);
    printf("non-blocking empty read: %zd %s\n", n, n < 0 && errno == EAGAIN ? "EAGAIN" : "?");
    fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) & ~O_NONBLOCK);

    /* A blocking write of 1 MiB into a 64 KiB pipe: all of it, while a
     * slower child reads it. */
    char *big = malloc(BIG);
    memset(big, 'x', BIG);
    fflush(stdout);
    if (fork() == 0) {
        size_t got = 0;
        close(p[1]);
        usleep(20000);
        while ((n = read(p[0], buf, sizeof buf)) > 0)
            got += (size_t)n;
        _exit(got == BIG ? 0 : 2);
    }
    printf("blocking big write: %zd\n", write(p[1], big, BIG));
    close(p[1]);
    close(p[0]);
    reap();

    /* Non-blocking: a short write, then EAGAIN. */
    pipe(p);
    fcntl(p[1], F_SETFL, O_NONBLOCK);
    n = write(p[1], big, BIG);
    printf("non-blocking big write is short: %d\n", n > 0 && n < BIG);
    n = write(p[1], big, BIG);
    printf("then: %zd %s\n", n, n < 0 && errno == EAGAIN ? "EAGAIN" : "?");

    /* EOF, EPIPE. */
    close(p[1]);
    while (read(p[0], buf, sizeof buf) > 0)
        ;
    printf("EOF: %zd\n", read(p[0], buf, sizeof buf));
    pipe(p);
    close(p[0]);
    n = write(p[1], "x", 1);
    printf("EPIPE: %zd %s\n", n, n < 0 && errno == EPIPE ? "EPIPE" : "?");
    n = read(-1, buf, 1);
    printf("EBADF: %zd %s\n", n, n < 0 && errno == EBADF ? "EBADF" : "?");
    free(big);
    return 3;
}

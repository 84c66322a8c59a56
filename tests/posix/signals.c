/* signals.c -- signal handlers and SIGPIPE, as plain POSIX: a handler
 * that calls write(2) stays a plain function whose write is the C
 * library's (ripper --posix leaves functions used as plain pointers
 * plain); write to a pipe with no reader kills with SIGPIPE unless it is
 * ignored (then EPIPE); a blocking send the peer leaves in the middle
 * returns the count sent, without SIGPIPE.  The output must be the same built plainly and
 * ripped (tests/test_posix.py). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static void on_usr1(int sig) {
    (void)sig;
    write(1, "handler\n", 8);
}

int main(void) {
    int p[2];
    fflush(stdout);
    signal(SIGUSR1, on_usr1);
    raise(SIGUSR1);
    printf("sleep: %u\n", sleep(0));
    fflush(stdout);
    if (fork() == 0) {              /* SIGPIPE's default: the writer dies of it */
        pipe(p);
        close(p[0]);
        write(p[1], "x", 1);
        _exit(0);
    }
    int status;
    wait(&status);
    printf("killed by SIGPIPE: %d\n", WIFSIGNALED(status) && WTERMSIG(status) == SIGPIPE);
    fflush(stdout);
    if (fork() == 0) {              /* a blocking send cut short by the peer leaving: the count sent, no SIGPIPE */
        int sv[2];
        size_t big = 8 << 20, got = 0;
        char *buf = calloc(1, big);
        socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
        if (fork() == 0) {
            close(sv[0]);
            while (got < 100000) {
                ssize_t r = read(sv[1], buf, 65536);
                if (r <= 0)
                    _exit(1);
                got += (size_t)r;
            }
            _exit(0);
        }
        close(sv[1]);
        ssize_t n = send(sv[0], buf, big, 0);
        _exit(n > 0 && (size_t)n < big ? 7 : 8);
    }
    wait(&status);
    printf("short send, no SIGPIPE: %d\n", WIFEXITED(status) && WEXITSTATUS(status) == 7);
    wait(&status);
    signal(SIGPIPE, SIG_IGN);
    pipe(p);
    close(p[0]);
    ssize_t n = write(p[1], "x", 1);
    printf("ignored: %zd %s\n", n, n < 0 && errno == EPIPE ? "EPIPE" : "?");
    return 0;
}

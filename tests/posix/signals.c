/* signals.c -- signal handlers and SIGPIPE, as plain POSIX: a handler
 * that calls write(2) stays a plain function whose write is the C
 * library's (ripper --posix leaves functions used as plain pointers
 * plain); write to a pipe with no reader kills with SIGPIPE unless it is
 * ignored (then EPIPE).  The output must be the same built plainly and
 * ripped (tests/test_posix.py). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
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
    signal(SIGPIPE, SIG_IGN);
    pipe(p);
    close(p[0]);
    ssize_t n = write(p[1], "x", 1);
    printf("ignored: %zd %s\n", n, n < 0 && errno == EPIPE ? "EPIPE" : "?");
    return 0;
}

/* echo_server.c -- a small echo server written in plain POSIX, the slice's
 * whole: an accept loop serving one connection at a time (read until EOF,
 * write back what came), and a forked client that connects twice, sends
 * lines in pieces with pauses, and checks the echoes.  The output must be
 * the same built plainly and ripped (tests/test_posix.py). */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define CONNECTIONS 2

/* Write all of buf (a blocking socket's write does). */
static int send_all(int fd, const char *buf, size_t len) {
    return write(fd, buf, len) == (ssize_t)len ? 0 : -1;
}

/* Echo one connection until the peer shuts its side: the bytes echoed. */
static long serve(int fd) {
    char buf[512];
    long total = 0;
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) {
        if (send_all(fd, buf, (size_t)n) == -1)
            return -1;
        total += n;
    }
    return n == 0 ? total : -1;
}

/* One client connection: send `lines` in two pieces each, with a pause,
 * and read the echo of each: 0 when every echo matched. */
static int client(const struct sockaddr_in *addr, const char *const *lines) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (connect(fd, (const struct sockaddr *)addr, sizeof *addr) == -1)
        return 1;
    for (; *lines; lines++) {
        size_t len = strlen(*lines), half = len / 2, got = 0;
        char echo[256];
        if (send_all(fd, *lines, half) == -1)
            return 2;
        usleep(10000);
        if (send(fd, *lines + half, len - half, 0) != (ssize_t)(len - half))
            return 3;
        while (got < len) {
            ssize_t n = recv(fd, echo + got, sizeof echo - got, 0);
            if (n <= 0)
                return 4;
            got += (size_t)n;
        }
        if (got != len || memcmp(echo, *lines, len) != 0)
            return 5;
    }
    shutdown(fd, SHUT_WR);
    char rest;
    int eof = read(fd, &rest, 1) == 0;
    close(fd);
    return eof ? 0 : 6;
}

int main(void) {
    static const char *const first[] = { "hello\n", "echo me back\n", NULL };
    static const char *const second[] = { "a longer line, sent in two halves\n", NULL };
    struct sockaddr_in addr = { .sin_family = AF_INET };
    socklen_t len = sizeof addr;
    int l = socket(AF_INET, SOCK_STREAM, 0);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(l, (struct sockaddr *)&addr, sizeof addr) == -1 || listen(l, 8) == -1 ||
            getsockname(l, (struct sockaddr *)&addr, &len) == -1) {
        perror("listen");
        return 1;
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(l);
        int r = client(&addr, first);
        _exit(r ? r : client(&addr, second) ? 10 : 0);
    }
    for (int i = 0; i < CONNECTIONS; i++) {
        int c = accept(l, NULL, NULL);
        if (c == -1) {
            perror("accept");
            return 1;
        }
        printf("connection %d: echoed %ld bytes\n", i, serve(c));
        close(c);
    }
    int status;
    waitpid(pid, &status, 0);
    printf("client: %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    close(l);
    return 0;
}

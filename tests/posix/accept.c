/* accept.c -- accept, accept4 and connect, as plain POSIX: a blocking
 * accept that waits for a slower client, accept4's flags on the new
 * socket and none on accept's, EAGAIN on a listener the program made
 * non-blocking, connect refused, a blocking connect, and a non-blocking
 * one (EINPROGRESS, then writable and SO_ERROR).  The output must be the
 * same built plainly and ripped (tests/test_posix.py). */
#define _GNU_SOURCE                 /* accept4 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static struct sockaddr_in addr;

static int listener(void) {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    socklen_t len = sizeof addr;
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = 0;
    bind(fd, (struct sockaddr *)&addr, sizeof addr);
    listen(fd, 16);
    getsockname(fd, (struct sockaddr *)&addr, &len);
    return fd;
}

/* A child that connects after `ms` and sends `text`. */
static void client_child(int ms, const char *text) {
    fflush(stdout);
    if (fork() == 0) {
        usleep(ms * 1000);
        int c = socket(AF_INET, SOCK_STREAM, 0);
        if (connect(c, (struct sockaddr *)&addr, sizeof addr) == -1)
            _exit(1);
        _exit(write(c, text, strlen(text)) == (ssize_t)strlen(text) ? 0 : 2);
    }
}

static void reap(void) {
    int status;
    wait(&status);
    printf("child: %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static void flags_of(const char *what, int fd) {
    printf("%s: nonblock %d cloexec %d\n", what, (fcntl(fd, F_GETFL) & O_NONBLOCK) != 0,
           (fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0);
}

int main(void) {
    char buf[64];
    int l = listener();
    struct sockaddr_in peer;
    socklen_t len = sizeof peer;

    client_child(40, "one");
    int c = accept(l, (struct sockaddr *)&peer, &len);
    ssize_t n = read(c, buf, sizeof buf);
    printf("accepted, peer is loopback: %d, read %zd '%.*s'\n",
           peer.sin_addr.s_addr == htonl(INADDR_LOOPBACK), n, (int)(n > 0 ? n : 0), buf);
    flags_of("accept", c);
    flags_of("listener", l);
    close(c);
    reap();

    client_child(20, "two");
    c = accept4(l, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
    flags_of("accept4", c);
    close(c);
    reap();

    fcntl(l, F_SETFL, O_NONBLOCK);
    c = accept(l, NULL, NULL);
    printf("non-blocking accept: %d %s\n", c, c < 0 && errno == EAGAIN ? "EAGAIN" : "?");
    fcntl(l, F_SETFL, 0);

    /* A blocking connect to the listener, then one to a closed port. */
    int s = socket(AF_INET, SOCK_STREAM, 0);
    printf("connect: %d\n", connect(s, (struct sockaddr *)&addr, sizeof addr));
    flags_of("connected", s);
    c = accept(l, NULL, NULL);
    n = send(s, "hi", 2, 0);
    printf("send: %zd\n", n);
    n = recv(c, buf, sizeof buf, 0);
    printf("recv: %zd\n", n);
    close(c);
    close(s);
    int closed = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in nowhere = addr;
    close(l);                       /* nothing listens on addr now */
    s = socket(AF_INET, SOCK_STREAM, 0);
    int r = connect(s, (struct sockaddr *)&nowhere, sizeof nowhere);
    printf("connect refused: %d %s\n", r, r < 0 && errno == ECONNREFUSED ? "ECONNREFUSED" : strerror(errno));
    close(s);
    close(closed);

    /* The program's own non-blocking connect. */
    l = listener();
    s = socket(AF_INET, SOCK_STREAM, 0);
    fcntl(s, F_SETFL, O_NONBLOCK);
    r = connect(s, (struct sockaddr *)&addr, sizeof addr);
    printf("non-blocking connect: %d %s\n", r,
           r == 0 ? "done" : errno == EINPROGRESS ? "EINPROGRESS" : strerror(errno));
    struct pollfd p = { .fd = s, .events = POLLOUT };
    poll(&p, 1, 1000);
    int e = -1;
    len = sizeof e;
    getsockopt(s, SOL_SOCKET, SO_ERROR, &e, &len);
    printf("then writable, SO_ERROR %d\n", e);
    close(s);
    close(l);
    return 0;
}

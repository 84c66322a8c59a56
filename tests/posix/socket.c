/* socket.c -- recv, send, recvfrom, sendto, and read/write on sockets, as
 * plain POSIX: short reads, MSG_PEEK, MSG_DONTWAIT, MSG_WAITALL across two
 * sends of a slower peer, a blocking send larger than the buffers, EAGAIN
 * under the program's own O_NONBLOCK, EOF, EPIPE, ENOTSOCK, datagrams with
 * their source address.  The output must be the same built plainly and
 * ripped (tests/test_posix.py). */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define BIG (4 << 20)

static const char *err(ssize_t n) {
    if (n >= 0)
        return "";
    switch (errno) {
    case EAGAIN: return "EAGAIN";
    case EPIPE: return "EPIPE";
    case ENOTSOCK: return "ENOTSOCK";
    case ECONNRESET: return "ECONNRESET";
    default: return strerror(errno);
    }
}

static void reap(void) {
    int status;
    wait(&status);
    printf("child: %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

int main(void) {
    int sv[2];
    char buf[256];
    ssize_t n;
    signal(SIGPIPE, SIG_IGN);
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);

    printf("send: %zd\n", send(sv[0], "abcdef", 6, 0));
    n = recv(sv[1], buf, 4, MSG_PEEK);
    printf("peek: %zd '%.4s'\n", n, buf);
    n = recv(sv[1], buf, sizeof buf, 0);
    printf("short recv: %zd '%.*s'\n", n, (int)n, buf);
    n = recv(sv[1], buf, sizeof buf, MSG_DONTWAIT);
    printf("dontwait on empty: %zd %s\n", n, err(n));
    printf("write: %zd\n", write(sv[0], "xyz", 3));
    n = read(sv[1], buf, sizeof buf);
    printf("read: %zd '%.*s'\n", n, (int)n, buf);

    /* MSG_WAITALL: the peer sends 3 then, later, 5 bytes; one recv gets 8. */
    fflush(stdout);
    if (fork() == 0) {
        close(sv[1]);
        send(sv[0], "123", 3, 0);
        usleep(30000);
        send(sv[0], "45678", 5, 0);
        _exit(0);
    }
    n = recv(sv[1], buf, 8, MSG_WAITALL);
    printf("waitall: %zd '%.*s'\n", n, (int)(n > 0 ? n : 0), buf);
    reap();

    /* A blocking send larger than both buffers: every byte, while the
     * slower peer reads. */
    char *big = calloc(1, BIG);
    fflush(stdout);
    if (fork() == 0) {
        size_t got = 0;
        close(sv[0]);
        usleep(20000);
        while (got < BIG && (n = recv(sv[1], big, BIG, 0)) > 0)
            got += (size_t)n;
        _exit(got == BIG ? 0 : 2);
    }
    printf("big send: %zd\n", send(sv[0], big, BIG, 0));
    reap();

    /* The program's own O_NONBLOCK: a short send, then EAGAIN; recv EAGAIN. */
    fcntl(sv[0], F_SETFL, O_NONBLOCK);
    n = send(sv[0], big, BIG, 0);
    printf("non-blocking big send is short: %d\n", n > 0 && n < BIG);
    n = send(sv[0], big, BIG, 0);
    printf("then: %zd %s\n", n, err(n));
    n = recv(sv[0], buf, sizeof buf, 0);
    printf("non-blocking recv: %zd %s\n", n, err(n));

    /* EOF and EPIPE. */
    close(sv[0]);
    while ((n = recv(sv[1], big, BIG, 0)) > 0)
        ;
    printf("EOF: %zd\n", n);
    n = send(sv[1], "x", 1, 0);
    printf("send to a closed peer: %zd %s\n", n, err(n));
    close(sv[1]);
    int p[2];
    pipe(p);
    n = recv(p[0], buf, 1, 0);
    printf("recv on a pipe: %zd %s\n", n, err(n));

    /* Datagrams: sendto an address, recvfrom says who sent. */
    int a = socket(AF_INET, SOCK_DGRAM, 0), b = socket(AF_INET, SOCK_DGRAM, 0);
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof addr;
    bind(a, (struct sockaddr *)&addr, sizeof addr);
    bind(b, (struct sockaddr *)&addr, sizeof addr);
    struct sockaddr_in to, from, bs;
    getsockname(a, (struct sockaddr *)&to, &len);
    len = sizeof bs;
    getsockname(b, (struct sockaddr *)&bs, &len);
    fflush(stdout);
    if (fork() == 0) {
        usleep(20000);
        _exit(sendto(b, "dgram", 5, 0, (struct sockaddr *)&to, sizeof to) == 5 ? 0 : 1);
    }
    len = sizeof from;
    n = recvfrom(a, buf, sizeof buf, 0, (struct sockaddr *)&from, &len);
    printf("recvfrom: %zd '%.*s' from b: %d\n", n, (int)(n > 0 ? n : 0), buf,
           from.sin_port == bs.sin_port);
    reap();
    n = recvfrom(a, buf, sizeof buf, MSG_DONTWAIT, NULL, NULL);
    printf("recvfrom dontwait: %zd %s\n", n, err(n));
    free(big);
    return 0;
}

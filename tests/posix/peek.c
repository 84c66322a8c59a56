/* peek.c -- MSG_PEEK, MSG_WAITALL and the two together on recv, recvfrom
 * and recvmsg, as the kernel does them: on a stream socket MSG_WAITALL
 * waits for every byte (MSG_PEEK too: it peeks them all, and leaves
 * them), or for the peer's end (what came); on a datagram or seqpacket
 * socket it is ignored (one datagram); and the byte-at-a-time peek loop
 * real servers use to find the end of a line.  The output must be the
 * same built plainly and ripped (tests/test_posix.py). */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

/* A child that sends `first` now and `later` after 100 ms on fd, then
 * closes it (or not, if keep). */
static pid_t sender(int fd, const char *first, const char *later) {
    pid_t pid = fork();
    if (pid == 0) {
        if (first[0] && send(fd, first, strlen(first), 0) < 0)
            _exit(1);
        usleep(100000);
        if (later[0] && send(fd, later, strlen(later), 0) < 0)
            _exit(1);
        usleep(50000);
        _exit(0);
    }
    return pid;
}

static void show(const char *what, ssize_t n, const char *buf) {
    if (n < 0)
        printf("%s: -1 %s\n", what, strerror(errno));
    else
        printf("%s: %zd \"%.*s\"\n", what, n, (int)n, buf);
}

/* A stream pair: a Unix socketpair, or a loopback TCP connection. */
static void stream_pair(int tcp, int sv[2]) {
    if (!tcp) {
        socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
        return;
    }
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof a;
    int l = socket(AF_INET, SOCK_STREAM, 0);
    bind(l, (struct sockaddr *)&a, sizeof a);
    listen(l, 1);
    getsockname(l, (struct sockaddr *)&a, &len);
    sv[1] = socket(AF_INET, SOCK_STREAM, 0);
    connect(sv[1], (struct sockaddr *)&a, sizeof a);
    sv[0] = accept(l, NULL, NULL);
    close(l);
}

static void streams(int tcp) {
    char buf[16];
    int sv[2];
    printf("-- %s stream\n", tcp ? "TCP" : "Unix");
    stream_pair(tcp, sv);
    pid_t pid = sender(sv[1], "ab", "cdef");
    ssize_t n = recv(sv[0], buf, 4, MSG_PEEK | MSG_WAITALL);
    show("peek+waitall 4", n, buf);
    n = recv(sv[0], buf, 4, MSG_PEEK);
    show("peek 4", n, buf);
    n = recv(sv[0], buf, 6, MSG_WAITALL);
    show("waitall 6", n, buf);
    waitpid(pid, NULL, 0);
    pid = sender(sv[1], "gh", "");
    close(sv[1]);
    n = recv(sv[0], buf, 8, MSG_PEEK | MSG_WAITALL);
    show("peek+waitall 8, peer gone", n, buf);
    n = recv(sv[0], buf, 8, MSG_WAITALL);
    show("waitall 8, peer gone", n, buf);
    waitpid(pid, NULL, 0);
    close(sv[0]);

    /* The byte-at-a-time line reader: peek one byte, take it, to '\n'. */
    stream_pair(tcp, sv);
    pid = sender(sv[1], "GET /", " HTTP/1.0\nrest");
    char line[64];
    size_t got = 0;
    for (;;) {
        char c;
        if (recv(sv[0], &c, 1, MSG_PEEK) != 1 || recv(sv[0], &c, 1, 0) != 1)
            break;
        if (c == '\n')
            break;
        line[got++] = c;
    }
    printf("line: \"%.*s\"\n", (int)got, line);
    n = recv(sv[0], buf, 4, MSG_PEEK | MSG_WAITALL);
    show("then peek+waitall 4", n, buf);
    struct iovec v = { buf, 4 };
    struct msghdr m = { .msg_iov = &v, .msg_iovlen = 1 };
    n = recvmsg(sv[0], &m, MSG_PEEK | MSG_WAITALL);
    show("recvmsg peek+waitall 4", n, buf);
    n = recvfrom(sv[0], buf, 4, MSG_WAITALL, NULL, NULL);
    show("recvfrom waitall 4", n, buf);
    waitpid(pid, NULL, 0);
    close(sv[0]);
    close(sv[1]);
}

/* Datagrams and seqpacket: MSG_WAITALL is ignored, one message a call. */
static void messages(int type) {
    char buf[16];
    int sv[2];
    printf("-- Unix %s\n", type == SOCK_DGRAM ? "datagram" : "seqpacket");
    socketpair(AF_UNIX, type, 0, sv);
    send(sv[1], "abc", 3, 0);
    send(sv[1], "de", 2, 0);
    ssize_t n = recv(sv[0], buf, 10, MSG_PEEK | MSG_WAITALL);
    show("peek+waitall 10", n, buf);
    n = recv(sv[0], buf, 10, MSG_WAITALL);
    show("waitall 10", n, buf);
    n = recv(sv[0], buf, 10, MSG_WAITALL);
    show("waitall 10", n, buf);
    pid_t pid = sender(sv[1], "", "fg");
    n = recv(sv[0], buf, 10, MSG_WAITALL);
    show("waitall 10, waits", n, buf);
    waitpid(pid, NULL, 0);
    close(sv[0]);
    close(sv[1]);
}

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    streams(0);
    streams(1);
    messages(SOCK_DGRAM);
    messages(SOCK_SEQPACKET);
    int udp[2];
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof a;
    char buf[16];
    udp[0] = socket(AF_INET, SOCK_DGRAM, 0);
    udp[1] = socket(AF_INET, SOCK_DGRAM, 0);
    bind(udp[0], (struct sockaddr *)&a, sizeof a);
    getsockname(udp[0], (struct sockaddr *)&a, &len);
    connect(udp[1], (struct sockaddr *)&a, sizeof a);
    printf("-- UDP\n");
    send(udp[1], "xyz", 3, 0);
    ssize_t n = recvfrom(udp[0], buf, 10, MSG_PEEK | MSG_WAITALL, NULL, NULL);
    show("peek+waitall 10", n, buf);
    n = recvfrom(udp[0], buf, 10, MSG_WAITALL, NULL, NULL);
    show("waitall 10", n, buf);
    return 0;
}

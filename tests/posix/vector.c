/* vector.c -- readv, writev, recvmsg and sendmsg, as plain POSIX: a short
 * readv over two buffers, a blocking writev larger than the socket's
 * buffers (every byte, while a slower peer reads), EAGAIN under the
 * program's own O_NONBLOCK, recvmsg with MSG_WAITALL across two sends,
 * sendmsg passing an fd (SCM_RIGHTS), readv on a pipe, EINVAL for a
 * negative count.  The output must be the same built plainly and ripped
 * (tests/test_posix.py). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#define BIG (3 << 20)

static void reap(void) {
    int status;
    wait(&status);
    printf("child: %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

int main(void) {
    int sv[2], p[2];
    char a[4], b[8];
    struct iovec v[2] = { { a, sizeof a }, { b, sizeof b } };
    ssize_t n;
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);

    write(sv[0], "123456", 6);
    n = readv(sv[1], v, 2);
    printf("short readv: %zd '%.4s' '%.2s'\n", n, a, b);

    /* A blocking writev of 3 MiB in two pieces: every byte. */
    char *big = calloc(1, BIG);
    struct iovec w[2] = { { big, BIG / 3 }, { big + BIG / 3, BIG - BIG / 3 } };
    fflush(stdout);
    if (fork() == 0) {
        size_t got = 0;
        close(sv[0]);
        usleep(20000);
        while (got < BIG && (n = read(sv[1], big, BIG)) > 0)
            got += (size_t)n;
        _exit(got == BIG ? 0 : 2);
    }
    printf("blocking writev: %zd\n", writev(sv[0], w, 2));
    reap();

    fcntl(sv[1], F_SETFL, O_NONBLOCK);
    n = readv(sv[1], v, 2);
    printf("non-blocking readv: %zd %s\n", n, n < 0 && errno == EAGAIN ? "EAGAIN" : "?");
    fcntl(sv[1], F_SETFL, 0);

    /* recvmsg with MSG_WAITALL: 3 bytes, later 5, one call gets 8. */
    fflush(stdout);
    if (fork() == 0) {
        close(sv[1]);
        send(sv[0], "abc", 3, 0);
        usleep(30000);
        send(sv[0], "defgh", 5, 0);
        _exit(0);
    }
    char msgbuf[8];
    struct iovec mv[2] = { { msgbuf, 2 }, { msgbuf + 2, 6 } };
    struct msghdr m = { .msg_iov = mv, .msg_iovlen = 2 };
    n = recvmsg(sv[1], &m, MSG_WAITALL);
    printf("recvmsg waitall: %zd '%.8s'\n", n, msgbuf);
    reap();

    /* sendmsg with an fd: the receiver gets a working copy of it. */
    pipe(p);
    union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } cbuf; /* cmsg(3)'s idiom: aligned */
    memset(&cbuf, 0, sizeof cbuf);
    struct iovec one = { "F", 1 };
    struct msghdr s = { .msg_iov = &one, .msg_iovlen = 1, .msg_control = cbuf.buf,
                        .msg_controllen = sizeof cbuf.buf };
    struct cmsghdr *c = CMSG_FIRSTHDR(&s);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &p[1], sizeof(int));
    printf("sendmsg: %zd\n", sendmsg(sv[0], &s, 0));
    char got[1];
    union { char buf[CMSG_SPACE(sizeof(int))]; struct cmsghdr align; } rbuf;
    struct iovec rone = { got, 1 };
    struct msghdr r = { .msg_iov = &rone, .msg_iovlen = 1, .msg_control = rbuf.buf,
                        .msg_controllen = sizeof rbuf.buf };
    n = recvmsg(sv[1], &r, 0);
    int passed = -1;
    c = CMSG_FIRSTHDR(&r);
    if (c && c->cmsg_type == SCM_RIGHTS)
        memcpy(&passed, CMSG_DATA(c), sizeof passed);
    printf("recvmsg: %zd '%c', an fd came: %d\n", n, got[0], passed >= 0);
    write(passed, "via", 3);
    close(passed);
    close(p[1]);

    /* readv on a pipe, then EOF; EINVAL. */
    memset(a, 0, sizeof a);
    n = readv(p[0], v, 2);
    printf("pipe readv: %zd '%.3s'\n", n, a);
    printf("pipe EOF: %zd\n", readv(p[0], v, 2));
    volatile int negative = -1;     /* a constant would be gcc's warning */
    n = readv(p[0], v, negative);
    printf("negative count: %zd %s\n", n, n < 0 && errno == EINVAL ? "EINVAL" : "?");
    free(big);
    return 0;
}

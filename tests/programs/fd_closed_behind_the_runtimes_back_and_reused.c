/* An fd closed with close(2) or dup2 instead of rip_close, and its number
 * reused by a new file: the runtime must take it for the new file it is
 * (blocking, not yet watched, maybe a socket where a pipe was), so a read
 * waits for the writer task instead of blocking the scheduler thread (a
 * hang on rip and ucontext before), and a write to a socket whose peer is
 * gone is EPIPE, not SIGPIPE. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "rip.h"

static int writer_fd;

static void late_writer(void *msg) {
    rip_sleep_ms(20);
    rip_write(writer_fd, msg, strlen(msg));
}

/* Read what a task writes to w later: the read must wait, not block. */
static void read_from_a_late_writer(int r, int w, const char *msg) {
    char buf[32];
    writer_fd = w;
    rip_spawn(late_writer, (void *)msg);
    ssize_t n = rip_read(r, buf, sizeof buf);
    printf("read %.*s\n", n < 0 ? 0 : (int)n, buf);
}

static void task(void *arg) {
    int p[2], q[2], s[2], d[2];
    (void)arg;
    if (pipe(p) == -1)
        return;
    read_from_a_late_writer(p[0], p[1], "first pipe");
    int old_read = p[0], old_write = p[1];
    close(p[0]);                    /* behind the runtime's back */
    close(p[1]);
    if (pipe(q) == -1)
        return;
    printf("numbers reused: %d\n", q[0] == old_read && q[1] == old_write);
    read_from_a_late_writer(q[0], q[1], "second pipe");
    close(q[0]);
    close(q[1]);
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, s) == -1)
        return;
    printf("a socket on the pipe's numbers: %d\n", s[0] == old_read && s[1] == old_write);
    read_from_a_late_writer(s[0], s[1], "socket");
    if (pipe(d) == -1)
        return;
    dup2(d[0], s[0]);               /* the watched socket replaced by a pipe */
    close(d[0]);
    read_from_a_late_writer(s[0], d[1], "dup2");
    close(s[0]);
    close(d[1]);
    /* The pipe's write end was written to; its number is now a socket
     * whose peer has gone. */
    int t[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, t) == -1)
        return;
    int peer = t[0] == old_write ? t[1] : t[0], mine = t[0] == old_write ? t[0] : t[1];
    close(peer);
    ssize_t n = rip_write(mine, "x", 1);
    printf("write to a socket whose peer is gone: %zd %s\n", n, n < 0 && errno == EPIPE ? "EPIPE" : "?");
    close(mine);
    /* A socket read short (so known to be empty) and closed behind the
     * runtime's back; a regular file takes its number.  epoll cannot watch
     * a regular file: the read must simply read it. */
    int u[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, u) == -1)
        return;
    read_from_a_late_writer(u[0], u[1], "before a file");
    int number = u[0];
    close(u[0]);
    char path[] = "/tmp/rip-reuse-XXXXXX";
    int f = mkstemp(path);
    if (f == -1)
        return;
    unlink(path);
    printf("a regular file on the socket's number: %d\n", f == number);
    if (write(f, "file", 4) != 4 || lseek(f, 0, SEEK_SET) != 0)
        return;
    char buf[8];
    n = rip_read(f, buf, sizeof buf);
    printf("read %.*s\n", n < 0 ? 0 : (int)n, buf);
    close(f);
    close(u[1]);
}

int main(void) {
    return rip_run(task, NULL);
}

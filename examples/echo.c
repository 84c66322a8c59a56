/* echo.c -- a TCP echo server in plain blocking style: a task per
 * connection reads and writes back until the client closes.
 *
 *   echo [--port P] [--addr A] [--workers N]
 *
 * Prints "listening on PORT".  With --workers N, N schedulers on N threads
 * accept on their own SO_REUSEPORT listeners. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "rip.h"

static struct sockaddr_in addr;     /* where to listen */
static int first_listener;          /* worker 0's */

static int listen_on(int reuseport) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (reuseport)
        setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
    if (bind(fd, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(fd, 1024) < 0) {
        perror("echo: listen");
        exit(1);
    }
    return fd;
}

static void echo(void *arg) {
    int fd = (int)(intptr_t)arg;
    char buf[4096];
    ssize_t n;
    while ((n = rip_read(fd, buf, sizeof buf)) > 0)
        if (rip_write(fd, buf, (size_t)n) < 0)
            break;
    rip_close(fd);
}

static void acceptor(void *arg) {
    int lfd = rip_worker_id() == 0 ? first_listener : listen_on(1);
    (void)arg;
    for (;;) {
        int fd = rip_accept(lfd, NULL, NULL);
        if (fd >= 0)
            rip_spawn(echo, (void *)(intptr_t)fd);
        else if (errno == EMFILE || errno == ENFILE)
            rip_sleep_ms(50);       /* out of fds: let some close */
    }
}

int main(int argc, char **argv) {
    int port = 7000, workers = 1, bad = argc % 2 == 0;
    const char *host = "0.0.0.0";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--port")) port = atoi(argv[i + 1]);
        else if (!strcmp(argv[i], "--addr")) host = argv[i + 1];
        else if (!strcmp(argv[i], "--workers")) workers = atoi(argv[i + 1]);
        else bad = 1;
    }
    if (bad || workers < 1 || port < 0 || port > 65535 ||
        inet_pton(AF_INET, host, &addr.sin_addr) != 1) {
        fputs("usage: echo [--port P] [--addr A] [--workers N]\n", stderr);
        return 2;
    }
    addr.sin_family = AF_INET;
    addr.sin_port = htons((uint16_t)port);
    first_listener = listen_on(workers > 1);
    socklen_t len = sizeof addr;    /* port 0: the other workers bind the one chosen */
    getsockname(first_listener, (struct sockaddr *)&addr, &len);
    printf("listening on %d\n", ntohs(addr.sin_port));
    fflush(stdout);
    return rip_run_workers(workers, acceptor, NULL) ? 1 : 0;
}

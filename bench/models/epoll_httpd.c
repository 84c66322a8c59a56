/* epoll_httpd.c -- the practical limit for httpd: a hand-written epoll
 * state machine in C, one thread, no allocation per request.  It serves one
 * file, read into memory at start, to every GET (keep-alive, pipelined
 * requests answered in order); anything else gets 400 and a close.  This is
 * what ripping is meant to produce from blocking code; bench/peers.py holds
 * httpd-rip against it.
 *
 *   epoll_httpd PORT FILE */
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#define IN_BYTES 8192               /* a request head must fit */

struct conn {                       /* indexed by fd: allocated once, at start */
    size_t in_len;                  /* bytes of unparsed request in `in` */
    size_t out_off;                 /* bytes of the current answers already sent */
    size_t answers;                 /* whole answers queued (pipelined requests) */
    int open;                       /* a connection lives on this fd */
    char in[IN_BYTES];              /* what the client sent, not yet answered */
};

static struct conn *conns;
static size_t max_fds;
static char *answer;                /* the response: head and the file */
static size_t answer_len;
static const char bad[] = "HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";

static void close_conn(int ep, int fd) {
    epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL);
    close(fd);
    conns[fd].open = 0;
}

/* Sends queued answers; 0 when all are out or the socket is full, -1 on error. */
static int flush(int fd, struct conn *c) {
    while (c->answers > 0) {
        ssize_t n = send(fd, answer + c->out_off, answer_len - c->out_off, MSG_NOSIGNAL);
        if (n < 0)
            return errno == EAGAIN ? 0 : -1;
        c->out_off += (size_t)n;
        if (c->out_off == answer_len) {
            c->out_off = 0;
            c->answers--;
        }
    }
    return 0;
}

/* Reads and parses what arrived; -1 to close. */
static int serve(int ep, int fd, struct conn *c) {
    for (;;) {
        ssize_t n = recv(fd, c->in + c->in_len, IN_BYTES - c->in_len, 0);
        if (n == 0)
            return -1;
        if (n < 0) {
            if (errno == EAGAIN)
                break;
            return -1;
        }
        c->in_len += (size_t)n;
        char *end;
        while ((end = memmem(c->in, c->in_len, "\r\n\r\n", 4)) != NULL) {
            if (c->in_len < 4 || memcmp(c->in, "GET ", 4) != 0) {
                send(fd, bad, sizeof bad - 1, MSG_NOSIGNAL);
                return -1;
            }
            size_t used = (size_t)(end + 4 - c->in);
            memmove(c->in, c->in + used, c->in_len - used);
            c->in_len -= used;
            c->answers++;
        }
        if (c->in_len == IN_BYTES) {
            send(fd, bad, sizeof bad - 1, MSG_NOSIGNAL);
            return -1;
        }
    }
    (void)ep;
    return flush(fd, c);
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: epoll_httpd PORT FILE\n");
        return 2;
    }
    FILE *f = fopen(argv[2], "rb");
    if (!f) {
        perror(argv[2]);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    answer = malloc((size_t)size + 256);
    answer_len = (size_t)sprintf(answer, "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                                         "Content-Length: %ld\r\n\r\n", size);
    if (fread(answer + answer_len, 1, (size_t)size, f) != (size_t)size) {
        perror("read");
        return 1;
    }
    answer_len += (size_t)size;
    fclose(f);

    struct rlimit rl;
    getrlimit(RLIMIT_NOFILE, &rl);
    max_fds = rl.rlim_cur;
    conns = calloc(max_fds, sizeof *conns);
    int one = 1, lfd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in addr = {.sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[1])),
                               .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (!conns || bind(lfd, (struct sockaddr *)&addr, sizeof addr) || listen(lfd, 4096)) {
        perror("listen");
        return 1;
    }
    int ep = epoll_create1(0);
    struct epoll_event ev = {.events = EPOLLIN, .data.fd = lfd}, events[256];
    epoll_ctl(ep, EPOLL_CTL_ADD, lfd, &ev);
    for (;;) {
        int n = epoll_wait(ep, events, 256, -1);
        for (int i = 0; i < n; i++) {
            int fd = events[i].data.fd;
            if (fd == lfd) {
                int cfd;
                while ((cfd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK)) >= 0) {
                    if ((size_t)cfd >= max_fds) {
                        close(cfd);
                        continue;
                    }
                    setsockopt(cfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    conns[cfd].in_len = conns[cfd].out_off = conns[cfd].answers = 0;
                    conns[cfd].open = 1;
                    struct epoll_event cev = {.events = EPOLLIN | EPOLLOUT | EPOLLET,
                                              .data.fd = cfd};
                    epoll_ctl(ep, EPOLL_CTL_ADD, cfd, &cev);
                }
                continue;
            }
            struct conn *c = &conns[fd];
            if (!c->open)
                continue;
            int status = 0;
            if (events[i].events & (EPOLLERR | EPOLLHUP))
                status = -1;
            if (status == 0 && (events[i].events & EPOLLIN))
                status = serve(ep, fd, c);
            if (status == 0 && (events[i].events & EPOLLOUT))
                status = flush(fd, c);
            if (status < 0)
                close_conn(ep, fd);
        }
    }
}

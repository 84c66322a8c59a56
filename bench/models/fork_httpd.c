/* fork_httpd.c -- the classic baseline: a process per connection, plain
 * blocking calls.  Serves one file for every GET, keep-alive, for the
 * benchmark suite's "models at scale" section.
 *
 *   fork_httpd PORT FILE        prints "listening on PORT" */
#define _GNU_SOURCE                 /* memmem */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static char response[1 << 16];      /* head and body, built once */
static size_t response_len;

static void serve(int fd) {
    char buf[8192];
    size_t have = 0;
    for (;;) {
        char *end;
        while (!(end = memmem(buf, have, "\r\n\r\n", 4))) {
            if (have == sizeof buf)
                return;
            ssize_t n = read(fd, buf + have, sizeof buf - have);
            if (n <= 0)
                return;
            have += (size_t)n;
        }
        size_t used = (size_t)(end - buf) + 4;
        if (write(fd, response, response_len) != (ssize_t)response_len)
            return;
        memmove(buf, buf + used, have - used);
        have -= used;
    }
}

int main(int argc, char **argv) {
    if (argc != 3) {
        fputs("usage: fork_httpd PORT FILE\n", stderr);
        return 2;
    }
    FILE *f = fopen(argv[2], "rb");
    if (!f) {
        perror(argv[2]);
        return 1;
    }
    char body[1 << 15];
    size_t blen = fread(body, 1, sizeof body, f);
    fclose(f);
    response_len = (size_t)snprintf(response, sizeof response,
                                    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                                    "Content-Length: %zu\r\n\r\n", blen);
    memcpy(response + response_len, body, blen);
    response_len += blen;

    signal(SIGCHLD, SIG_IGN);       /* no zombies */
    int lfd = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(argv[1])),
                                .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (bind(lfd, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(lfd, 4096) < 0) {
        perror("fork_httpd: listen");
        return 1;
    }
    socklen_t len = sizeof addr;
    getsockname(lfd, (struct sockaddr *)&addr, &len);
    printf("listening on %d\n", ntohs(addr.sin_port));
    fflush(stdout);
    for (;;) {
        int fd = accept(lfd, NULL, NULL);
        if (fd < 0)
            continue;
        if (fork() == 0) {
            close(lfd);
            serve(fd);
            _exit(0);
        }
        close(fd);
    }
}

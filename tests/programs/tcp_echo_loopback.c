/* checks: accept, connect, read and write on a loopback TCP socket; EOF after close */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include "rip.h"

static int listener;
static struct sockaddr_in addr;

static void echo_server(void *arg) {
    char buf[64];
    (void)arg;
    int conn = rip_accept(listener, NULL, NULL);
    for (;;) {
        ssize_t n = rip_read(conn, buf, sizeof buf);
        if (n <= 0)
            break;
        rip_write(conn, buf, (size_t)n);
    }
    printf("server: peer closed\n");
    rip_close(conn);
}

static void client(void *arg) {
    char reply[64];
    const char *lines[] = { "hello", "stack", "ripping" };
    (void)arg;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    int r = rip_connect(fd, (struct sockaddr *)&addr, sizeof addr);
    printf("client: connect %d\n", r);
    for (int i = 0; i < 3; i++) {
        rip_write(fd, lines[i], strlen(lines[i]));
        size_t got = 0;
        while (got < strlen(lines[i])) {
            ssize_t n = rip_read(fd, reply + got, sizeof reply - got);
            if (n <= 0)
                break;
            got += (size_t)n;
        }
        printf("client: echoed %.*s\n", (int)got, reply);
    }
    rip_close(fd);
}

static void start(void *arg) {
    rip_spawn(echo_server, arg);
    rip_spawn(client, arg);
}

int main(void) {
    socklen_t len = sizeof addr;
    listener = socket(AF_INET, SOCK_STREAM, 0);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(listener, (struct sockaddr *)&addr, sizeof addr) || listen(listener, 8) ||
        getsockname(listener, (struct sockaddr *)&addr, &len)) {
        perror("listen");
        return 1;
    }
    int r = rip_run(start, NULL);
    rip_close(listener);
    return r;
}

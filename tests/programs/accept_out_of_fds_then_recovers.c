/* checks: rip_accept with no fd left fails with EMFILE at once (no hang, the
 * connection stays in the backlog), and accepts it once an fd is free */
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>
#include "rip.h"

static void server(void *arg) {
    int lfd = *(int *)arg, spare[64], n = 0;
    struct rlimit lim;
    getrlimit(RLIMIT_NOFILE, &lim);
    lim.rlim_cur = 64;                      /* then fill every fd up to the limit */
    setrlimit(RLIMIT_NOFILE, &lim);
    while (n < 64 && (spare[n] = dup(lfd)) >= 0)
        n++;
    int fd = rip_accept(lfd, NULL, NULL);
    printf("full: accept %s\n", fd < 0 && errno == EMFILE ? "-1 EMFILE" : "did not fail");
    fd = rip_accept(lfd, NULL, NULL);
    printf("again: accept %s\n", fd < 0 && errno == EMFILE ? "-1 EMFILE" : "did not fail");
    close(spare[--n]);                      /* one fd free */
    fd = rip_accept(lfd, NULL, NULL);
    printf("one free: accept %s\n", fd >= 0 ? "ok" : strerror(errno));
    char buf[8] = "";
    ssize_t got = rip_read(fd, buf, sizeof buf - 1);
    printf("read %zd \"%s\"\n", got, got > 0 ? buf : "");
    rip_close(fd);
    while (n > 0)
        close(spare[--n]);
    rip_close(lfd);
}

int main(void) {
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof addr;
    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    if (lfd < 0 || bind(lfd, (struct sockaddr *)&addr, len) || listen(lfd, 8) ||
        getsockname(lfd, (struct sockaddr *)&addr, &len))
        return 1;
    int client = socket(AF_INET, SOCK_STREAM, 0);   /* waits in the backlog */
    if (client < 0 || connect(client, (struct sockaddr *)&addr, len) || write(client, "hello", 5) != 5)
        return 1;
    int status = rip_run(server, &lfd);
    close(client);
    return status;
}

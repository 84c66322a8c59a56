/* checks: 50 tasks waiting in rip_accept on one listener are all served by 50 connections: none is lost, none waits forever */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include "rip.h"

#define N 50

static int listener;
static struct sockaddr_in addr;
static rip_wg *wg;
static int accepted;                /* connections accepted and answered */
static int replies;                 /* answers the clients got */

static void acceptor(void *arg) {
    (void)arg;
    int fd = rip_accept(listener, NULL, NULL);
    if (fd >= 0) {
        if (rip_write(fd, "x", 1) == 1)
            __atomic_add_fetch(&accepted, 1, __ATOMIC_SEQ_CST);
        rip_close(fd);
    }
    rip_wg_done(wg);
}

static void client(void *arg) {
    char c;
    (void)arg;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (rip_connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0 && rip_read(fd, &c, 1) == 1)
        __atomic_add_fetch(&replies, 1, __ATOMIC_SEQ_CST);
    rip_close(fd);
    rip_wg_done(wg);
}

static void start(void *arg) {
    (void)arg;
    wg = rip_wg_new();
    rip_wg_add(wg, 2 * N);
    for (int i = 0; i < N; i++)
        rip_spawn(acceptor, NULL);
    rip_sleep_ms(10);               /* the acceptors are all waiting now */
    for (int i = 0; i < N; i++)
        rip_spawn(client, NULL);
    rip_wg_wait(wg);
    printf("accepted %d, clients answered %d\n", accepted, replies);
    rip_wg_free(wg);
}

int main(void) {
    socklen_t len = sizeof addr;
    listener = socket(AF_INET, SOCK_STREAM, 0);
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(listener, (struct sockaddr *)&addr, sizeof addr) || listen(listener, 2 * N) ||
        getsockname(listener, (struct sockaddr *)&addr, &len)) {
        perror("listen");
        return 1;
    }
    int r = rip_run(start, NULL);
    rip_close(listener);
    return r;
}

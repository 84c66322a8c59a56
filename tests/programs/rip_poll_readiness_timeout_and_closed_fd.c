/* checks: rip_poll has poll(2)'s meaning on every backend: 0 at once with timeout 0, 0 after its timeout (no sooner), the count and revents of the fds that became ready (others 0) while other tasks ran, POLLOUT at once on a writable socket, fds < 0 ignored; the task's deadline before poll's own timeout is -1 and ETIMEDOUT, after it 0; an fd rip_close'd while polled wakes the call with POLLNVAL */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>
#include "rip.h"

static int sv[2], pipefd[2];
static int ticks;

static void writer(void *arg) {
    (void)arg;
    rip_sleep_ms(20);
    rip_write(sv[1], "x", 1);
}

static void closer(void *arg) {
    (void)arg;
    rip_sleep_ms(20);
    rip_close(pipefd[0]);
}

static void ticker(void *arg) {
    (void)arg;
    for (int i = 0; i < 3; i++) {
        rip_sleep_ms(2);
        __atomic_add_fetch(&ticks, 1, __ATOMIC_SEQ_CST);
    }
}

static void task(void *arg) {
    (void)arg;
    struct pollfd p[2] = { { sv[0], POLLIN, 0 }, { pipefd[0], POLLIN, 0 } };
    printf("timeout 0: %d\n", rip_poll(p, 2, 0));

    int64_t start = rip_now_ms();
    int r = rip_poll(p, 2, 30);
    printf("timeout 30: %d, waited at least 30 ms: %s\n", r, rip_now_ms() - start >= 30 ? "yes" : "no");

    rip_spawn(writer, NULL);
    rip_spawn(ticker, NULL);
    r = rip_poll(p, 2, -1);
    printf("ready: %d, revents %s %s, others ran: %s\n", r, p[0].revents == POLLIN ? "POLLIN" : "other",
           p[1].revents == 0 ? "0" : "other", __atomic_load_n(&ticks, __ATOMIC_SEQ_CST) > 0 ? "yes" : "no");
    char c;
    rip_read(sv[0], &c, 1);

    struct pollfd out[2] = { { -1, POLLIN, 0 }, { sv[0], POLLOUT, 0 } };
    r = rip_poll(out, 2, -1);
    printf("writable: %d, revents %s %s\n", r, out[0].revents == 0 ? "0" : "other",
           out[1].revents == POLLOUT ? "POLLOUT" : "other");

    struct pollfd none = { -1, POLLIN, 0 };
    printf("only fd -1: %d\n", rip_poll(&none, 1, 10));

    rip_set_deadline(rip_now_ms() + 20);
    errno = 0;
    r = rip_poll(p, 2, 1000);
    printf("deadline first: %d %s\n", r, errno == ETIMEDOUT ? "ETIMEDOUT" : "other");
    rip_set_deadline(rip_now_ms() + 1000);
    r = rip_poll(p, 2, 20);
    printf("timeout first: %d\n", r);
    rip_set_deadline(-1);

    rip_spawn(closer, NULL);
    struct pollfd q = { pipefd[0], POLLIN, 0 };
    r = rip_poll(&q, 1, 2000);
    printf("closed while polled: %d, revents %s\n", r, q.revents == POLLNVAL ? "POLLNVAL" : "other");
}

int main(void) {
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) || pipe(pipefd))
        return 1;
    int r = rip_run(task, NULL);
    rip_close(sv[0]);
    rip_close(sv[1]);
    rip_close(pipefd[1]);
    return r;
}

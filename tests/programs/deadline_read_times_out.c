/* checks: a read that waits past its task's deadline fails with -1 and ETIMEDOUT no sooner than the deadline, while other tasks keep running */
#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>
#include "rip.h"

static int fds[2];
static int ticks;                   /* the ticker's sleeps so far */
static int reader_done;

static void reader(void *arg) {
    char c;
    (void)arg;
    int64_t start = rip_now_ms();
    rip_set_deadline(start + 50);
    ssize_t n = rip_read(fds[0], &c, 1);    /* nobody ever writes */
    int err = errno;
    int64_t waited = rip_now_ms() - start;
    int ticked = __atomic_load_n(&ticks, __ATOMIC_SEQ_CST);
    __atomic_store_n(&reader_done, 1, __ATOMIC_SEQ_CST);
    printf("read: %zd %s\n", n, err == ETIMEDOUT ? "ETIMEDOUT" : "other error");
    printf("waited at least 50 ms: %s\n", waited >= 50 ? "yes" : "no");
    printf("another task ran meanwhile: %s\n", ticked > 0 ? "yes" : "no");
}

static void ticker(void *arg) {
    (void)arg;
    while (!__atomic_load_n(&reader_done, __ATOMIC_SEQ_CST)) {
        rip_sleep_ms(5);
        __atomic_add_fetch(&ticks, 1, __ATOMIC_SEQ_CST);
    }
}

static void start(void *arg) {
    rip_spawn(reader, arg);
    rip_spawn(ticker, arg);
}

int main(void) {
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, fds))
        return 1;
    int r = rip_run(start, NULL);
    rip_close(fds[0]);
    rip_close(fds[1]);
    return r;
}

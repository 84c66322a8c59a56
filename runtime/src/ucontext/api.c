/* api.c -- the runtime's async functions on the ucontext backend: the
 * shared core decides; when it says wait, the task parks on its stack. */
#include <errno.h>
#include "core.h"
#include "uc.h"
#include "../shared/fatal.h"

/* Only a task can park: anywhere else there is no stack to come back to. */
#define IN_A_TASK(call) do { if (!rip__current()) rip__outside_task(call); } while (0)

void rip_yield(void) {
    IN_A_TASK(__func__);
    rip__ready(rip__current());
    rip__uc_park();
}

void rip_sleep_ms(int64_t ms) {
    IN_A_TASK(__func__);
    rip_timer timer;
    rip__sleep_begin(&timer, ms);
    rip__uc_park();
}

int rip_chan_send(rip_chan *c, const void *elem) {
    IN_A_TASK(__func__);
    rip_waiter w;
    int r = rip__chan_send(c, elem, &w);
    if (r != RIP_WAIT)
        return r;
    rip__uc_park();
    return rip__chan_sent(&w);
}

int rip_chan_recv(rip_chan *c, void *elem) {
    IN_A_TASK(__func__);
    rip_waiter w;
    int r = rip__chan_recv(c, elem, &w);
    if (r != RIP_WAIT)
        return r;
    rip__uc_park();
    return rip__chan_received(&w);
}

int rip_wg_wait(rip_wg *wg) {
    IN_A_TASK(__func__);
    rip_waiter w;
    int r = rip__wg_wait(wg, &w);
    if (r != RIP_WAIT)
        return r;
    rip__uc_park();
    return rip__wg_waited(&w);
}

int rip_mutex_lock(rip_mutex *m) {
    IN_A_TASK(__func__);
    rip_waiter w;
    int r = rip__mutex_lock(m, &w);
    if (r != RIP_WAIT)
        return r;
    rip__uc_park();
    return rip__mutex_locked(&w);
}

int rip_cond_wait(rip_cond *c, rip_mutex *m) {
    IN_A_TASK(__func__);
    rip_condop op = { .c = c, .m = m };
    while (!rip__cond_step(&op))
        rip__uc_park();
    if (op.result < 0)
        errno = op.err;
    return op.result;
}

static ssize_t io(rip_io *op, const char *call) {
    IN_A_TASK(call);
    rip_waiter w;
    while (!rip__io_step(op, &w))
        rip__uc_park();
    if (op->result < 0)
        errno = op->err;
    return op->result;
}

ssize_t rip_read(int fd, void *buf, size_t len) {
    return io(&(rip_io){ .kind = RIP_IO_READ, .fd = fd, .buf = buf, .len = len }, __func__);
}

ssize_t rip_write(int fd, const void *buf, size_t len) {
    return io(&(rip_io){ .kind = RIP_IO_WRITE, .fd = fd, .buf = (void *)buf, .len = len }, __func__);
}

int rip_accept(int fd, struct sockaddr *addr, socklen_t *len) {
    return (int)io(&(rip_io){ .kind = RIP_IO_ACCEPT, .fd = fd, .addr = addr, .addrlen = len }, __func__);
}

int rip_connect(int fd, const struct sockaddr *addr, socklen_t len) {
    return (int)io(&(rip_io){ .kind = RIP_IO_CONNECT, .fd = fd, .caddr = addr, .caddrlen = len }, __func__);
}

int rip_poll(struct pollfd *fds, nfds_t n, int timeout_ms) {
    IN_A_TASK(__func__);
    rip_pollop op = { .fds = fds, .n = n, .timeout_ms = timeout_ms };
    while (!rip__poll_step(&op))
        rip__uc_park();
    if (op.result < 0)
        errno = op.err;
    return op.result;
}

int rip_chan_select(rip_chan_case *cases, int n, int timeout_ms) {
    IN_A_TASK(__func__);
    rip_selectop op = { .cases = cases, .n = n, .timeout_ms = timeout_ms };
    while (!rip__select_step(&op))
        rip__uc_park();
    if (op.err)
        errno = op.err;
    return op.result;
}

void *rip_offload(void *(*fn)(void *), void *arg) {
    IN_A_TASK(__func__);
    if (rip__deadline_passed()) {
        errno = ETIMEDOUT;
        return NULL;
    }
    rip_job job = { .fn = fn, .arg = arg };
    if (rip__offload_begin(&job) == -1)
        return fn(arg);             /* no fd for the pool's wakeup: block this scheduler instead */
    rip__uc_park();
    rip__wait_ended(&job.wait);
    if (job.wait.status == ETIMEDOUT) {
        errno = ETIMEDOUT;          /* dropped before it started */
        return NULL;
    }
    return job.result;
}

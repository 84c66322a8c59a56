/* poll.c -- the event loop of the rip and ucontext backends: one epoll
 * instance per scheduler, each fd registered (edge-triggered, for reading
 * and writing) on its first wait and forgotten on rip_close.  The
 * scheduler polls when its run queue is empty, and now and then while it
 * is not.  Readiness is cached: an fd that said EAGAIN is not tried again
 * until an event says it changed (RIP_FD_RDEMPTY, RIP_FD_WRFULL).
 *
 * A number closed behind the runtime's back (close(2), dup2 over it, a
 * library) leaves the epoll set with its file, and may come back as a new
 * file: every wait adds the fd again (EEXIST: the same file), and a number
 * added before that the set takes again names a new file.  Its old
 * waiters can never be woken by an event: they fail with EBADF, as after
 * rip_close. */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>
#include "core.h"

typedef struct {
    rip_waitlist readers;           /* tasks waiting until fd is readable */
    rip_waitlist writers;           /* tasks waiting until fd is writable */
    unsigned flags;                 /* RIP_FD_* */
} fd_state;

static __thread struct {
    int open;                       /* epfd is valid */
    int epfd;                       /* the epoll instance, made when the scheduler starts */
    fd_state *fds;                  /* indexed by fd */
    int nfds;                       /* entries in fds */
    long waiting;                   /* waiters queued on all fds */
    int wakeup_fd;                  /* the offload eventfd in the set; -1 = none */
} P;

static fd_state *state(int fd) {
    rip_assert(fd >= 0);
    if (fd >= P.nfds) {
        int n = P.nfds ? P.nfds : 64;
        while (n <= fd)
            n *= 2;
        fd_state *grown = realloc(P.fds, (size_t)n * sizeof *grown);
        if (!grown)
            rip__fatal("out of memory for the fd table");
        memset(grown + P.nfds, 0, (size_t)(n - P.nfds) * sizeof *grown);
        P.fds = grown;
        P.nfds = n;
    }
    return &P.fds[fd];
}

unsigned rip__fd_flags(int fd) {
    return fd < P.nfds ? P.fds[fd].flags : 0;
}

void rip__fd_set_flags(int fd, unsigned flags) {
    state(fd)->flags |= flags;
}

static void wake_all(rip_waitlist *l, int status) {
    rip_waiter *w;
    while ((w = rip__wl_pop(l))) {
        P.waiting--;
        w->status = status;
        rip__ready(w->task);
    }
}

/* The file s described is gone: its waiters fail (never retried, the
 * number names another file now or soon), its flags are forgotten. */
static void drop(fd_state *s) {
    wake_all(&s->readers, EBADF);
    wake_all(&s->writers, EBADF);
    s->flags = 0;
}

void rip__fd_renew(int fd) {
    if (fd >= 0 && fd < P.nfds)
        drop(&P.fds[fd]);
}

int rip__poll_begin(void) {
    if (!P.open) {
        if ((P.epfd = epoll_create1(EPOLL_CLOEXEC)) == -1)
            return -1;
        P.open = 1;
        P.wakeup_fd = -1;
    }
    return 0;
}

/* 1 when fd was added, 0 when this file was in the set already, or -1
 * and errno (no fd left for the epoll set, no kernel memory for the
 * watch): the fd call that needed it fails, the scheduler goes on. */
static int add_to_set(int fd, uint32_t events) {
    if (rip__poll_begin() == -1)
        return -1;
    struct epoll_event ev = { .events = events, .data.fd = fd };
    if (epoll_ctl(P.epfd, EPOLL_CTL_ADD, fd, &ev) == 0)
        return 1;
    return errno == EEXIST ? 0 : -1;
}

int rip__fd_wait(int fd, int dir, rip_waiter *w) {
    fd_state *s = state(fd);
    int added = add_to_set(fd, EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET);
    if (added == -1)
        return -1;
    if (added && (s->flags & RIP_FD_REGISTERED))
        drop(s);                    /* closed behind our back and reused */
    s->flags |= RIP_FD_REGISTERED;
    w->task = rip__current();
    w->status = 0;
    rip__wl_push(dir == RIP_FD_READ ? &s->readers : &s->writers, w);
    P.waiting++;
    return 0;
}

int rip__fd_cancel(int fd, int dir, rip_waiter *w) {
    rip_waitlist *l = dir == RIP_FD_READ ? &state(fd)->readers : &state(fd)->writers;
    rip_waiter *prev = NULL;
    for (rip_waiter *x = l->head; x; prev = x, x = x->next) {
        if (x != w)
            continue;
        if (prev)
            prev->next = x->next;
        else
            l->head = x->next;
        if (l->tail == x)
            l->tail = prev;
        P.waiting--;
        return 1;
    }
    return 0;                       /* already woken */
}

void rip__fd_forget(int fd) {
    if (fd < 0 || fd >= P.nfds)
        return;
    fd_state *s = &P.fds[fd];
    if (s->flags & RIP_FD_REGISTERED)
        epoll_ctl(P.epfd, EPOLL_CTL_DEL, fd, NULL);
    drop(s);
}

long rip__fd_waiting(void) {
    return P.waiting;
}

int rip__poll_wakeup_fd(int fd) {
    if (add_to_set(fd, EPOLLIN | EPOLLET) == -1)
        return -1;
    P.wakeup_fd = fd;
    return 0;
}

void rip__poll(int timeout_ms) {
    struct epoll_event events[256];
    if (!P.open)
        return;
    int n = epoll_wait(P.epfd, events, 256, timeout_ms);
    if (n == -1 && errno != EINTR)
        rip__fatal("epoll_wait: %s", strerror(errno));
    for (int i = 0; i < n; i++) {
        int fd = events[i].data.fd;
        uint32_t ev = events[i].events;
        if (fd == P.wakeup_fd) {
            rip__offload_drain();
            continue;
        }
        fd_state *s = state(fd);
        if (ev & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) {
            s->flags &= ~RIP_FD_RDEMPTY;
            wake_all(&s->readers, 0);
        }
        if (ev & (EPOLLOUT | EPOLLHUP | EPOLLERR)) {
            s->flags &= ~RIP_FD_WRFULL;
            wake_all(&s->writers, 0);
        }
    }
}

void rip__poll_end(void) {
    rip_assert(P.waiting == 0);
    if (P.open)
        close(P.epfd);
    free(P.fds);
    P.open = 0;
    P.fds = NULL;
    P.nfds = 0;
}

/* inject.c -- an LD_PRELOAD shim that makes one call fail, for the tests
 * of what the runtime does when the system says no (tests/test_faults.py).
 *
 *   RIP_FAULT=CALL:N[:HOW]   the Nth call of CALL (counted from the start of
 *                            main) fails; HOW is an errno name (EMFILE...),
 *                            "short" (a read or write of half the bytes) or
 *                            "eintr"; the default is ENOMEM (EAGAIN for
 *                            pthread_create).
 *
 * CALL is one of malloc, calloc, realloc, mmap, epoll_create1, epoll_ctl,
 * eventfd, accept, accept4, pthread_create, read, write, recv, send.  When
 * the fault fires the shim writes "fault: CALL N" to stderr, so a test knows
 * the program reached it.  Only calls from the program's own threads after
 * main began count: the loader's and libc's start-up do not.
 *
 * At exit it writes "live: N", the blocks malloc, calloc and realloc gave
 * out and nobody freed: a faulted run that ends normally must leave no
 * more than a run without the fault. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

void *__libc_malloc(size_t);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);

static _Atomic long live;           /* blocks given out and not freed */

static struct {
    char call[32];                  /* the call to fail */
    long nth;                       /* which of its calls (1 = the first) */
    int err;                        /* errno it fails with, 0 for a short transfer */
    int eintr;                      /* fail with EINTR (err is EINTR too) */
    _Atomic long seen;              /* its calls so far */
    _Atomic int armed;              /* main has begun */
} F;

static const struct { const char *name; int value; } ERRNOS[] = {
    { "ENOMEM", ENOMEM }, { "EMFILE", EMFILE }, { "ENFILE", ENFILE }, { "EAGAIN", EAGAIN },
    { "ECONNABORTED", ECONNABORTED }, { "ENOBUFS", ENOBUFS }, { "EPERM", EPERM },
    { "ENOSPC", ENOSPC }, { "EINTR", EINTR }, { "EIO", EIO }, { "EPROTO", EPROTO },
};

__attribute__((constructor)) static void setup(void) {
    const char *spec = getenv("RIP_FAULT");
    char how[32] = "";
    if (!spec || sscanf(spec, "%31[^:]:%ld:%31s", F.call, &F.nth, how) < 2) {
        F.nth = 0;
        return;
    }
    F.err = strcmp(F.call, "pthread_create") ? ENOMEM : EAGAIN;
    if (!strcmp(how, "short"))
        F.err = 0;
    else if (!strcmp(how, "eintr"))
        F.err = EINTR, F.eintr = 1;
    else if (how[0]) {
        F.err = -1;
        for (size_t i = 0; i < sizeof ERRNOS / sizeof *ERRNOS; i++)
            if (!strcmp(how, ERRNOS[i].name))
                F.err = ERRNOS[i].value;
        if (F.err == -1) {
            fprintf(stderr, "inject: unknown fault %s\n", how);
            _exit(125);
        }
    }
}

/* main begins: from here calls count (a constructor of the program runs
 * after ours, before main; close enough, since the runtime allocates
 * nothing before main). */
int __libc_start_main(int (*main)(int, char **, char **), int argc, char **argv,
                      void (*init)(void), void (*fini)(void), void (*rtld_fini)(void),
                      void *stack_end) {
    int (*real)(int (*)(int, char **, char **), int, char **, void (*)(void),
                void (*)(void), void (*)(void), void *) = dlsym(RTLD_NEXT, "__libc_start_main");
    atomic_store(&F.armed, 1);
    return real(main, argc, argv, init, fini, rtld_fini, stack_end);
}

/* Does this call of `call` fail?  Writes the note once when it does. */
static int fails(const char *call) {
    if (!F.nth || !atomic_load(&F.armed) || strcmp(call, F.call))
        return 0;
    if (atomic_fetch_add(&F.seen, 1) + 1 != F.nth)
        return 0;
    char note[64];
    int n = snprintf(note, sizeof note, "fault: %s %ld\n", call, F.nth);
    if (syscall(SYS_write, 2, note, (size_t)n) < 0)
        return 1;                   /* the note is lost; the fault still fires */
    return 1;
}

#define REAL(name) static __typeof__(name) *real; \
    if (!real) real = (__typeof__(name) *)dlsym(RTLD_NEXT, #name)

void __libc_free(void *);

static void *counted(void *p) {
    if (p)
        atomic_fetch_add(&live, 1);
    return p;
}

void *malloc(size_t n) {
    if (fails("malloc")) { errno = ENOMEM; return NULL; }
    return counted(__libc_malloc(n));
}

void *calloc(size_t k, size_t n) {
    if (fails("calloc")) { errno = ENOMEM; return NULL; }
    return counted(__libc_calloc(k, n));
}

void *realloc(void *p, size_t n) {
    if (fails("realloc")) { errno = ENOMEM; return NULL; }
    void *q = __libc_realloc(p, n);
    if (!p)
        counted(q);
    else if (!q && n == 0)
        atomic_fetch_sub(&live, 1);
    return q;
}

void free(void *p) {
    if (p)
        atomic_fetch_sub(&live, 1);
    __libc_free(p);
}

__attribute__((destructor)) static void report_live(void) {
    char note[64];
    int n = snprintf(note, sizeof note, "live: %ld\n", atomic_load(&live));
    if (syscall(SYS_write, 2, note, (size_t)n) < 0)
        return;
}

void *mmap(void *addr, size_t len, int prot, int flags, int fd, off_t off) {
    REAL(mmap);
    if (fails("mmap")) { errno = F.err; return MAP_FAILED; }
    return real(addr, len, prot, flags, fd, off);
}

int epoll_create1(int flags) {
    REAL(epoll_create1);
    if (fails("epoll_create1")) { errno = F.err; return -1; }
    return real(flags);
}

int epoll_ctl(int ep, int op, int fd, struct epoll_event *ev) {
    REAL(epoll_ctl);
    if (fails("epoll_ctl")) { errno = F.err; return -1; }
    return real(ep, op, fd, ev);
}

int eventfd(unsigned int v, int flags) {
    REAL(eventfd);
    if (fails("eventfd")) { errno = F.err; return -1; }
    return real(v, flags);
}

int accept(int fd, struct sockaddr *a, socklen_t *l) {
    REAL(accept);
    if (fails("accept")) { errno = F.err; return -1; }
    return real(fd, a, l);
}

int accept4(int fd, struct sockaddr *a, socklen_t *l, int flags) {
    REAL(accept4);
    if (fails("accept4")) { errno = F.err; return -1; }
    return real(fd, a, l, flags);
}

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg) {
    REAL(pthread_create);
    if (fails("pthread_create"))
        return F.err;
    return real(t, attr, fn, arg);
}

/* An eventfd moves 8 bytes or none: it has no short transfer. */
static int is_eventfd(int fd) {
    char path[64], target[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(path, target, sizeof target - 1);
    return n > 0 && (target[n] = 0, strstr(target, "eventfd") != NULL);
}

/* A transfer fails with errno, or moves half the bytes ("short"). */
#define TRANSFER(name, call, fd, len) \
    if (fails(name)) { \
        if (F.err) { errno = F.err; return -1; } \
        if (len > 1 && !is_eventfd(fd)) len /= 2; \
    } \
    return call

ssize_t read(int fd, void *buf, size_t len) {
    REAL(read);
    TRANSFER("read", real(fd, buf, len), fd, len);
}

ssize_t write(int fd, const void *buf, size_t len) {
    REAL(write);
    TRANSFER("write", real(fd, buf, len), fd, len);
}

ssize_t recv(int fd, void *buf, size_t len, int flags) {
    REAL(recv);
    TRANSFER("recv", real(fd, buf, len, flags), fd, len);
}

ssize_t send(int fd, const void *buf, size_t len, int flags) {
    REAL(send);
    TRANSFER("send", real(fd, buf, len, flags), fd, len);
}

/* inject.c -- an LD_PRELOAD shim that makes one call fail, for the tests
 * of what the runtime does when the system says no (tests/test_faults.py).
 *
 *   RIP_FAULT=CALL:N[:HOW]   the Nth call of CALL (counted from the start of
 *                            main) fails; HOW is an errno name (EMFILE...),
 *                            "short" (a read or write of half the bytes) or
 *                            "eintr"; the default is ENOMEM (EAGAIN for
 *                            pthread_create).  N may be "N+": the Nth call
 *                            and every one after it fail.
 *   RIP_FAULT=A,B...         several faults at once (up to MAX_FAULTS):
 *                            madvise:1+:EINVAL,mprotect:3 is a kernel
 *                            without guard regions that runs out of maps.
 *
 * CALL is one of malloc, calloc, realloc, mmap, mprotect, madvise,
 * epoll_create1, epoll_ctl, eventfd, accept, accept4, pthread_create,
 * read, write, recv, send.  When
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

#define MAX_FAULTS 4

struct fault {
    char call[32];                  /* the call to fail */
    long nth;                       /* which of its calls (1 = the first) */
    int onward;                     /* every call from the nth on fails ("N+") */
    int err;                        /* errno it fails with, 0 for a short transfer */
    int eintr;                      /* fail with EINTR (err is EINTR too) */
    _Atomic long seen;              /* its calls so far */
};
static struct fault FAULTS[MAX_FAULTS]; /* the faults asked for; nth 0 ends the list */
static _Atomic int armed;           /* main has begun */

static const struct { const char *name; int value; } ERRNOS[] = {
    { "ENOMEM", ENOMEM }, { "EMFILE", EMFILE }, { "ENFILE", ENFILE }, { "EAGAIN", EAGAIN },
    { "ECONNABORTED", ECONNABORTED }, { "ENOBUFS", ENOBUFS }, { "EPERM", EPERM },
    { "ENOSPC", ENOSPC }, { "EINTR", EINTR }, { "EIO", EIO }, { "EPROTO", EPROTO },
    { "EINVAL", EINVAL },
};

/* Parse one CALL:N[:HOW] into f: 0, or -1 when it is no fault. */
static int parse(const char *spec, struct fault *f) {
    char how[32] = "", plus[2] = "";
    int got = sscanf(spec, "%31[^:]:%ld%1[+]:%31s", f->call, &f->nth, plus, how);
    if (got < 3 && sscanf(spec, "%31[^:]:%ld:%31s", f->call, &f->nth, how) < 2)
        return -1;
    f->onward = plus[0] == '+';
    f->err = strcmp(f->call, "pthread_create") ? ENOMEM : EAGAIN;
    if (!strcmp(how, "short"))
        f->err = 0;
    else if (!strcmp(how, "eintr"))
        f->err = EINTR, f->eintr = 1;
    else if (how[0]) {
        f->err = -1;
        for (size_t i = 0; i < sizeof ERRNOS / sizeof *ERRNOS; i++)
            if (!strcmp(how, ERRNOS[i].name))
                f->err = ERRNOS[i].value;
        if (f->err == -1) {
            fprintf(stderr, "inject: unknown fault %s\n", how);
            _exit(125);
        }
    }
    return 0;
}

__attribute__((constructor)) static void setup(void) {
    const char *spec = getenv("RIP_FAULT");
    char one[128];
    for (int n = 0; spec && *spec && n < MAX_FAULTS; ) {
        size_t len = strcspn(spec, ",");
        snprintf(one, sizeof one, "%.*s", (int)(len < sizeof one ? len : sizeof one - 1), spec);
        if (parse(one, &FAULTS[n]) == 0)
            n++;
        else
            FAULTS[n].nth = 0;
        spec += len + (spec[len] == ',');
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
    atomic_store(&armed, 1);
    return real(main, argc, argv, init, fini, rtld_fini, stack_end);
}

/* The fault that makes this call of `call` fail, or NULL.  Writes the
 * note when one does (once, or on each call for "N+"). */
static const struct fault *fails(const char *call) {
    if (!atomic_load(&armed))
        return NULL;
    for (struct fault *f = FAULTS; f < FAULTS + MAX_FAULTS && f->nth; f++) {
        if (strcmp(call, f->call))
            continue;
        long seen = atomic_fetch_add(&f->seen, 1) + 1;
        if (seen != f->nth && !(f->onward && seen > f->nth))
            continue;
        char note[64];
        int n = snprintf(note, sizeof note, "fault: %s %ld\n", call, seen);
        if (syscall(SYS_write, 2, note, (size_t)n) < 0)
            return f;               /* the note is lost; the fault still fires */
        return f;
    }
    return NULL;
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
    const struct fault *f = fails("mmap");
    if (f) { errno = f->err; return MAP_FAILED; }
    return real(addr, len, prot, flags, fd, off);
}

int mprotect(void *addr, size_t len, int prot) {
    REAL(mprotect);
    const struct fault *f = fails("mprotect");
    if (f) { errno = f->err; return -1; }
    return real(addr, len, prot);
}

int madvise(void *addr, size_t len, int advice) {
    REAL(madvise);
    const struct fault *f = fails("madvise");
    if (f) { errno = f->err; return -1; }
    return real(addr, len, advice);
}

int epoll_create1(int flags) {
    REAL(epoll_create1);
    const struct fault *f = fails("epoll_create1");
    if (f) { errno = f->err; return -1; }
    return real(flags);
}

int epoll_ctl(int ep, int op, int fd, struct epoll_event *ev) {
    REAL(epoll_ctl);
    const struct fault *f = fails("epoll_ctl");
    if (f) { errno = f->err; return -1; }
    return real(ep, op, fd, ev);
}

int eventfd(unsigned int v, int flags) {
    REAL(eventfd);
    const struct fault *f = fails("eventfd");
    if (f) { errno = f->err; return -1; }
    return real(v, flags);
}

int accept(int fd, struct sockaddr *a, socklen_t *l) {
    REAL(accept);
    const struct fault *f = fails("accept");
    if (f) { errno = f->err; return -1; }
    return real(fd, a, l);
}

int accept4(int fd, struct sockaddr *a, socklen_t *l, int flags) {
    REAL(accept4);
    const struct fault *f = fails("accept4");
    if (f) { errno = f->err; return -1; }
    return real(fd, a, l, flags);
}

int pthread_create(pthread_t *t, const pthread_attr_t *attr, void *(*fn)(void *), void *arg) {
    REAL(pthread_create);
    const struct fault *f = fails("pthread_create");
    if (f)
        return f->err;
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
    const struct fault *f = fails(name); \
    if (f) { \
        if (f->err) { errno = f->err; return -1; } \
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

/* pthread_kill.c -- a thread-directed signal, as plain POSIX: sig 0 tells
 * a live thread; an ignored signal does nothing; a handler with
 * SA_RESTART lets the target's read go on; one without ends it with
 * EINTR (and only its read: the other thread's goes on); a bad number is
 * EINVAL; a default-terminate signal kills the process.  The output must
 * be the same built plainly and ripped (tests/test_posix.py).  A plain
 * thread may not be in read yet when it is killed, so the kill is sent
 * until its read ends (ripped, the first ends it). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t handled_usr1, handled_usr2;
static int ready[2];                /* a reader writes a byte here before each read */
static int a_done;                  /* A's second read returned (atomic) */

static void on_usr1(int sig) {
    (void)sig;
    handled_usr1 = 1;
}

static void on_usr2(int sig) {
    (void)sig;
    handled_usr2 = 1;
}

/* A: a read the SA_RESTART signal lets go on, then one SIGUSR1 ends. */
static void *reader_a(void *arg) {
    int fd = *(int *)arg;
    char c[16];
    write(ready[1], "a", 1);
    ssize_t n = read(fd, c, sizeof c);
    printf("A: first read %zd, SIGUSR2's handler ran: %d\n", n, (int)handled_usr2);
    fflush(stdout);
    write(ready[1], "a", 1);
    n = read(fd, c, sizeof c);
    int err = errno;
    __atomic_store_n(&a_done, 1, __ATOMIC_SEQ_CST);
    printf("A: second read %zd, %s\n", n, n < 0 ? strerror(err) : "data");
    fflush(stdout);
    return NULL;
}

/* B: a read no signal is sent to. */
static void *reader_b(void *arg) {
    int fd = *(int *)arg;
    char c[16];
    write(ready[1], "b", 1);
    ssize_t n = read(fd, c, sizeof c);
    printf("B: read %zd\n", n);
    fflush(stdout);
    return NULL;
}

static void wait_ready(void) {
    char c;
    read(ready[0], &c, 1);
    usleep(50000);                  /* plain: let it enter read */
}

int main(void) {
    int a[2], b[2];
    pthread_t ta, tb;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sigemptyset(&sa.sa_mask);
    sa.sa_handler = on_usr1;        /* no SA_RESTART */
    sigaction(SIGUSR1, &sa, NULL);
    sa.sa_handler = on_usr2;
    sa.sa_flags = SA_RESTART;
    sigaction(SIGUSR2, &sa, NULL);
    signal(SIGHUP, SIG_IGN);
    pipe(ready);
    pipe(a);
    pipe(b);
    pthread_create(&tb, NULL, reader_b, &b[0]);
    wait_ready();
    pthread_create(&ta, NULL, reader_a, &a[0]);
    wait_ready();
    printf("kill 0, live: %d\n", pthread_kill(ta, 0));
    printf("kill SIGHUP (ignored): %d\n", pthread_kill(ta, SIGHUP));
    printf("kill 65: %s\n", pthread_kill(ta, 65) == EINVAL ? "EINVAL" : "?");
    printf("kill SIGUSR2 (SA_RESTART): %d\n", pthread_kill(ta, SIGUSR2));
    fflush(stdout);
    usleep(50000);
    write(a[1], "x", 1);            /* A's first read returns it */
    wait_ready();
    while (!__atomic_load_n(&a_done, __ATOMIC_SEQ_CST)) {
        pthread_kill(ta, SIGUSR1);
        usleep(20000);
    }
    pthread_join(ta, NULL);
    printf("SIGUSR1's handler ran: %d\n", (int)handled_usr1);
    fflush(stdout);
    write(b[1], "yz", 2);           /* B still waits */
    pthread_join(tb, NULL);
    if (fork() == 0) {              /* SIGTERM's default: the process dies of it */
        pthread_t t;
        pthread_create(&t, NULL, reader_b, &b[0]);
        wait_ready();
        pthread_kill(t, SIGTERM);
        pthread_join(t, NULL);
        _exit(0);
    }
    int status;
    wait(&status);
    printf("killed by SIGTERM: %d\n", WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM);
    return 0;
}

/* pthread_errno.c -- errno is each thread's own: a thread that saw
 * EAGAIN still sees it after a sleep during which another thread's calls
 * failed with EBADF, and main's is its own too.  The output must be the
 * same built plainly and ripped (tests/test_posix.py). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static int p[2];

static void *again(void *arg) {
    char c;
    (void)arg;
    int fresh = errno == 0;
    ssize_t n = read(p[0], &c, 1);  /* O_NONBLOCK and empty: EAGAIN */
    usleep(20000);                  /* the other thread fails meanwhile */
    return (void *)(long)(fresh && n == -1 && errno == EAGAIN);
}

static void *badf(void *arg) {
    (void)arg;
    usleep(5000);
    int r = close(-1);              /* EBADF */
    usleep(30000);
    return (void *)(long)(r == -1 && errno == EBADF);
}

int main(void) {
    pthread_t a, b;
    void *ra, *rb;
    pipe(p);
    fcntl(p[0], F_SETFL, O_NONBLOCK);
    errno = ERANGE;
    pthread_create(&a, NULL, again, NULL);
    pthread_create(&b, NULL, badf, NULL);
    usleep(10000);
    int main_kept = errno == ERANGE;
    pthread_join(a, &ra);
    pthread_join(b, &rb);
    printf("EAGAIN kept: %ld, EBADF kept: %ld, main's kept: %d\n", (long)ra, (long)rb, main_kept);
    return 0;
}

/* pthread_cond.c -- condition variables, as plain pthreads: a producer
 * and a consumer over a queue (wait, signal), broadcast waking every
 * waiter, timedwait's timeout with the mutex held again after, on
 * CLOCK_REALTIME and, set by a condattr, CLOCK_MONOTONIC.  The output
 * must be the same built plainly and ripped (tests/test_posix.py). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t nonempty = PTHREAD_COND_INITIALIZER, nonfull = PTHREAD_COND_INITIALIZER;
static int queue[4], head, count;

static void *producer(void *arg) {
    (void)arg;
    for (int i = 1; i <= 20; i++) {
        pthread_mutex_lock(&mu);
        while (count == 4)
            pthread_cond_wait(&nonfull, &mu);
        queue[(head + count++) % 4] = i * i;
        pthread_cond_signal(&nonempty);
        pthread_mutex_unlock(&mu);
        if (i % 7 == 0)
            usleep(1000);
    }
    return NULL;
}

static pthread_cond_t go = PTHREAD_COND_INITIALIZER;
static int started, released, woken;

static void *waiter(void *arg) {
    (void)arg;
    pthread_mutex_lock(&mu);
    started++;
    while (!released)
        pthread_cond_wait(&go, &mu);
    woken++;
    pthread_mutex_unlock(&mu);
    return NULL;
}

static long ms_since(const struct timespec *t0) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static void timed(pthread_cond_t *c, clockid_t clock, const char *name) {
    pthread_mutex_t m;
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&m, &a);
    struct timespec t0, at;
    clock_gettime(clock, &at);
    at.tv_nsec += 60 * 1000000;
    if (at.tv_nsec >= 1000000000) {
        at.tv_sec++;
        at.tv_nsec -= 1000000000;
    }
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_mutex_lock(&m);
    int r = pthread_cond_timedwait(c, &m, &at);
    long waited = ms_since(&t0);
    printf("%s timedwait: %s, waited at least 55 ms: %d, less than 1 s: %d, mutex held: %d\n",
           name, r == ETIMEDOUT ? "ETIMEDOUT" : "?", waited >= 55, waited < 1000,
           pthread_mutex_unlock(&m) == 0);
    pthread_mutex_destroy(&m);
}

int main(void) {
    pthread_t p;
    pthread_create(&p, NULL, producer, NULL);
    long sum = 0;
    for (int i = 0; i < 20; i++) {
        pthread_mutex_lock(&mu);
        while (count == 0)
            pthread_cond_wait(&nonempty, &mu);
        int v = queue[head];
        head = (head + 1) % 4;
        count--;
        pthread_cond_signal(&nonfull);
        pthread_mutex_unlock(&mu);
        printf("%d ", v);
        sum += v;
    }
    printf("\nsum %ld\n", sum);
    pthread_join(p, NULL);

    pthread_t w[5];
    for (int i = 0; i < 5; i++)
        pthread_create(&w[i], NULL, waiter, NULL);
    for (;;) {
        pthread_mutex_lock(&mu);
        int all = started == 5;
        pthread_mutex_unlock(&mu);
        if (all)
            break;
        usleep(1000);
    }
    pthread_mutex_lock(&mu);
    released = 1;
    pthread_cond_broadcast(&go);
    pthread_mutex_unlock(&mu);
    for (int i = 0; i < 5; i++)
        pthread_join(w[i], NULL);
    printf("broadcast woke %d\n", woken);

    pthread_cond_t c;
    pthread_cond_init(&c, NULL);
    timed(&c, CLOCK_REALTIME, "realtime");
    pthread_cond_destroy(&c);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&c, &ca);
    pthread_condattr_destroy(&ca);
    timed(&c, CLOCK_MONOTONIC, "monotonic");
    printf("destroy: %d\n", pthread_cond_destroy(&c));
    return 0;
}

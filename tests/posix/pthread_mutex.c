/* pthread_mutex.c -- mutexes, as plain pthreads: a mutex held across a
 * sleep still excludes the other threads; static initializers (normal,
 * recursive); recursive and errorcheck types and their errors; trylock;
 * timedlock's absolute CLOCK_REALTIME timeout; destroy of a held mutex.
 * The output must be the same built plainly and ripped
 * (tests/test_posix.py). */
#define _GNU_SOURCE                 /* PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t counter_mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_mutex_t rec_mu = PTHREAD_RECURSIVE_MUTEX_INITIALIZER_NP;
static long counter;
static int inside, overlaps;

static void *add(void *arg) {
    (void)arg;
    for (int i = 0; i < 25; i++) {
        pthread_mutex_lock(&counter_mu);
        overlaps += inside;
        inside = 1;
        long seen = counter;
        usleep(200);                /* a suspension with the mutex held */
        counter = seen + 1;
        inside = 0;
        pthread_mutex_unlock(&counter_mu);
    }
    return NULL;
}

static const char *err(int e) {
    return e == 0 ? "0" : e == EBUSY ? "EBUSY" : e == EPERM ? "EPERM" : e == EDEADLK ? "EDEADLK" :
           e == ETIMEDOUT ? "ETIMEDOUT" : e == EINVAL ? "EINVAL" : strerror(e);
}

static pthread_mutex_t held;
static pthread_mutex_t errchk;

static void *holder(void *arg) {
    pthread_mutex_lock(&held);
    usleep((useconds_t)(long)arg);
    pthread_mutex_unlock(&held);
    return NULL;
}

static void *other_unlocks(void *arg) {
    (void)arg;
    printf("errorcheck unlock by another thread: %s\n", err(pthread_mutex_unlock(&errchk)));
    printf("recursive unlock by another thread: %s\n", err(pthread_mutex_unlock(&rec_mu)));
    return NULL;
}

static struct timespec in_ms(long ms) {
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += ms / 1000;
    t.tv_nsec += (ms % 1000) * 1000000;
    if (t.tv_nsec >= 1000000000) {
        t.tv_sec++;
        t.tv_nsec -= 1000000000;
    }
    return t;
}

static long ms_since(const struct timespec *t0) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

int main(void) {
    pthread_t t[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, add, NULL);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    printf("counter %ld, overlaps %d\n", counter, overlaps);

    printf("recursive lock: %s", err(pthread_mutex_lock(&rec_mu)));
    printf(" %s", err(pthread_mutex_lock(&rec_mu)));
    printf(" trylock %s\n", err(pthread_mutex_trylock(&rec_mu)));
    pthread_t o;
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ERRORCHECK);
    pthread_mutex_init(&errchk, &a);
    pthread_mutexattr_destroy(&a);
    printf("errorcheck lock: %s\n", err(pthread_mutex_lock(&errchk)));
    printf("errorcheck relock: %s\n", err(pthread_mutex_lock(&errchk)));
    pthread_create(&o, NULL, other_unlocks, NULL);
    pthread_join(o, NULL);
    printf("errorcheck unlock: %s", err(pthread_mutex_unlock(&errchk)));
    printf(", again: %s\n", err(pthread_mutex_unlock(&errchk)));
    for (int i = 0; i < 3; i++)
        printf("recursive unlock: %s\n", err(pthread_mutex_unlock(&rec_mu)));
    printf("recursive unlock, not held: %s\n", err(pthread_mutex_unlock(&rec_mu)));
    printf("errorcheck destroy: %s\n", err(pthread_mutex_destroy(&errchk)));

    pthread_mutex_init(&held, NULL);
    pthread_create(&o, NULL, holder, (void *)300000L);
    usleep(50000);                  /* the holder has it */
    printf("trylock held: %s\n", err(pthread_mutex_trylock(&held)));
    printf("destroy held: %s\n", err(pthread_mutex_destroy(&held)));
    struct timespec t0, soon = in_ms(50), late = in_ms(10000), bad = soon;
    bad.tv_nsec = 1000000000;
    printf("timedlock bad abstime: %s\n", err(pthread_mutex_timedlock(&held, &bad)));
    clock_gettime(CLOCK_MONOTONIC, &t0);
    printf("timedlock 50 ms: %s", err(pthread_mutex_timedlock(&held, &soon)));
    long waited = ms_since(&t0);
    printf(", waited at least 45 ms: %d, less than 250: %d\n", waited >= 45, waited < 250);
    printf("timedlock 10 s: %s", err(pthread_mutex_timedlock(&held, &late)));
    printf(", before it: %d\n", ms_since(&t0) < 5000);
    pthread_join(o, NULL);
    printf("trylock held by self: %s\n", err(pthread_mutex_trylock(&held)));
    pthread_mutex_unlock(&held);
    printf("destroy: %s\n", err(pthread_mutex_destroy(&held)));
    return 0;
}

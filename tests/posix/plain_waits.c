/* Functions called through plain pointers (a handler table, a qsort
 * comparator) that wait on other threads: a condition variable another
 * thread signals, a timed wait that times out (CLOCK_REALTIME and a
 * CLOCK_MONOTONIC condattr), a join, a timed lock of a held mutex, the
 * read and write locks of a held rwlock.  On rip such a function cannot
 * suspend: the other tasks run from inside it until its wait ends; the
 * plain build's thread simply blocks.  Both print the same.  The threads
 * print nothing: every line comes from main or a function it calls. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int ready;                   /* set by signaller, under mu */
static int holding;                 /* set by the holders once they hold, under mu */
static int release;                 /* main's word to the holders, under mu */

static pthread_mutex_t held = PTHREAD_MUTEX_INITIALIZER;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;

static const char *name(int err) {
    return err == 0 ? "0" : err == ETIMEDOUT ? "ETIMEDOUT" : err == EINVAL ? "EINVAL"
         : err == EBUSY ? "EBUSY" : err == EDEADLK ? "EDEADLK" : "another error";
}

/* ms milliseconds from now on clock. */
static struct timespec in_ms(clockid_t clock, long ms) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    ts.tv_sec += ms / 1000;
    ts.tv_nsec += (ms % 1000) * 1000000;
    if (ts.tv_nsec >= 1000000000) {
        ts.tv_sec++;
        ts.tv_nsec -= 1000000000;
    }
    return ts;
}

static long ms_since(const struct timespec *t0) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (t.tv_sec - t0->tv_sec) * 1000 + (t.tv_nsec - t0->tv_nsec) / 1000000;
}

/* Sets ready and signals: holding mu, or (arg not NULL) after unlocking
 * it, when the waiter takes the free mutex at once. */
static void *signaller(void *arg) {
    usleep(20000);
    pthread_mutex_lock(&mu);
    ready = 1;
    if (!arg)
        pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    if (arg)
        pthread_cond_broadcast(&cv);
    return arg;
}

/* Tell main we hold, then hold until main says release. */
static void hold_until_released(void) {
    pthread_mutex_lock(&mu);
    holding = 1;
    pthread_cond_broadcast(&cv);
    while (!release)
        pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
    usleep(10000);                  /* main's waiter waits a little more */
}

static void *mutex_holder(void *arg) {
    pthread_mutex_lock(&held);
    hold_until_released();
    pthread_mutex_unlock(&held);
    return arg;
}

static void *rw_holder(void *arg) {
    if (arg)
        pthread_rwlock_wrlock(&rw);
    else
        pthread_rwlock_rdlock(&rw);
    hold_until_released();
    pthread_rwlock_unlock(&rw);
    return arg;
}

static void *worker(void *arg) {
    usleep(20000);
    return (char *)arg + 1;
}

/* -- the handlers, called through the table -- */

static int wait_for_ready(void) {
    int r = 0, waits = 0;
    pthread_mutex_lock(&mu);
    while (!ready && r == 0) {
        r = pthread_cond_wait(&cv, &mu);
        waits++;
    }
    int relocked = pthread_mutex_trylock(&mu);  /* we hold it again: EBUSY */
    pthread_mutex_unlock(&mu);
    printf("cond_wait: %s, ready %d, waited %s, relocked %s\n", name(r), ready,
           waits > 0 ? "yes" : "no", name(relocked));
    return 0;
}

static pthread_t joinee;

static int join_worker(void) {
    void *value = NULL;
    int r = pthread_join(joinee, &value);
    printf("join: %s, value %s\n", name(r), (char *)value);
    return 0;
}

static int timedwait_times_out(void) {
    static pthread_cond_t never = PTHREAD_COND_INITIALIZER;
    struct timespec t0, at = in_ms(CLOCK_REALTIME, 30);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_mutex_lock(&mu);
    int r = pthread_cond_timedwait(&never, &mu, &at);
    int relocked = pthread_mutex_trylock(&mu);
    pthread_mutex_unlock(&mu);
    printf("cond_timedwait (realtime): %s after >= 25 ms: %s, relocked %s\n", name(r),
           ms_since(&t0) >= 25 ? "yes" : "no", name(relocked));
    struct timespec bad = { 0, -1 };
    pthread_mutex_lock(&mu);
    r = pthread_cond_timedwait(&never, &mu, &bad);
    pthread_mutex_unlock(&mu);
    printf("cond_timedwait (tv_nsec -1): %s\n", name(r));
    return 0;
}

static int monotonic_timedwait(void) {
    pthread_condattr_t attr;
    pthread_cond_t mono;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_init(&mono, &attr);
    struct timespec t0, at = in_ms(CLOCK_MONOTONIC, 30);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    pthread_mutex_lock(&mu);
    int r = pthread_cond_timedwait(&mono, &mu, &at);
    pthread_mutex_unlock(&mu);
    printf("cond_timedwait (monotonic attr): %s after >= 25 ms: %s\n", name(r),
           ms_since(&t0) >= 25 ? "yes" : "no");
    pthread_cond_destroy(&mono);
    pthread_condattr_destroy(&attr);
    return 0;
}

static int timedlock_held(void) {
    struct timespec t0, at = in_ms(CLOCK_REALTIME, 30);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int r = pthread_mutex_timedlock(&held, &at);
    printf("timedlock (held): %s after >= 25 ms: %s\n", name(r),
           ms_since(&t0) >= 25 ? "yes" : "no");
    return 0;
}

static int timedlock_released(void) {
    struct timespec at = in_ms(CLOCK_REALTIME, 10000);
    pthread_mutex_lock(&mu);
    release = 1;                    /* the holder unlocks 10 ms after */
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    int r = pthread_mutex_timedlock(&held, &at);
    printf("timedlock (released): %s\n", name(r));
    if (r == 0)
        pthread_mutex_unlock(&held);
    return 0;
}

static int rwlock_waits(void) {
    struct timespec at = in_ms(CLOCK_REALTIME, 30);
    int r = pthread_rwlock_timedrdlock(&rw, &at);   /* a writer holds it */
    printf("timedrdlock (writer holds): %s\n", name(r));
    pthread_mutex_lock(&mu);
    release = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    r = pthread_rwlock_rdlock(&rw);
    printf("rdlock (writer releases): %s\n", name(r));
    if (r == 0)
        pthread_rwlock_unlock(&rw);
    return 0;
}

static int rwlock_write_waits(void) {
    struct timespec at = in_ms(CLOCK_REALTIME, 30);
    int r = pthread_rwlock_timedwrlock(&rw, &at);   /* a reader holds it */
    printf("timedwrlock (reader holds): %s\n", name(r));
    pthread_mutex_lock(&mu);
    release = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&mu);
    r = pthread_rwlock_wrlock(&rw);
    printf("wrlock (reader releases): %s\n", name(r));
    if (r == 0)
        pthread_rwlock_unlock(&rw);
    return 0;
}

static int (*const handlers[])(void) = {
    wait_for_ready, join_worker, timedwait_times_out, monotonic_timedwait,
    timedlock_held, timedlock_released, rwlock_waits, rwlock_write_waits,
};

/* A comparator that, the first time, waits for the signaller. */
static int compared;
static int by_value(const void *a, const void *b) {
    if (!compared++) {
        pthread_mutex_lock(&mu);
        while (!ready)
            pthread_cond_wait(&cv, &mu);
        pthread_mutex_unlock(&mu);
    }
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* A thread whose hook (called through a pointer) waits on a condition
 * variable while main, in its own handler, joins it: on rip main's wait
 * begins first (h has not run yet) and h's runs inside it, the later one
 * ending first, as they must. */
static int wait_in_thread(void) {
    pthread_mutex_lock(&mu);
    while (!ready)
        pthread_cond_wait(&cv, &mu);
    pthread_mutex_unlock(&mu);
    return 7;
}

static int (*const thread_hook)(void) = wait_in_thread;

static void *hooked(void *arg) {
    (void)arg;
    return thread_hook() == 7 ? "seven" : "not seven";
}

/* Wait, in main's own code, until the holder holds. */
static void until_holding(void) {
    pthread_mutex_lock(&mu);
    while (!holding)
        pthread_cond_wait(&cv, &mu);
    holding = 0;
    pthread_mutex_unlock(&mu);
}

int main(void) {
    pthread_t t;
    pthread_create(&t, NULL, signaller, NULL);
    handlers[0]();
    pthread_join(t, NULL);

    joinee = 0;
    pthread_create(&joinee, NULL, worker, "x41");
    handlers[1]();

    handlers[2]();
    handlers[3]();

    pthread_create(&t, NULL, mutex_holder, NULL);
    until_holding();
    handlers[4]();
    handlers[5]();
    pthread_join(t, NULL);

    release = 0;
    pthread_create(&t, NULL, rw_holder, "writer");
    until_holding();
    handlers[6]();
    pthread_join(t, NULL);

    release = 0;
    pthread_create(&t, NULL, rw_holder, NULL);
    until_holding();
    handlers[7]();
    pthread_join(t, NULL);

    ready = 0;
    compared = 0;
    int values[] = { 3, 1, 2 };
    pthread_create(&t, NULL, signaller, "after unlocking");
    qsort(values, 3, sizeof values[0], by_value);
    pthread_join(t, NULL);
    printf("sorted %d %d %d after the comparator waited\n", values[0], values[1], values[2]);

    ready = 0;
    pthread_t h;
    pthread_create(&h, NULL, hooked, NULL);
    pthread_create(&t, NULL, signaller, NULL);
    joinee = h;
    handlers[1]();                  /* main waits for h, which waits for the signaller */
    pthread_join(t, NULL);
    return 0;
}

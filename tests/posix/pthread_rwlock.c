/* pthread_rwlock.c -- readers-writer locks, as plain pthreads: readers
 * hold the lock together across a sleep, a writer alone; tryrdlock and
 * trywrlock; EDEADLK for the writer's relock; timedwrlock's absolute
 * CLOCK_REALTIME timeout.  The output must be the same built plainly and
 * ripped (tests/test_posix.py). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int reading, most_reading, writing, overlaps;

static void *reader(void *arg) {
    (void)arg;
    pthread_rwlock_rdlock(&lock);
    pthread_mutex_lock(&mu);
    overlaps += writing;
    if (++reading > most_reading)
        most_reading = reading;
    pthread_mutex_unlock(&mu);
    usleep(50000);
    pthread_mutex_lock(&mu);
    reading--;
    pthread_mutex_unlock(&mu);
    pthread_rwlock_unlock(&lock);
    return NULL;
}

static void *writer(void *arg) {
    (void)arg;
    for (int i = 0; i < 3; i++) {
        pthread_rwlock_wrlock(&lock);
        pthread_mutex_lock(&mu);
        overlaps += reading + writing;
        writing = 1;
        pthread_mutex_unlock(&mu);
        usleep(5000);
        writing = 0;
        pthread_rwlock_unlock(&lock);
        usleep(1000);
    }
    return NULL;
}

static const char *err(int e) {
    return e == 0 ? "0" : e == EBUSY ? "EBUSY" : e == EDEADLK ? "EDEADLK" :
           e == ETIMEDOUT ? "ETIMEDOUT" : "?";
}

static void *try_both(void *arg) {
    (void)arg;
    int r = pthread_rwlock_tryrdlock(&lock);
    printf("tryrdlock: %s\n", err(r));
    if (r == 0)
        pthread_rwlock_unlock(&lock);
    r = pthread_rwlock_trywrlock(&lock);
    printf("trywrlock: %s\n", err(r));
    if (r == 0)
        pthread_rwlock_unlock(&lock);
    return NULL;
}

static void *timed_write(void *arg) {
    struct timespec at;
    (void)arg;
    clock_gettime(CLOCK_REALTIME, &at);
    at.tv_nsec += 50000000;
    if (at.tv_nsec >= 1000000000) {
        at.tv_sec++;
        at.tv_nsec -= 1000000000;
    }
    printf("timedwrlock, read-locked: %s\n", err(pthread_rwlock_timedwrlock(&lock, &at)));
    return NULL;
}

int main(void) {
    pthread_t r[3], w;
    for (int i = 0; i < 3; i++)
        pthread_create(&r[i], NULL, reader, NULL);
    usleep(10000);
    pthread_create(&w, NULL, writer, NULL);
    for (int i = 0; i < 3; i++)
        pthread_join(r[i], NULL);
    pthread_join(w, NULL);
    printf("readers together: %d, overlaps with a writer: %d\n", most_reading > 1, overlaps);

    pthread_t t;
    pthread_rwlock_rdlock(&lock);
    pthread_create(&t, NULL, try_both, NULL);      /* a reader holds it */
    pthread_join(t, NULL);
    pthread_create(&t, NULL, timed_write, NULL);
    pthread_join(t, NULL);
    struct timespec at;
    clock_gettime(CLOCK_REALTIME, &at);
    at.tv_nsec += 50000000;
    if (at.tv_nsec >= 1000000000) {
        at.tv_sec++;
        at.tv_nsec -= 1000000000;
    }
    printf("timedrdlock, read-locked: %s\n", err(pthread_rwlock_timedrdlock(&lock, &at)));
    pthread_rwlock_unlock(&lock);
    pthread_rwlock_unlock(&lock);

    pthread_rwlock_wrlock(&lock);
    pthread_create(&t, NULL, try_both, NULL);      /* the writer holds it */
    pthread_join(t, NULL);
    printf("rdlock by the writer: %s\n", err(pthread_rwlock_rdlock(&lock)));
    printf("wrlock by the writer: %s\n", err(pthread_rwlock_wrlock(&lock)));
    pthread_rwlock_unlock(&lock);
    printf("trywrlock, free: %s\n", err(pthread_rwlock_trywrlock(&lock)));
    pthread_rwlock_unlock(&lock);
    printf("destroy: %d\n", pthread_rwlock_destroy(&lock));
    return 0;
}

/* pthread's waits taken as function pointers (a lock table, a portable
 * wrapper layer) and called through them: a lock of a mutex the worker
 * holds, a condition wait until the worker signals, a join of the worker
 * that has not ended.  Under --posix on rip each pointer is the runtime's
 * plain form, which runs the other tasks until the wait ends. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static pthread_rwlock_t rw = PTHREAD_RWLOCK_INITIALIZER;
static int ready;

static const struct {
    int (*lock)(pthread_mutex_t *);
    int (*wait)(pthread_cond_t *, pthread_mutex_t *);
    int (*join)(pthread_t, void **);
    int (*write_lock)(pthread_rwlock_t *);
} threads_api = { pthread_mutex_lock, pthread_cond_wait, pthread_join, pthread_rwlock_wrlock };

static void *worker(void *arg) {
    (void)arg;
    pthread_rwlock_rdlock(&rw);
    pthread_mutex_lock(&m);
    usleep(20000);                  /* main's lock waits for this */
    pthread_mutex_unlock(&m);
    usleep(20000);                  /* main's condition wait waits for this */
    pthread_mutex_lock(&m);
    ready = 1;
    pthread_cond_signal(&c);
    pthread_mutex_unlock(&m);
    usleep(20000);                  /* main's write lock waits for this */
    pthread_rwlock_unlock(&rw);
    return (void *)7;
}

int main(void) {
    pthread_t t;
    void *value;
    pthread_create(&t, NULL, worker, NULL);
    usleep(5000);                   /* the worker holds m and a read lock */
    threads_api.lock(&m);
    printf("locked, ready %d\n", ready);
    while (!ready)
        threads_api.wait(&c, &m);
    pthread_mutex_unlock(&m);
    printf("signalled, ready %d\n", ready);
    threads_api.write_lock(&rw);
    printf("write lock taken\n");
    pthread_rwlock_unlock(&rw);
    printf("join %d\n", threads_api.join(t, &value));
    printf("joined %ld\n", (long)value);
    return 0;
}

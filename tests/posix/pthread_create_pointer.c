/* pthread_create and pthread_mutex_unlock taken as function pointers: a
 * call through them is still a thread (a task, whose start routine runs
 * plain: it is passed as a plain pointer) and an unlock of the runtime's
 * mutex, as the call by name would be. */
#include <pthread.h>
#include <stdio.h>

typedef int create_fn(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int count;

static void *bump(void *arg) {
    pthread_mutex_lock(&lock);
    count += (int)(long)arg;
    pthread_mutex_unlock(&lock);
    return arg;
}

int main(void) {
    create_fn *create = pthread_create;
    int (*unlock)(pthread_mutex_t *) = pthread_mutex_unlock;
    pthread_t t[3];
    void *got;
    for (long i = 0; i < 3; i++)
        if (create(&t[i], NULL, bump, (void *)(i + 1)) != 0)
            return 1;
    for (int i = 0; i < 3; i++) {
        pthread_join(t[i], &got);
        printf("thread %d returned %ld\n", i, (long)got);
    }
    pthread_mutex_lock(&lock);
    count *= 10;
    unlock(&lock);
    pthread_mutex_lock(&lock);      /* free again: the unlock through the pointer was real */
    printf("count %d\n", count);
    unlock(&lock);
    return 0;
}

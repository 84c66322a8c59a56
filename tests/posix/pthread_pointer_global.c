/* pthread_create and pthread_mutex_unlock kept in file-scope pointers:
 * calls through them start a thread the program can join and unlock the
 * program's mutex, as calls by name do. */
#include <pthread.h>
#include <stdio.h>

static int (*create)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *) =
    pthread_create;
static int (*unlock)(pthread_mutex_t *) = pthread_mutex_unlock;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int count;

static void *bump(void *arg) {
    pthread_mutex_lock(&lock);
    count += (int)(long)arg;
    unlock(&lock);
    return arg;
}

int main(void) {
    pthread_t t[2];
    void *got;
    for (long i = 0; i < 2; i++)
        if (create(&t[i], NULL, bump, (void *)(i + 1)) != 0)
            return 1;
    for (int i = 0; i < 2; i++) {
        int r = pthread_join(t[i], &got);
        printf("join %d: %d, returned %ld\n", i, r, (long)got);
    }
    pthread_mutex_lock(&lock);
    printf("count %d\n", count);
    unlock(&lock);
    printf("trylock after unlock: %d\n", pthread_mutex_trylock(&lock));
    return 0;
}

/* pthread_once_key.c -- pthread_once and thread-specific data, as plain
 * pthreads: the init routine runs once whoever calls; each thread sees
 * its own value of a key; destructors run when a thread returns or calls
 * pthread_exit, once per non-NULL value, with the value already NULL;
 * key_delete.  The output must be the same built plainly and ripped
 * (tests/test_posix.py). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_key_t key;
static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static int inits, destroyed, sum, saw_null;

static void gone(void *v) {
    pthread_mutex_lock(&mu);
    destroyed++;
    sum += *(int *)v;
    saw_null += pthread_getspecific(key) == NULL;
    pthread_mutex_unlock(&mu);
    free(v);
}

static void init(void) {
    inits++;
    pthread_key_create(&key, gone);
}

static void *worker(void *arg) {
    int id = (int)(long)arg;
    pthread_once(&once, init);
    int fresh = pthread_getspecific(key) == NULL;
    int *mine = malloc(sizeof *mine);
    *mine = id;
    pthread_setspecific(key, mine);
    usleep(1000 * (5 - id));        /* the others set theirs meanwhile */
    int own = pthread_getspecific(key) == mine;
    if (id == 4)
        pthread_setspecific(key, NULL);     /* no value: no destructor call */
    if (id == 3)
        pthread_exit((void *)(long)(fresh && own));
    if (id == 4)
        free(mine);
    return (void *)(long)(fresh && own);
}

int main(void) {
    pthread_t t[5];
    for (long i = 0; i < 5; i++)
        pthread_create(&t[i], NULL, worker, (void *)(i + 1));
    for (int i = 0; i < 5; i++) {
        void *ok;
        pthread_join(t[i], &ok);
        printf("thread %d: fresh and own value: %ld\n", i + 1, (long)ok);
    }
    printf("inits %d, destructors %d, sum of their values %d, value NULL in them %d\n",
           inits, destroyed, sum, saw_null);
    printf("main's value: %p\n", pthread_getspecific(key));
    printf("key_delete: %d\n", pthread_key_delete(key));
    pthread_key_t k2;
    printf("key_create: %d", pthread_key_create(&k2, NULL));
    printf(", setspecific: %d\n", pthread_setspecific(k2, &k2));
    printf("own: %d\n", pthread_getspecific(k2) == &k2);
    return 0;
}

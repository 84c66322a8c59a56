/* pthread_create taken as a pointer inside a function that is async (it
 * locks a mutex) and also called through a function pointer, so its plain form
 * stays beside the ripped one: both forms must start a thread (a task
 * running the start routine plain) that the caller then joins. */
#include <pthread.h>
#include <stdio.h>

typedef int create_fn(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);

static pthread_t worker;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int started;

static void *report(void *arg) {
    printf("worker %d\n", *(int *)arg);
    return arg;
}

static void start_worker(void) {
    create_fn *create = pthread_create;
    pthread_mutex_lock(&lock);      /* async: a ripped form and a plain one */
    started++;
    pthread_mutex_unlock(&lock);
    if (create(&worker, NULL, report, &started) != 0)
        printf("create failed\n");
}

static void (*hook)(void) = start_worker;  /* calls the plain form */

int main(void) {
    void *got;
    start_worker();
    printf("joined %d\n", pthread_join(worker, &got) == 0 && got == &started);
    hook();
    printf("joined %d\n", pthread_join(worker, &got) == 0 && got == &started);
    return 0;
}

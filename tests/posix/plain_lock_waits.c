/* A function called through a plain pointer locks a mutex that a thread
 * holds while it waits in read(): on rip the plain function cannot
 * suspend, so the other tasks run from inside it (the writer wakes the
 * reader, which unlocks) until the mutex is handed over; the plain
 * build's thread simply blocks.  Both print the same. */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static int fds[2];
static int counter;

static void *holder(void *arg) {
    char c;
    (void)arg;
    pthread_mutex_lock(&lock);
    if (read(fds[0], &c, 1) != 1)   /* waits, holding the lock */
        return NULL;
    counter += 10;
    printf("holder got %c, counter %d\n", c, counter);
    fflush(stdout);
    pthread_mutex_unlock(&lock);
    return NULL;
}

static void *writer(void *arg) {
    (void)arg;
    usleep(20000);
    if (write(fds[1], "x", 1) != 1)
        return NULL;
    return NULL;
}

static int bump(int by) {
    pthread_mutex_lock(&lock);      /* the holder has it until the byte comes */
    counter += by;
    int now = counter;
    pthread_mutex_unlock(&lock);
    return now;
}

static int (*hook)(int) = bump;     /* bump stays plain: a plain pointer calls it */

int main(void) {
    pthread_t h, w;
    if (pipe(fds) != 0 || pthread_create(&h, NULL, holder, NULL) != 0)
        return 1;
    usleep(5000);                   /* the holder takes the lock first */
    if (pthread_create(&w, NULL, writer, NULL) != 0)
        return 1;
    printf("bumped to %d\n", hook(1));
    pthread_join(h, NULL);
    pthread_join(w, NULL);
    printf("counter %d\n", counter);
    return 0;
}

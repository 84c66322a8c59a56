/* pthread_exit_main.c -- pthread_exit in main: main's thread ends, the
 * others run on, and the program ends with status 0 when the last one
 * does.  The output must be the same built plainly and ripped
 * (tests/test_posix.py). */
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static pthread_t main_thread;

static void *late(void *arg) {
    usleep(20000);
    void *v;
    int r = pthread_join(main_thread, &v);
    printf("join main: %d %ld\n", r, (long)v);
    printf("last thread %ld ends\n", (long)arg);
    fflush(stdout);
    return NULL;
}

int main(void) {
    pthread_t t;
    main_thread = pthread_self();
    pthread_create(&t, NULL, late, (void *)1);
    printf("main exits\n");
    fflush(stdout);
    pthread_exit((void *)5);
}

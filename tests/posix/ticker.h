/* ticker.h -- a thread that counts every 10 ms, to show that another
 * thread runs while the main one waits (popen.c, offload_later.c):
 *
 *     pthread_create(&t, NULL, ticker, NULL);
 *     int before = now();  ...wait...  printf("%d\n", now() - before >= 5);
 *     stop = 1;
 *     pthread_join(t, NULL);
 *
 * A header, not a program: tests/test_posix.py runs only the .c files here. */
#include <unistd.h>

static volatile int stop;           /* main says the ticker may end */
static volatile int ticks;          /* the ticker's count, every 10 ms */

static void *ticker(void *arg) {
    (void)arg;
    while (!stop) {
        usleep(10000);
        __atomic_add_fetch(&ticks, 1, __ATOMIC_RELAXED);
    }
    return NULL;
}

/* The ticker's count so far. */
static int now(void) {
    return __atomic_load_n(&ticks, __ATOMIC_RELAXED);
}

/* A variadic logging helper, as servers write one: va_start, a lock (a
 * resume point under --posix, as is the vfprintf), then vsnprintf and
 * vfprintf of the same arguments after it.  Threads log into their own
 * lines; main prints them in order, so the output is the plain build's. */
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static char lines[4][3][96];

static int note(int who, int i, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&lock);      /* others hold it: this waits */
    usleep(500);
    int n = vsnprintf(lines[who][i], sizeof lines[who][i], fmt, ap);
    pthread_mutex_unlock(&lock);
    va_end(ap);
    return n;
}

static int say(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    usleep(100);
    int n = vfprintf(stdout, fmt, ap);
    va_end(ap);
    return n;
}

static void *worker(void *arg) {
    long who = (long)arg;
    for (int i = 0; i < 3; i++)
        note((int)who, i, "worker %ld line %d: %s %.2f %c %lld", who, i, "text",
             1.25 * i, 'a' + i, (long long)who << 33);
    return arg;
}

int main(void) {
    pthread_t t[4];
    for (long i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, worker, (void *)i);
    for (int i = 0; i < 4; i++)
        pthread_join(t[i], NULL);
    for (int w = 0; w < 4; w++)
        for (int i = 0; i < 3; i++)
            say("%s (%zu)\n", lines[w][i], strlen(lines[w][i]));
    return say("%s\n", "done") != 5;
}

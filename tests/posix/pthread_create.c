/* pthread_create.c -- threads, as plain pthreads: create and join (the
 * start routine's value, pthread_exit's from deep in its calls), a start
 * routine that calls nothing that blocks, pthread_self and pthread_equal
 * (a pthread_t stored, compared, printed as an integer), detached threads
 * (attr and pthread_detach) and the errors of join and detach; a return
 * from main ends the program though a thread still waits.  Only
 * what pthreads guarantee is printed: the output must be the same built
 * plainly and ripped (tests/test_posix.py). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static void *square(void *arg) {    /* calls nothing that blocks */
    long n = (long)arg;
    return (void *)(n * n);
}

static void *whoami(void *arg) {
    (void)arg;
    usleep(1000);
    return (void *)pthread_self();
}

static void deep_exit(long v, int depth) {
    if (depth < 0)
        return;
    if (depth == 0) {
        usleep(1000);
        pthread_exit((void *)v);
    }
    deep_exit(v, depth - 1);
    printf("not reached\n");
}

static void *exiter(void *arg) {
    deep_exit((long)arg, 5);
    return NULL;
}

static void *quick_exit_(void *arg) {
    pthread_exit(arg);              /* at once, before any suspension */
}

static int done;
static int never[2];                /* a pipe nobody writes to */

static void *blocked(void *arg) {
    char c;
    (void)arg;
    return (void *)read(never[0], &c, 1);   /* until the program ends */
}

static void *sleeper(void *arg) {
    usleep(2000);
    done++;
    return arg;
}

int main(void) {
    pthread_t t[5];
    for (long i = 0; i < 5; i++)
        if (pthread_create(&t[i], NULL, square, (void *)i) != 0)
            return 1;
    for (int i = 0; i < 5; i++) {
        void *v;
        int r = pthread_join(t[i], &v);
        printf("join %d: %d %ld\n", i, r, (long)v);
    }

    pthread_t ids[4];
    unsigned long printed[4];
    for (int i = 0; i < 4; i++) {
        pthread_create(&ids[i], NULL, whoami, NULL);
        printed[i] = (unsigned long)ids[i];
    }
    int distinct = 1;
    for (int i = 0; i < 4; i++) {
        void *self;
        pthread_join(ids[i], &self);
        printf("thread %d: self equals its pthread_t %d, printed as %d\n", i,
               pthread_equal((pthread_t)self, ids[i]) != 0, (unsigned long)self == printed[i]);
        for (int j = 0; j < i; j++)
            distinct &= !pthread_equal(ids[i], ids[j]);
        distinct &= !pthread_equal(ids[i], pthread_self());
    }
    printf("distinct: %d\n", distinct);

    pthread_t e;
    void *v;
    pthread_create(&e, NULL, exiter, (void *)42);
    int r = pthread_join(e, &v);
    printf("pthread_exit from depth: %d %ld\n", r, (long)v);
    pthread_create(&e, NULL, quick_exit_, (void *)7);
    r = pthread_join(e, &v);
    printf("pthread_exit at once: %d %ld\n", r, (long)v);
    printf("join self: %s\n", pthread_join(pthread_self(), NULL) == EDEADLK ? "EDEADLK" : "?");
    printf("equal self: %d\n", pthread_equal(pthread_self(), pthread_self()) != 0);

    pthread_t d;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 1 << 20);
    printf("create detached: %d\n", pthread_create(&d, &attr, sleeper, NULL));
    pthread_attr_destroy(&attr);
    printf("join detached: %s\n", pthread_join(d, NULL) == EINVAL ? "EINVAL" : "?");
    pthread_t s;
    pthread_create(&s, NULL, sleeper, (void *)7);
    printf("detach: %d\n", pthread_detach(s));
    printf("detach again: %s\n", pthread_detach(s) == EINVAL ? "EINVAL" : "?");
    while (done < 2)
        usleep(1000);
    printf("detached threads ran: %d\n", done);
    pipe(never);
    pthread_create(&d, NULL, blocked, NULL);
    pthread_detach(d);
    usleep(1000);
    printf("return from main with a thread blocked\n");
    return 3;                       /* ends the program, that thread too */
}

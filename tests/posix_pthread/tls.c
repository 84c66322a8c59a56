/* pthread_tls.c -- __thread and _Thread_local variables, as plain
 * pthreads: each thread has its own copy, starting from the initializer,
 * kept across its sleeps while the other threads change theirs; its
 * address differs from thread to thread; arrays and structs too.  The
 * output must be the same built plainly and with ripcc --posix on every
 * backend (tests/test_posix_pthread.py). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static __thread int counter = 100;
_Thread_local char name[16] = "unnamed";
static __thread struct { long a, b; } pair = { 1, 2 };
static __thread int *where;

static void count(int n) {
    for (int i = 0; i < n; i++) {
        counter++;
        usleep(500);                /* the others run and count meanwhile */
    }
}

static int fresh_of[5], own_of[5];

static void *worker(void *arg) {
    long id = (long)arg;
    int fresh = counter == 100 && strcmp(name, "unnamed") == 0 && pair.a == 1 && pair.b == 2;
    snprintf(name, sizeof name, "worker %ld", id);
    pair.a = id;
    where = &counter;
    count((int)id * 3);
    int own = counter == 100 + (int)id * 3 && pair.a == id && pair.b == 2 && where == &counter;
    fresh_of[id] = fresh;
    own_of[id] = own && strncmp(name, "worker ", 7) == 0 && name[7] == '0' + id;
    return (void *)&counter;
}

int main(void) {
    pthread_t t[4];
    void *addr[4];
    counter = 7;
    strcpy(name, "main");
    for (long i = 0; i < 4; i++)
        pthread_create(&t[i], NULL, worker, (void *)(i + 1));
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], &addr[i]);
        printf("worker %d: fresh %d, own %d\n", i + 1, fresh_of[i + 1], own_of[i + 1]);
    }
    int distinct = addr[0] != addr[1] && addr[1] != addr[2] && addr[0] != &counter;
    printf("main: %s %d, addresses distinct %d\n", name, counter, distinct);
    return 0;
}

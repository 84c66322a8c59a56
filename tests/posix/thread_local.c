/* thread_local.c -- file-scope __thread and _Thread_local variables (an
 * initialized int, an array, a struct, one declared extern first, as a
 * header would): each thread has its own copy from the initializer, its
 * address passed to a function, changed across sleeps and reads while the
 * others change theirs; main's copy stays untouched.  What each thread
 * saw is printed by main after the joins, so the output is the same
 * built plainly and with ripcc --posix on every backend. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* as a header would declare it */
extern _Thread_local long total;

static __thread int hits = 10;
_Thread_local char label[12] = "fresh";
static __thread struct { int id; long sum; } state = { -1, 0 };
_Thread_local long total = 1000;

#define WORKERS 4

static int pipes[WORKERS][2];
static char seen[WORKERS][96];

static void bump(int *counter, long *sum, int by) {
    *counter += by;                 /* through the address: still the thread's copy */
    *sum += by;
}

static void *worker(void *arg) {
    int id = (int)(long)arg;
    int start = hits;
    char first[12];
    strcpy(first, label);
    snprintf(label, sizeof label, "w%d", id);
    state.id = id;
    for (int i = 0; i < 3; i++) {
        bump(&hits, &state.sum, id + 1);
        usleep(300 * (WORKERS - id));   /* the others run and change theirs */
        char c;
        if (read(pipes[id][0], &c, 1) == 1)
            total += c - '0';
    }
    snprintf(seen[id], sizeof seen[id], "%s: start %d first %s hits %d sum %ld id %d total %ld",
             label, start, first, hits, state.sum, state.id, total);
    return NULL;
}

int main(void) {
    pthread_t t[WORKERS];
    for (int i = 0; i < WORKERS; i++) {
        if (pipe(pipes[i]) != 0)
            return 1;
        pthread_create(&t[i], NULL, worker, (void *)(long)i);
    }
    for (int round = 0; round < 3; round++)
        for (int i = 0; i < WORKERS; i++) {
            char c = (char)('1' + i);
            if (write(pipes[i][1], &c, 1) != 1)
                return 1;
            usleep(200);
        }
    for (int i = 0; i < WORKERS; i++) {
        pthread_join(t[i], NULL);
        puts(seen[i]);
    }
    printf("main: hits %d label %s id %d sum %ld total %ld\n",
           hits, label, state.id, state.sum, total);
    return 0;
}

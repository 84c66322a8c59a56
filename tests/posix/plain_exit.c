/* pthread_exit in functions called through plain pointers (a handler
 * table's, a qsort comparator): the thread ends there, its value goes to
 * its joiner, its key's destructor runs, nothing after the call runs, and
 * the other threads go on (one waits in its own plain code meanwhile).
 * On rip such a function cannot suspend, and the thread's frames below it
 * on the C stack end with it.  The threads print nothing: every line
 * comes from main. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_key_t key;
static int destructed, after_exit, sorted_fully;

static void destructor(void *value) {
    destructed += *(int *)value;
}

static int quit_with(int code) {
    static const char *names[] = { "zero", "one", "two" };
    pthread_exit((void *)names[code]);
    after_exit = 1;                 /* never runs */
    return code;
}

static int (*const handlers[])(int) = { quit_with };

static int pause_then(int n) {
    usleep(1000);
    return n;
}

static int depth(int n) {           /* ripped frames between the thread and the handler */
    if (n == 0)
        return handlers[0](pause_then(2));  /* on rip: called as pause_then's frame returns */
    usleep(1000);
    return depth(n - 1) + 1;
}

static void *by_handler(void *arg) {
    static int one = 1;
    pthread_setspecific(key, &one);
    depth(*(int *)arg);
    after_exit = 1;
    return "returned";
}

static int by_value(const void *a, const void *b) {
    static int ten = 10;
    pthread_setspecific(key, &ten);
    pthread_exit("from the comparator");
    return *(const int *)a - *(const int *)b;
}

static void *sorter(void *arg) {
    int v[] = { 3, 2, 1 };
    (void)arg;
    qsort(v, 3, sizeof v[0], by_value);
    sorted_fully = 1;
    return "sorted";
}

static void *outlives_main(void *arg) {
    usleep(20000);
    printf("a thread outlived main's pthread_exit in a handler\n");
    return arg;
}

static pthread_t exiter;

/* main's own wait in plain code for a thread that exits in plain code */
static int join_exiter(void) {
    void *value = NULL;
    int r = pthread_join(exiter, &value);
    printf("joined in a handler: %d, %s\n", r, (char *)value);
    return r;
}

static int (*const join_hook)(void) = join_exiter;

int main(void) {
    void *value;
    int levels[] = { 0, 3 };
    pthread_key_create(&key, destructor);
    for (int i = 0; i < 2; i++) {
        pthread_t t;
        pthread_create(&t, NULL, by_handler, &levels[i]);
        pthread_join(t, &value);
        printf("handler %d levels down: %s\n", levels[i], (char *)value);
    }
    pthread_t s;
    pthread_create(&s, NULL, sorter, NULL);
    pthread_join(s, &value);
    printf("comparator: %s\n", (char *)value);
    pthread_create(&exiter, NULL, by_handler, &levels[1]);
    join_hook();
    for (int i = 0; i < 200; i++) {     /* many exits: nothing builds up */
        pthread_t t;
        pthread_create(&t, NULL, by_handler, &levels[i % 2]);
        pthread_join(t, &value);
    }
    printf("200 more: last %s\n", (char *)value);
    printf("destructors %d, code after pthread_exit ran: %s, sort finished: %s\n", destructed,
           after_exit ? "yes" : "no", sorted_fully ? "yes" : "no");
    fflush(stdout);
    pthread_t last;
    pthread_create(&last, NULL, outlives_main, NULL);
    handlers[0](0);                 /* main's thread ends; the program when `last` does (status 0) */
    return 3;
}

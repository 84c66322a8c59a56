/* statemachine.c -- the practical limit: two hand-written state machines
 * hand control to each other through a ring-buffer run queue (what a
 * yield pair costs with no runtime at all).  Prints ns per switch. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define RING 64                     /* run queue slots (a power of two) */

typedef struct task task;
struct task {
    void (*resume)(task *t);        /* the state machine's step */
    long left;                      /* yields still to do */
};

static task *ring[RING];            /* the run queue */
static unsigned head, tail;         /* pop at head, push at tail */

static void push(task *t) { ring[tail++ & (RING - 1)] = t; }

__attribute__((noinline)) static void yielder(task *t) {
    if (t->left-- > 0)
        push(t);                    /* yield: back to the tail */
}

int main(int argc, char **argv) {
    long n = argc > 1 ? atol(argv[1]) : 50000000;
    task a = { yielder, n }, b = { yielder, n };
    struct timespec t0, t1;
    push(&a);
    push(&b);
    clock_gettime(CLOCK_MONOTONIC, &t0);
    while (head != tail) {
        task *t = ring[head++ & (RING - 1)];
        t->resume(t);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("statemachine-yield %.2f ns/switch\n", s * 1e9 / (2.0 * n));
    return 0;
}

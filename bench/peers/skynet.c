/* skynet.c -- the skynet benchmark on the rip API: 10^6 leaf tasks in a
 * 10-ary tree, each sends its number to its parent over a channel, each
 * inner task sums its ten children's and sends that up.  Built by ripcc for
 * rip and ucontext; the peers (Go, tokio, C++20) do the same work.
 *
 *   skynet [LEAVES]        (default 1000000, a power of 10)
 *   -> "skynet 499999500000 in 123.4 ms, peak RSS 56.7 MiB" */
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>
#include "rip.h"

struct node {
    long num;                   /* the first leaf number under this node */
    long size;                  /* how many leaves under it */
    rip_chan *parent;           /* where its sum goes */
};

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void skynet(void *arg) {
    struct node *me = arg;
    long sum = me->num;
    if (me->size > 1) {
        long step = me->size / 10, part;
        rip_chan *results = rip_chan_new(sizeof(long), 10);
        for (int i = 0; i < 10; i++) {
            struct node *child = malloc(sizeof *child);
            child->num = me->num + i * step;
            child->size = step;
            child->parent = results;
            rip_spawn(skynet, child);
        }
        sum = 0;
        for (int i = 0; i < 10; i++) {
            rip_chan_recv(results, &part);
            sum += part;
        }
        rip_chan_free(results);
    }
    rip_chan_send(me->parent, &sum);
    free(me);
}

static long leaves = 1000000;

static void root(void *arg) {
    (void)arg;
    rip_chan *result = rip_chan_new(sizeof(long), 1);
    struct node *top = malloc(sizeof *top);
    long sum;
    top->num = 0;
    top->size = leaves;
    top->parent = result;
    double t0 = now_ms();
    rip_spawn(skynet, top);
    rip_chan_recv(result, &sum);
    double t1 = now_ms();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("skynet %ld in %.1f ms, peak RSS %.1f MiB\n", sum, t1 - t0, ru.ru_maxrss / 1024.0);
    rip_chan_free(result);
}

int main(int argc, char **argv) {
    if (argc > 1)
        leaves = atol(argv[1]);
    return rip_run(root, NULL);
}

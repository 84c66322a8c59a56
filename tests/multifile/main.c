/* main.c -- tasks call async functions defined in counter.c, directly and
 * through a pointer declared in counter.h. */
#include <stdio.h>
#include "counter.h"

static struct counter counters[2] = { { "three", 0 }, { "five", 0 } };

static void adder(void *arg) {
    struct counter *c = arg;
    int n = c == &counters[0] ? 3 : 5;
    int v = counter_add(c, n);
    v = counter_default_op(c, 1) - v;
    struct counter snap = counter_snapshot(c);
    printf("%s: value %d, last step added %d\n", snap.name, snap.value, v);
}

static void start(void *arg) {
    (void)arg;
    rip_spawn(adder, &counters[0]);
    rip_spawn(adder, &counters[1]);
}

int main(void) {
    int r = rip_run(start, NULL);
    printf("total %d\n", counters[0].value + counters[1].value);
    return r;
}

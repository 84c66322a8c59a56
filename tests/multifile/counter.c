/* counter.c -- async functions called from another file. */
#include <stdio.h>
#include "counter.h"

int counter_add(struct counter *c, int n) {
    for (int i = 0; i < n; i++) {
        c->value++;
        rip_yield();
    }
    return c->value;
}

struct counter counter_snapshot(const struct counter *c) {
    struct counter copy = *c;
    rip_yield();
    return copy;
}

counter_op *counter_default_op = counter_add;

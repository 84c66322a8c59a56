/* counter.h -- a shared counter whose increments yield: async functions
 * declared here, defined in counter.c, called from main.c. */
#ifndef COUNTER_H
#define COUNTER_H
#include "rip.h"

struct counter {
    const char *name;               /* shown in the trace */
    int value;                      /* current value */
};

RIP_ASYNC int counter_add(struct counter *c, int n);  /* add n, yielding between steps; the new value */
RIP_ASYNC struct counter counter_snapshot(const struct counter *c); /* a copy, after a yield */
typedef RIP_ASYNC_FN(int, counter_op, (struct counter *c, int n));
extern counter_op *counter_default_op;  /* counter_add */

#endif

/* checks: pointers to async functions (RIP_ASYNC_FN): a typedef, a struct field, handler tables, calls through them, rip_task_fn variables */
#include <stdio.h>
#include "rip.h"

typedef RIP_ASYNC_FN(int, step_fn, (int x));

struct stage {
    const char *name;               /* shown in the trace */
    step_fn *step;                  /* what the stage does */
};

static int twice(int x) {           /* never suspends, but used as a step_fn */
    return 2 * x;
}

RIP_ASYNC static int slow_inc(int x) {
    rip_yield();
    return x + 1;
}

static int square_later(int x) {
    rip_sleep_ms(1);
    return x * x;
}

static step_fn *table[] = { twice, slow_inc, square_later };

static void worker(void *arg) {
    printf("worker %s\n", (const char *)arg);
}

static void task(void *arg) {
    struct stage stages[] = { { "twice", twice }, { "inc", slow_inc }, { "square", square_later } };
    step_fn *f = slow_inc;
    rip_task_fn *start = worker;
    int x = 3;
    (void)arg;
    for (int i = 0; i < 3; i++) {
        x = stages[i].step(x);
        printf("%s -> %d\n", stages[i].name, x);
    }
    x = f(x) + table[0](1);
    printf("f(x) + table[0](1) = %d\n", x);
    for (int i = 2; i >= 0; i--)
        printf("table[%d](5) = %d\n", i, table[i](5));
    f = twice;
    printf("after f = twice: %d\n", f(f(1)));
    rip_spawn(start, "via a rip_task_fn pointer");
}

int main(void) {
    return rip_run(task, NULL);
}

/* A call C never evaluates (sizeof, typeof) is never made, async or not:
 * bump() would count itself. */
#include <stdio.h>
#include "rip.h"

static int calls;

RIP_ASYNC static int bump(void) {
    calls++;
    rip_yield();
    return 1;
}

static void task(void *arg) {
    (void)arg;
    size_t n = sizeof(bump());
    __typeof__(bump()) m = 2;
    rip_yield();
    printf("%zu %d %d\n", n, m, calls);
    int one = bump();
    printf("%d %d\n", one, calls);
}

int main(void) { return rip_run(task, NULL); }

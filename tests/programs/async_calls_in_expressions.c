/* checks: async calls inside expressions: arguments, operators, &&, ||, ?:, comma, compound assignment, conditions.
 * Where C leaves the order of evaluation open, only the result is printed (sorted trace). */
#include <stdio.h>
#include <stdlib.h>
#include "rip.h"

static int trace[64], ntrace;

/* Yields, records that it ran, returns v. */
RIP_ASYNC static int val(int v) {
    rip_yield();
    trace[ntrace++] = v;
    return v;
}

static int plain(int v) {
    trace[ntrace++] = 100 + v;
    return v;
}

static int cmp_int(const void *a, const void *b) {
    return *(const int *)a - *(const int *)b;
}

/* Prints the result and which calls ran; `sorted` when C leaves their order open. */
static void show(const char *what, int result, int sorted) {
    if (sorted)
        qsort(trace, (size_t)ntrace, sizeof trace[0], cmp_int);
    printf("%-28s = %4d   ran:", what, result);
    for (int i = 0; i < ntrace; i++)
        printf(" %d", trace[i]);
    printf("\n");
    ntrace = 0;
}

static void task(void *arg) {
    int x = 1, y;
    (void)arg;
    y = val(2) + val(3) * val(4);
    show("val(2) + val(3) * val(4)", y, 1);
    y = plain(1) + val(2);
    show("plain(1) + val(2)", y, 1);
    y = val(1) && val(0) && val(5);
    show("val(1) && val(0) && val(5)", y, 0);
    y = val(0) || val(7);
    show("val(0) || val(7)", y, 0);
    y = val(1) ? val(10) : val(20);
    show("val(1) ? val(10) : val(20)", y, 0);
    y = (val(3), val(4));
    show("(val(3), val(4))", y, 0);
    x += val(5);
    show("x += val(5)", x, 0);
    y = plain(val(6)) - val(val(2));
    show("plain(val(6)) - val(val(2))", y, 1);
    printf("printf arg: %d %d\n", val(8), val(9));
    show("printf(val(8), val(9))", 0, 1);
    if (val(0) || val(1))
        show("if (val(0) || val(1))", 1, 0);
    int z = val(3) * 2 + 1;
    show("int z = val(3) * 2 + 1", z, 0);
    return;
}

int main(void) {
    return rip_run(task, NULL);
}

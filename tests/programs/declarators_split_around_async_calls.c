/* Declarators whose initializers wait, declared before the calls and
 * stored after them (C89: no statement ahead of a declaration), and the
 * cases that must stay in place: a name an earlier initializer uses for
 * an outer variable, a const, an array. */
#include <stdio.h>
#include "rip.h"

RIP_ASYNC static int later(int v) {
    rip_yield();
    return v;
}

static void task(void *arg) {
    int y = 5;
    (void)arg;
    {
        long a = (long)later(1), b = (long)later(2) * 10;
        printf("a %ld b %ld\n", a, b);
    }
    {
        int b = (int)later(y), y = (int)later(7);   /* later(y): the outer y */
        printf("b %d y %d\n", b, y);
    }
    {
        const int c = later(3) + 1;
        int arr[2] = { later(4), later(5) };
        double d = (double)later(6) / 4;
        printf("c %d arr %d %d d %.2f\n", c, arr[0], arr[1], d);
    }
}

int main(void) {
    return rip_run(task, NULL) == 0 ? 0 : 1;
}

/* A declarator without an initializer that an earlier initializer's
 * calls would see as a typedef's name stays after those calls: moved up
 * to the declaration's start it would shadow the typedef in sizeof(T)
 * and (T) (a variable's size, or no cast at all). */
#include <stdio.h>
#include "rip.h"

typedef char T;

RIP_ASYNC static long later(long v) {
    rip_yield();
    return v;
}

static void task(void *arg) {
    (void)arg;
    {
        long a = (long)later(sizeof(T)), T;
        T = 2;
        printf("a %ld T %ld\n", a, T);
    }
    {
        long b = (long)later((T)300 + (T)1), T = (long)later(5);
        printf("b %ld T %ld\n", b, T);
    }
    {
        long c = (long)later(sizeof(T[3])), d, T;
        d = 4;
        T = 6;
        printf("c %ld d %ld T %ld\n", c, d, T);
    }
}

int main(void) {
    return rip_run(task, NULL) == 0 ? 0 : 1;
}

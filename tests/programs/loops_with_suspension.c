/* checks: while, do/while and for loops (with break and continue) whose bodies suspend */
#include <stdio.h>
#include <rip.h>

static int step(int v)
{
    rip_yield();
    return v + 1;
}

static void root(void *arg)
{
    int i = 0;
    int n = 0;
    (void)arg;
    while (i < 3) {
        i = step(i);
        printf("while i=%d\n", i);
    }
    do {
        n = step(n);
        printf("do n=%d\n", n);
    } while (n < 2);
    for (int k = 0; k < 6; k++) {
        int v = step(k * 10);
        if (k == 1)
            continue;
        if (k == 4)
            break;
        printf("for k=%d v=%d\n", k, v);
    }
    for (i = 0; i < 3; i++)
        rip_yield();
    printf("after for i=%d\n", i);
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++) {
            rip_sleep_ms(1);
            printf("nested a=%d b=%d\n", a, b);
        }
}

int main(void)
{
    return rip_run(root, NULL);
}

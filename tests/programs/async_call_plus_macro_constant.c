/* checks: y = f(1) + K; an async call in an expression whose other operand is an object-like macro */
#include <stdio.h>
#include <rip.h>

#define K 3

static int value(int v)
{
    rip_yield();
    return v;
}

static void root(void *arg)
{
    int y;
    (void)arg;
    y = value(1) + K;
    printf("y %d\n", y);
}

int main(void) { return rip_run(root, NULL); }

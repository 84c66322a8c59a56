/* checks: a recursive async function that yields at every level computes the right results */
#include <stdio.h>
#include <rip.h>

static long sum_to(int n)
{
    long rest;
    if (n == 0)
        return 0;
    rip_yield();
    rest = sum_to(n - 1);
    return rest + n;
}

static long fib(int n)
{
    long a;
    long b;
    if (n < 2)
        return n;
    a = fib(n - 1);
    rip_yield();
    b = fib(n - 2);
    return a + b;
}

static void root(void *arg)
{
    long s = sum_to(100);
    long f;
    int depth = 200;
    (void)arg;
    printf("sum_to(100) = %ld\n", s);
    s = sum_to(depth);
    printf("sum_to(%d) = %ld\n", depth, s);
    f = fib(15);
    printf("fib(15) = %ld\n", f);
}

int main(void)
{
    return rip_run(root, NULL);
}

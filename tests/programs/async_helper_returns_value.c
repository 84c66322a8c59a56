/* checks: a user async helper returns a value through x = f(), T x = f() and return f() */
#include <stdio.h>
#include <rip.h>

static int add_slowly(int a, int b)
{
    rip_yield();
    return a + b;
}

static int twice(int a)
{
    return add_slowly(a, a);
}

static void root(void *arg)
{
    int x;
    int y = add_slowly(2, 3);
    (void)arg;
    printf("y = %d\n", y);
    x = add_slowly(y, 10);
    printf("x = %d\n", x);
    x = twice(x);
    printf("twice = %d\n", x);
}

int main(void)
{
    int r = rip_run(root, NULL);
    printf("rip_run %d\n", r);
    return 0;
}

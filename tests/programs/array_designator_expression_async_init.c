/* checks: an array initializer whose designator is an expression, not a bare literal ([4 - 1] = f()), with an async call as the value */
#include <stdio.h>
#include <rip.h>

static int value(int v)
{
    rip_yield();
    return v;
}

static void root(void *arg)
{
    int a[4] = { [4 - 1] = value(7), [1 + 0] = value(5) };
    (void)arg;
    printf("%d %d %d %d\n", a[0], a[1], a[2], a[3]);
}

int main(void) { return rip_run(root, NULL); }

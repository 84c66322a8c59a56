/* checks: a name shadowed in nested blocks keeps each binding's own value across suspensions */
#include <stdio.h>
#include <rip.h>

static void root(void *arg)
{
    int x = 1;
    (void)arg;
    printf("outer x=%d\n", x);
    {
        int x = 2;
        rip_yield();
        {
            double x = 3.5;
            rip_yield();
            printf("innermost x=%.1f\n", x);
        }
        printf("middle x=%d\n", x);
        x += 10;
        rip_yield();
        printf("middle x=%d\n", x);
    }
    for (int x = 100; x < 102; x++) {
        rip_yield();
        printf("loop x=%d\n", x);
    }
    if (x == 1) {
        const char *x = "string x";
        rip_yield();
        printf("if x=%s\n", x);
    }
    printf("outer x=%d\n", x);
}

int main(void)
{
    return rip_run(root, NULL);
}

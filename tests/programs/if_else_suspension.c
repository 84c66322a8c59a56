/* checks: suspension points inside if, else-if and else branches, and as an unbraced branch body */
#include <stdio.h>
#include <rip.h>

static int classify(int v)
{
    int r = 99;
    if (v < 0) {
        rip_yield();
        r = -1;
    } else if (v == 0) {
        r = 0;
    } else {
        rip_sleep_ms(1);
        if (v > 100)
            rip_yield();
        else
            r = 1;
        if (v > 100)
            r = 2;
    }
    return r;
}

static void root(void *arg)
{
    int vals[] = {-5, 0, 7, 500};
    (void)arg;
    for (int i = 0; i < 4; i++) {
        int c = classify(vals[i]);
        if (c > 0)
            printf("%d is positive (%d)\n", vals[i], c);
        else
            printf("%d is not positive (%d)\n", vals[i], c);
    }
}

int main(void)
{
    return rip_run(root, NULL);
}

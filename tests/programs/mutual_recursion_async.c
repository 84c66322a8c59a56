/* checks: two mutually recursive async functions that suspend at every level */
#include <stdio.h>
#include <rip.h>

static int is_odd(int n);

static int is_even(int n)
{
    int r;
    if (n == 0)
        return 1;
    rip_yield();
    r = is_odd(n - 1);
    return r;
}

static int is_odd(int n)
{
    if (n == 0)
        return 0;
    rip_yield();
    return is_even(n - 1);
}

static void root(void *arg)
{
    (void)arg;
    for (int n = 0; n < 40; n += 7) {
        int e = is_even(n);
        int o = is_odd(n);
        printf("%d: even=%d odd=%d\n", n, e, o);
    }
}

int main(void)
{
    return rip_run(root, NULL);
}

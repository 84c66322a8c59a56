/* checks: array parameters with qualifiers in their brackets (int x[volatile 5], [const 5],
   [restrict 5], [static 5]) kept across suspensions: each frame field is the pointer the
   function sees (int *volatile, int *const...), never the array written */
#include <stdio.h>
#include <rip.h>

static int sum(int x[volatile 5], int y[const 5], int z[restrict 5], int w[static 5])
{
    int i, s = 0;
    for (i = 0; i < 5; i++) {
        rip_yield();
        s += x[i] + y[i] + z[i] + w[i];
    }
    x = x + 1;
    rip_yield();
    return s + x[0];
}

static int fill(int n, double out[static 3], const char *names[const])
{
    rip_yield();
    out[0] = n;
    out[2] = names[1][0];
    return n;
}

static void root(void *arg)
{
    int a[5] = {1, 2, 3, 4, 5}, b[5] = {10, 20, 30, 40, 50}, c[5] = {1, 1, 1, 1, 1};
    double d[3] = {0};
    const char *names[] = {"x", "y"};
    (void)arg;
    printf("%d\n", sum(a, b, c, b));
    printf("%d ", fill(7, d, names));
    printf("%g %g\n", d[0], d[2]);
}

int main(void) { return rip_run(root, NULL); }

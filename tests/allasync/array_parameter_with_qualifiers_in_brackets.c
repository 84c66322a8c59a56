/* checks: array parameters with qualifiers or static in their brackets (int x[volatile 5],
   [const 5], [restrict 5], [static 5], [volatile]): each is the pointer the function sees
   (int *volatile...), in prototypes, definitions, K&R definitions and beside typedef'd arrays */
#include <stdio.h>

typedef int vec[4];

static int f(int x[volatile 5], int y[const 5], int z[restrict 5], int w[static 5]);

static int f(int x[volatile 5], int y[const 5], int z[restrict 5], int w[static 5])
{
    return x[0] + y[1] + z[2] + w[3];
}

static int g(int x[volatile], const int m[__restrict static 2][3], char *names[const 2])
{
    x[1] += m[1][2];
    return x[0] + x[1] + names[1][0];
}

static int old(a, b)
    int a[volatile 3];
    const vec b;
{
    a = a + 1;
    return a[0] + b[3];
}

int main(void)
{
    int a[5] = {1, 2, 3, 4, 5}, b[5] = {6, 7, 8, 9, 10}, c[5] = {1, 1, 1, 1, 1};
    int m[2][3] = {{1, 2, 3}, {4, 5, 6}};
    char *names[2] = {"a", "b"};
    vec v = {1, 2, 3, 4};
    printf("%d\n", f(a, b, c, a));
    printf("%d\n", g(a, m, names));
    printf("%d\n", old(a, v));
    return 0;
}

/* checks: a K&R definition that declares several parameters in one declaration (int a, b;) */
/* cflags: -std=gnu89 */
#include <stdio.h>

int add(a, b)
    int a, b;
{
    return a + b;
}

long scale(v, num, den)
    long v;
    int num, den;
{
    return v * num / den;
}

int main()
{
    printf("%d %ld\n", add(2, 3), scale(100L, 3, 4));
    return 0;
}

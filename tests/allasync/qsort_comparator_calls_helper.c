/* checks: a qsort comparator (a plain function pointer) that calls a helper defined in the same file works as before */
#include <stdio.h>
#include <stdlib.h>

static int key(int v)
{
    return v % 10;
}

static int by_last_digit(const void *a, const void *b)
{
    int x = key(*(const int *)a), y = key(*(const int *)b);
    return (x > y) - (x < y);
}

int main(void)
{
    int v[5] = { 45, 13, 99, 21, 7 };
    int i;
    qsort(v, 5, sizeof v[0], by_last_digit);
    for (i = 0; i < 5; i++)
        printf("%d%c", v[i], i == 4 ? '\n' : ' ');
    return 0;
}

/* checks: functions that cannot be ripped (a VLA, setjmp, a qsort comparator) stay plain and work; their callers are ripped (test_allasync checks the report) */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static int sum_vla(int n)
{
    int v[n];
    int i, s = 0;
    for (i = 0; i < n; i++)
        v[i] = i * i;
    for (i = 0; i < n; i++)
        s += v[i];
    return s;
}

static jmp_buf env;

static int guarded(int fail)
{
    if (setjmp(env))
        return -1;
    if (fail)
        longjmp(env, 1);
    return 1;
}

static int by_value(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int run_vla(void)
{
    return sum_vla(4);
}

static int run_setjmp(void)
{
    return guarded(0) + 10 * guarded(1);
}

static int run_sort(void)
{
    int v[4] = { 8, 2, 6, 4 };
    qsort(v, 4, sizeof v[0], by_value);
    return v[0] * 1000 + v[1] * 100 + v[2] * 10 + v[3];
}

int main(void)
{
    printf("%d %d %d\n", run_vla(), run_setjmp(), run_sort());
    return 0;
}

/* checks: functions declared through a function typedef or a typeof of another
   (typedef int ft(int); extern ft func; extern __typeof__(func) func2;), at file
   scope and in a block, prototyped, unprototyped and variadic */
#include <stdarg.h>
#include <stdio.h>

typedef int ft(int);
typedef int old_ft();
typedef long sum_ft(int n, ...);
typedef double scale_ft(const double v[static 2], double);

extern ft func;
extern __typeof__(func) func2;
static old_ft legacy;
sum_ft sum;
scale_ft scale;
extern __typeof__(int (int)) func3;

int func(int x) { return x + 1; }
int func2(int x) { return x * 2; }
static int legacy(a) int a; { return a - 1; }
int func3(int x) { return x * x; }

long sum(int n, ...)
{
    va_list ap;
    long s = 0;
    va_start(ap, n);
    while (n-- > 0)
        s += va_arg(ap, int);
    va_end(ap);
    return s;
}

double scale(const double v[static 2], double k) { return (v[0] + v[1]) * k; }

int main(void)
{
    double v[2] = {1.5, 2.5};
    printf("%d %d %d %d\n", func(3), func2(4), legacy(5), func3(6));
    {
        extern ft later;
        ft func;
        printf("%d %d %ld %g\n", later(7), func(8), sum(3, 1, 2, 3), scale(v, 2.0));
    }
    return 0;
}

int later(int x) { return x - 7; }

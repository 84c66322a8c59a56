/* checks: one declaration that declares functions and then objects (int f(int a), g(int a), a;),
   at file scope (plain, static, extern) and in a block, objects kept across calls */
#include <stdio.h>

int twice(int a), thrice(int a), total;
static int inc(int a), step = 2, dec(int a);
extern int half(int a), seen;
int seen = 7;

int twice(int a) { return 2 * a; }
int thrice(int a) { return 3 * a; }
static int inc(int a) { return a + step; }
static int dec(int a) { return a - 1; }
int half(int a) { return a / 2; }

int main(void)
{
    int before = 1, quarter(int a), after = 5, *p = &after;
    float scale(float x), k = 1.5f;
    total = twice(before) + thrice(*p);
    printf("%d %d %d %d %d %g %d\n", total, inc(before), dec(after), half(seen), quarter(8),
           (double)scale(k), before + after);
    return 0;
}

int quarter(int a) { return a / 4; }
float scale(float x) { return x * 2; }

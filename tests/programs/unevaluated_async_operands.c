/* checks: async calls in unevaluated operands (sizeof, __typeof__, _Generic's controlling expression) are left alone: never called, never suspend */
#include <stdio.h>
#include <rip.h>

static int calls;

RIP_ASYNC static long f(int v)
{
    rip_yield();
    calls++;
    return v;
}

RIP_ASYNC static char g(void)
{
    rip_yield();
    calls++;
    return 'g';
}

static void root(void *arg)
{
    (void)arg;
    size_t s1 = sizeof f(1);
    size_t s2 = sizeof(g()) + sizeof(f(2) + g());
    __typeof__(f(3)) t = 5;
    __typeof__(g()) c = 'c';
    int kind = _Generic(f(4), long: 1, default: 0);
    int kind2 = _Generic(g(), char: 2, default: 0);
    printf("sizeof f(1) = %zu, sizes = %zu\n", s1, s2);
    printf("typeof: sizeof t = %zu t = %ld, sizeof c = %zu c = %c\n", sizeof t, (long)t, sizeof c, c);
    printf("_Generic: %d %d\n", kind, kind2);
    printf("calls so far = %d\n", calls);
    long real = f(7) + (long)sizeof f(8);
    printf("f(7) + sizeof f(8) = %ld, calls = %d\n", real, calls);
}

int main(void)
{
    return rip_run(root, NULL);
}

/* checks: atomic_load of an int, then of a float, then of a long long in one function (each expands to a statement expression with a `__typeof__(*p)` temporary named alike): each reads with its own type, not the first's (issue 20: the float read as an int's bits, 1.07584e+09; the long long failed to compile) */
#include <stdio.h>
#include <stdatomic.h>

static int twice(int x) { return 2 * x; }

int main(void)
{
    _Atomic int ai = 5;
    _Atomic float af = 2.5f;
    _Atomic long long al = 1LL << 40;
    int i = atomic_load(&ai);
    float f = atomic_load(&af);
    long long l = atomic_load(&al);
    printf("%d %g %lld\n", i, f, l);
    i = twice(atomic_load(&ai));
    f = (float)twice((int)atomic_load(&af)) + atomic_load(&af);
    l = atomic_load(&al) + twice(3);
    printf("%d %g %lld\n", i, f, l);
    return 0;
}

/* checks: C89-clean code (recursion, a struct passed and returned by value, static locals, a loop with break) that every -std from c89 to c2x accepts; test_allasync also builds it in each dialect */
#include <stdio.h>

struct pair { long lo, hi; };

static struct pair widen(struct pair p, long by)
{
    p.lo -= by;
    p.hi += by;
    return p;
}

static long fib(int n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

static int next_id(void)
{
    static int id;
    return ++id;
}

int main(void)
{
    struct pair p;
    int i;
    p.lo = 10;
    p.hi = 20;
    for (i = 0; i < 10; i++) {
        p = widen(p, fib(i));
        if (p.hi > 60)
            break;
    }
    printf("%ld %ld %d %d\n", p.lo, p.hi, i, next_id() + next_id());
    return 0;
}

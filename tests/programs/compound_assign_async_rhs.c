/* checks: compound assignments (+=, *=, -=, /=, <<=, |=) whose right side is an async call, to a local, an array element, a struct field and through a pointer */
#include <stdio.h>
#include <rip.h>

struct S {
    int n;
    long total;
};

static int evaluated_index;

RIP_ASYNC static int f(int v)
{
    rip_yield();
    return v + 1;
}

static int idx(int i)
{
    evaluated_index++;
    return i;
}

static void root(void *arg)
{
    int x = 10;
    int a[4] = { 1, 2, 3, 4 };
    struct S s = { 100, 0 };
    struct S *ps = &s;
    int i = 2;
    unsigned bits = 1;
    (void)arg;
    x += f(1);
    printf("x += f(1)     -> %d\n", x);
    a[i] *= f(2);
    printf("a[i] *= f(2)  -> %d %d %d %d\n", a[0], a[1], a[2], a[3]);
    s.n -= f(3);
    printf("s.n -= f(3)   -> %d\n", s.n);
    ps->total += f(9) * 1000L;
    printf("ps->total += -> %ld\n", s.total);
    x /= f(2);
    printf("x /= f(2)     -> %d\n", x);
    bits <<= f(3);
    bits |= (unsigned)f(0);
    printf("bits          -> %u\n", bits);
    a[idx(1)] += f(f(1));
    printf("a[idx(1)] += f(f(1)) -> %d (index evaluated %d time)\n", a[1], evaluated_index);
    for (int k = 0; k < 3; k++)
        x -= f(k);
    printf("loop x -= f(k) -> %d\n", x);
    int y = (x += f(4)) * 2;
    printf("y = (x += f(4)) * 2 -> x %d y %d\n", x, y);
}

int main(void)
{
    return rip_run(root, NULL);
}

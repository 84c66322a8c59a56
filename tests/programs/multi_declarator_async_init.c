/* checks: one declaration with several declarators mixing async initializers, plain ones and uninitialized ones; later declarators see earlier ones */
#include <stdio.h>
#include <rip.h>

static int calls;

RIP_ASYNC static int f(int v)
{
    rip_yield();
    calls++;
    return v * 3;
}

static void root(void *arg)
{
    (void)arg;
    int a = 1, b = f(a), c, d = b + f(2);
    c = a + b + d;
    printf("a=%d b=%d c=%d d=%d calls=%d\n", a, b, c, d, calls);

    int *p = &a, q = f(*p) + 1, arr[2] = { 7, 8 }, r = arr[1];
    *p = 50;
    rip_yield();
    printf("a=%d q=%d arr={%d,%d} r=%d calls=%d\n", a, q, arr[0], arr[1], r, calls);

    for (int i = f(0), j = f(1), k; i < 2; i++) {
        k = i + j;
        printf("loop i=%d j=%d k=%d\n", i, j, k);
    }

    const char *name = "x", *other = f(0) ? "nonzero" : "zero";
    long big = 1L << 40, small = f(-1);
    printf("%s %s %ld %ld calls=%d\n", name, other, big, small, calls);

    static int s1 = 5, s2;
    int t = s1 + s2, u = f(t), v = u - t;
    s2 = v;
    printf("t=%d u=%d v=%d s2=%d calls=%d\n", t, u, v, s2, calls);
}

int main(void)
{
    return rip_run(root, NULL);
}

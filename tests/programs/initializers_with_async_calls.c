/* checks: array, struct and designated initializers whose elements are async calls (only values are printed: C leaves their order open) */
#include <stdio.h>
#include <rip.h>

struct P {
    int x;
    int y;
};

struct Line {
    struct P from, to;
    const char *name;
};

static int calls;

RIP_ASYNC static int f(int v)
{
    rip_yield();
    calls++;
    return v * 10;
}

RIP_ASYNC static int g(int v)
{
    rip_sleep_ms(1);
    calls++;
    return -v;
}

static void root(void *arg)
{
    (void)arg;
    int a[3] = { f(1), f(2), f(3) };
    printf("a = %d %d %d (calls %d)\n", a[0], a[1], a[2], calls);
    struct P p = { f(1), g(2) };
    printf("p = {%d, %d} (calls %d)\n", p.x, p.y, calls);
    struct P q = { .y = f(5), .x = g(6) };
    printf("q = {%d, %d} (calls %d)\n", q.x, q.y, calls);
    int b[5] = { [3] = f(7), [1] = g(8) };
    printf("b = %d %d %d %d %d (calls %d)\n", b[0], b[1], b[2], b[3], b[4], calls);
    struct Line l = { .to = { g(1), f(1) }, .name = "diag", .from.x = f(4) };
    printf("l = %s {%d, %d} -> {%d, %d} (calls %d)\n", l.name, l.from.x, l.from.y,
           l.to.x, l.to.y, calls);
    int c[] = { f(1) + 1, 2, g(3) * 2 };
    printf("c has %zu: %d %d %d (calls %d)\n", sizeof c / sizeof c[0], c[0], c[1], c[2], calls);
    struct P ps[2] = { { f(9), 0 }, [1].y = g(9) };
    printf("ps = {%d, %d} {%d, %d} (calls %d)\n", ps[0].x, ps[0].y, ps[1].x, ps[1].y, calls);
}

int main(void)
{
    return rip_run(root, NULL);
}

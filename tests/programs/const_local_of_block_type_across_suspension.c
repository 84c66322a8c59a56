/* checks: const locals of unnamed and block-declared types, initialized, live in the frame across suspensions */
#include <stdio.h>
#include <rip.h>

RIP_ASYNC static int later(int v)
{
    rip_yield();
    return v;
}

static void root(void *arg)
{
    const union { unsigned u; unsigned char c[4]; } one = { 1 };
    struct P { short x, y; };
    const struct P p = { 5, (short)later(6) };
    (void)arg;
    rip_yield();
    printf("%d %d %d\n", one.c[0] + one.c[3], p.x, p.y);
}

int main(void) { return rip_run(root, NULL); }

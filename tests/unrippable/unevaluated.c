/* error: __builtin_choose_expr */
#include <stdio.h>
#include <rip.h>
static int calls;
static int f(int v) { calls++; rip_yield(); return v; }
static void root(void *arg)
{
    int r;
    (void)arg;
    r = __builtin_choose_expr(1, 1, f(1));
    r += __builtin_constant_p(f(2));
    r += (__typeof__(f(3)))4;
    printf("r=%d calls=%d\n", r, calls);
}
int main(void) { return rip_run(root, NULL); }

/* checks: async calls C never evaluates are never made (__builtin_choose_expr's other branch, __builtin_constant_p's operand, a cast's typeof), and the branch __builtin_choose_expr chooses is */
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
    r = __builtin_choose_expr(0, 1, f(5)) + __builtin_choose_expr(1, f(6), 2);
    printf("r=%d calls=%d\n", r, calls);
}
int main(void) { return rip_run(root, NULL); }

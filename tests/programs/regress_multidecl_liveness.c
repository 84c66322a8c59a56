/* checks: a value written before a later declarator's suspension survives it (review regression) */
#include <stdio.h>
#include <rip.h>
static int f(int v) { rip_yield(); return v; }
static void root(void *arg)
{
    int a = 5, b = f(a), c = a + 1;
    (void)arg;
    printf("%d %d %d\n", a, b, c);
}
int main(void) { return rip_run(root, NULL); }

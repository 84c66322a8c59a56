/* checks: an async function returning a function pointer (review regression) */
#include <stdio.h>
#include <rip.h>
static int twice(int a) { return 2 * a; }
static int (*pick(int k))(int) { rip_yield(); return k ? twice : 0; }
static void root(void *arg)
{
    int (*fp)(int) = pick(1);
    (void)arg;
    printf("%d\n", fp(21));
}
int main(void) { return rip_run(root, NULL); }

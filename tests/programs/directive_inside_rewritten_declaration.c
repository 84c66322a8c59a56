/* checks: a preprocessor conditional in the middle of a declaration of frame variables */
#include <stdio.h>
#include <rip.h>
static void root(void *arg)
{
    int a = 1,
#if 1
        b = 2;
#endif
    (void)arg;
    rip_yield();
    printf("%d %d\n", a, b);
}
int main(void) { return rip_run(root, NULL); }

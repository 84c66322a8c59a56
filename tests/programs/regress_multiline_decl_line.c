/* checks: __LINE__ in a multi-line declaration keeps each declarator's line (review regression) */
#include <stdio.h>
#include <rip.h>
static void root(void *arg)
{
    int a = __LINE__,
        b = __LINE__;
    (void)arg;
    rip_yield();
    printf("%d %d\n", a, b);
}
int main(void) { return rip_run(root, NULL); }

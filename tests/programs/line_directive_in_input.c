/* checks: a #line directive in the input: __LINE__ and __FILE__ as the compiler sees them */
#include <stdio.h>
#include <rip.h>
#line 500 "gen.y"
static void root(void *arg)
{
    (void)arg;
    rip_yield();
    printf("%d %s\n", __LINE__, __FILE__);
}
int main(void) { return rip_run(root, NULL); }

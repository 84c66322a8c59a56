/* checks: a macro hands a frame variable to a macro that stringifies it */
#include <stdio.h>
#include <rip.h>
#define STR(v) #v
#define SHOW(v) printf("%s = %d\n", STR(v), v)
static void root(void *arg)
{
    int x = 1;
    (void)arg;
    rip_yield();
    SHOW(x);
}
int main(void) { return rip_run(root, NULL); }

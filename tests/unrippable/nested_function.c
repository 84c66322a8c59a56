/* error: nested function */
#include <stdio.h>
#include <rip.h>
static void root(void *arg)
{
    int base = 40;
    int add(int v) { return base + v; }
    (void)arg;
    rip_yield();
    printf("%d\n", add(2));
}
int main(void) { return rip_run(root, NULL); }

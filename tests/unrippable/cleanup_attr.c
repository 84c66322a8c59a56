/* error: attribute on local */
#include <stdio.h>
#include <rip.h>
static void bye(int *p) { printf("cleanup %d\n", *p); }
static void root(void *arg)
{
    (void)arg;
    {
        int x __attribute__((cleanup(bye))) = 5;
        (void)x;
        rip_yield();
        puts("after yield");
    }
}
int main(void) { return rip_run(root, NULL); }

/* checks: a return written by a macro, after a suspension */
#include <stdio.h>
#include <rip.h>
#define RETURN_IF(c) if (c) return
static void root(void *arg)
{
    int x = 1;
    (void)arg;
    rip_yield();
    RETURN_IF(x < 0);
    puts("reached");
}
int main(void) { return rip_run(root, NULL); }

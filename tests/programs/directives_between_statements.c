/* checks: preprocessor lines between the statements of an async function stay where they are */
#include <stdio.h>
#include <rip.h>
#define TWICE 1
static void root(void *arg)
{
    int a = 1;
#if TWICE
    int b = 2;
#else
    int b = 3;
#endif
    (void)arg;
#pragma GCC diagnostic push
    rip_yield();
#ifdef TWICE
    a += b;
#endif
#pragma GCC diagnostic pop
    printf("%d %d\n", a, b);
}
int main(void) { return rip_run(root, NULL); }

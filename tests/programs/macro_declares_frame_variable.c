/* checks: a declaration written by a macro declares a variable live across a suspension */
#include <stdio.h>
#include <rip.h>
#define DECL(t, v, i) t v = i
static void root(void *arg)
{
    (void)arg;
    DECL(int, n, 5);
    rip_yield();
    printf("n=%d\n", n);
}
int main(void) { return rip_run(root, NULL); }

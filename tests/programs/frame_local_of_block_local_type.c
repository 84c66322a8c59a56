/* checks: a local whose struct type is declared inside the function lives in the frame across a suspension */
#include <stdio.h>
#include <rip.h>

static void root(void *arg)
{
    struct range { int lo, hi; } r = { 3, 8 };
    (void)arg;
    rip_yield();
    printf("range %d..%d\n", r.lo, r.hi);
}

int main(void) { return rip_run(root, NULL); }

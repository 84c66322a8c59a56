/* checks: a local of an unnamed struct type lives in the frame across a suspension */
#include <stdio.h>
#include <rip.h>

static void root(void *arg)
{
    struct { int lo, hi; } r = { 4, 9 };
    (void)arg;
    rip_yield();
    printf("range %d..%d\n", r.lo, r.hi);
}

int main(void) { return rip_run(root, NULL); }

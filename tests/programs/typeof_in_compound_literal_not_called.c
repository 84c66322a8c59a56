/* checks: an async call inside __typeof__ in a compound literal's type is unevaluated: it is never made */
#include <stdio.h>
#include <rip.h>

static int calls;

static int f(int v) { rip_yield(); calls++; return v; }

static void root(void *arg)
{
    int r;
    (void)arg;
    r = (__typeof__(f(1))){ 5 };
    rip_yield();
    printf("r %d calls %d\n", r, calls);
}

int main(void) { return rip_run(root, NULL); }

/* checks: an async call inside __builtin_types_compatible_p is unevaluated: it is never made */
#include <stdio.h>
#include <rip.h>

static int calls;

static int f(int v) { rip_yield(); calls++; return v; }

static void root(void *arg)
{
    int same;
    (void)arg;
    same = __builtin_types_compatible_p(__typeof__(f(1)), int);
    rip_yield();
    printf("same %d calls %d\n", same, calls);
}

int main(void) { return rip_run(root, NULL); }

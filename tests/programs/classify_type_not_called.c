/* checks: the operand of __builtin_classify_type is unevaluated: an async call there is never made */
#include <stdio.h>
#include <rip.h>

static int calls;

static double f(int v) { rip_yield(); calls++; return v; }

static void root(void *arg)
{
    int kind;
    (void)arg;
    kind = __builtin_classify_type(f(1));
    rip_yield();
    printf("kind %d calls %d\n", kind, calls);
}

int main(void) { return rip_run(root, NULL); }

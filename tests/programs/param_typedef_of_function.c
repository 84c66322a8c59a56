/* checks: a parameter whose type is a typedef of a function type (it decays to a function pointer) is kept across a suspension */
#include <stdio.h>
#include <rip.h>

typedef int op_fn(int);

static int square(int v) { return v * v; }

static int apply(op_fn op, int v)
{
    rip_yield();
    return op(v);
}

static void root(void *arg)
{
    (void)arg;
    printf("apply %d\n", apply(square, 7));
}

int main(void) { return rip_run(root, NULL); }

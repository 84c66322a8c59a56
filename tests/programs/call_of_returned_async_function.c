/* checks: go()(): calling at once the async function another function returns */
#include <stdio.h>
#include <rip.h>

typedef RIP_ASYNC_FN(int, step_fn, (int));

static int twice(int v)
{
    rip_yield();
    return 2 * v;
}

static step_fn *const steps[] = { twice };

static step_fn *go(void)
{
    return steps[0];
}

static void root(void *arg)
{
    (void)arg;
    printf("go()(21) %d\n", go()(21));
}

int main(void) { return rip_run(root, NULL); }

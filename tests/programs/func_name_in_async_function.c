/* checks: __func__ in an async function is the function's own name, after a suspension too */
#include <stdio.h>
#include <rip.h>

static int worker(int v)
{
    printf("%s before\n", __func__);
    rip_yield();
    printf("%s after\n", __func__);
    return v;
}

static void root(void *arg)
{
    (void)arg;
    worker(1);
    printf("%s done\n", __func__);
}

int main(void) { return rip_run(root, NULL); }

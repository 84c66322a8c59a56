/* checks: an async function chosen by ?: where a rip_task_fn * is expected (rip_spawn(deep ? grow : leaf, c)) */
/* threads: sorted */
#include <stdio.h>
#include <rip.h>

static void leaf(void *arg)
{
    rip_yield();
    printf("leaf %d\n", *(int *)arg);
}

static void grow(void *arg)
{
    rip_yield();
    printf("grow %d\n", *(int *)arg);
}

static void root(void *arg)
{
    static int one = 1, two = 2;
    int deep;
    (void)arg;
    for (deep = 0; deep < 2; deep++)
        rip_spawn(deep ? grow : leaf, deep ? &two : &one);
}

int main(void) { return rip_run(root, NULL); }

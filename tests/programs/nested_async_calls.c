/* checks: async functions calling async functions three levels deep, interleaved with another task */
/* threads: sorted */
#include <stdio.h>
#include <rip.h>

static int level3(int v)
{
    printf("  level3(%d) before yield\n", v);
    rip_yield();
    printf("  level3(%d) after yield\n", v);
    return v + 3;
}

static int level2(int v)
{
    int r = level3(v * 2);
    printf(" level2 got %d\n", r);
    return r + 2;
}

static int level1(int v)
{
    int r;
    r = level2(v + 1);
    printf("level1 got %d\n", r);
    return r + 1;
}

static void other(void *arg)
{
    (void)arg;
    printf("other task runs\n");
}

static void root(void *arg)
{
    int result;
    (void)arg;
    rip_spawn(other, NULL);
    result = level1(5);
    printf("result %d\n", result);
}

int main(void)
{
    return rip_run(root, NULL);
}

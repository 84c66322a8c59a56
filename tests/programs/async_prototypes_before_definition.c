/* checks: async functions declared by prototype (marked, unmarked, static) and called before their definitions, including inference through a later definition */
/* threads: sorted */
#include <stdio.h>
#include <rip.h>

RIP_ASYNC static int slow_add(int a, int b);    /* marked prototype */
static int twice_later(int x);                  /* unmarked: async only because its definition yields */
int chained(int x);                             /* extern, defined below, async through the call graph */
static void worker(void *arg);                  /* a task used before it is defined */

static int order;

static void root(void *arg)
{
    int r;
    (void)arg;
    rip_spawn(worker, "w1");
    r = slow_add(2, 3);
    printf("[%d] slow_add(2, 3) = %d\n", ++order, r);
    r = twice_later(r);
    printf("[%d] twice_later = %d\n", ++order, r);
    r = chained(r);
    printf("[%d] chained = %d\n", ++order, r);
}

int chained(int x)
{
    return slow_add(twice_later(x), 1);
}

static int twice_later(int x)
{
    rip_yield();
    return 2 * x;
}

RIP_ASYNC static int slow_add(int a, int b)
{
    rip_yield();
    return a + b;
}

static void worker(void *arg)
{
    rip_yield();
    printf("worker %s ran\n", (const char *)arg);
}

int main(void)
{
    return rip_run(root, NULL);
}

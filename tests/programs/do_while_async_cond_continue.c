/* checks: do/while whose condition is an async call; continue in the body re-evaluates the async condition */
/* threads: sorted */
#include <stdio.h>
#include <rip.h>

static int checks;

/* Suspends, counts the evaluation, then answers i < limit. */
RIP_ASYNC static int more(int i, int limit)
{
    rip_yield();
    checks++;
    printf("  cond(%d < %d)\n", i, limit);
    return i < limit;
}

static void other(void *arg)
{
    (void)arg;
    for (int k = 0; k < 3; k++) {
        printf("  other task %d\n", k);
        rip_yield();
    }
}

static void root(void *arg)
{
    int i = 0, sum = 0;
    (void)arg;
    rip_spawn(other, NULL);
    do {
        i++;
        if (i % 2 == 0) {
            printf("skip %d\n", i);
            continue;
        }
        sum += i;
        printf("body %d sum %d\n", i, sum);
    } while (more(i, 5));
    printf("after loop: i=%d sum=%d checks=%d\n", i, sum, checks);

    /* continue on the very first pass must still evaluate the condition */
    int n = 10;
    checks = 0;
    do {
        n--;
        continue;
    } while (more(n, 8) && n > 0);
    printf("second loop: n=%d checks=%d\n", n, checks);

    /* a body that suspends itself, and continue after the suspension */
    int j = 0;
    do {
        rip_yield();
        if (++j == 2)
            continue;
        printf("third loop j=%d\n", j);
    } while (more(j, 3));
    printf("third loop done j=%d\n", j);
}

int main(void)
{
    return rip_run(root, NULL);
}

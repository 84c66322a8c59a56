/* checks: rip_wg_wait returns only after every one of many tasks called rip_wg_done */
#include <stdio.h>
#include <rip.h>

#define N 100

static rip_wg *wg;
static int results[N];

static void worker(void *arg)
{
    int i = (int)(long)arg;
    int k;
    for (k = 0; k < i % 5; k++)
        rip_yield();
    results[i] = i * i;
    rip_wg_done(wg);
}

static void root(void *arg)
{
    long i;
    long sum = 0;
    (void)arg;
    rip_wg_add(wg, N);
    for (i = 0; i < N; i++)
        rip_spawn(worker, (void *)i);
    rip_wg_wait(wg);
    for (i = 0; i < N; i++)
        sum += results[i];
    printf("waited for %d tasks\n", N);
    printf("sum of squares %ld\n", sum);
}

int main(void)
{
    wg = rip_wg_new();
    if (rip_run(root, NULL) != 0)
        return 1;
    rip_wg_free(wg);
    printf("done\n");
    return 0;
}

/* checks: sleeping tasks wake in deadline order, not in the order they were spawned */
#include <stdio.h>
#include <rip.h>

static int durations[] = {140, 20, 100, 60};

static void sleeper(void *arg)
{
    int ms = *(int *)arg;
    rip_sleep_ms(ms);
    printf("woke after %d ms\n", ms);
}

static void root(void *arg)
{
    int64_t start = rip_now_ms();
    int64_t elapsed;
    (void)arg;
    for (int i = 0; i < 4; i++)
        rip_spawn(sleeper, &durations[i]);
    rip_sleep_ms(180);
    elapsed = rip_now_ms() - start;
    printf("root woke last, after at least 180 ms: %s\n", elapsed >= 180 ? "yes" : "no");
}

int main(void)
{
    return rip_run(root, NULL);
}

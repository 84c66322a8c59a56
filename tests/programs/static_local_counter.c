/* checks: a static local in an async function keeps its value across calls, suspensions and tasks */
#include <stdio.h>
#include <rip.h>

static rip_wg *wg;

static int next_id(void)
{
    static int counter = 0;
    int before = counter;
    rip_yield();
    counter = before + 1;
    return counter;
}

static void worker(void *arg)
{
    int task = (int)(long)arg;
    for (int i = 0; i < 3; i++) {
        int id = next_id();
        printf("task %d call %d got id %d\n", task, i, id);
    }
    rip_wg_done(wg);
}

static void root(void *arg)
{
    int last;
    (void)arg;
    for (long t = 0; t < 3; t++) {
        /* one task at a time, so the counter is never shared concurrently */
        rip_wg_add(wg, 1);
        rip_spawn(worker, (void *)t);
        rip_wg_wait(wg);
    }
    last = next_id();
    printf("root got id %d\n", last);
}

int main(void)
{
    wg = rip_wg_new();
    if (rip_run(root, NULL) != 0)
        return 1;
    rip_wg_free(wg);
    return 0;
}

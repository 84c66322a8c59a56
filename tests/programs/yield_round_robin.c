/* checks: tasks that yield in a loop take turns in round-robin order */
/* threads: sorted */
#include <stdio.h>
#include <rip.h>

static void spinner(void *arg)
{
    int id = (int)(long)arg;
    int round = 0;
    do {
        printf("task %d round %d\n", id, round);
        rip_yield();
        round++;
    } while (round < 3);
}

static void root(void *arg)
{
    long i;
    (void)arg;
    for (i = 0; i < 4; i++)
        rip_spawn(spinner, (void *)i);
}

int main(void)
{
    int r = rip_run(root, NULL);
    printf("rip_run %d\n", r);
    return 0;
}

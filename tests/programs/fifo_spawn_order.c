/* checks: spawned tasks run in FIFO order and rip_yield moves the caller to the tail */
/* threads: sorted */
#include <stdio.h>
#include <rip.h>

static const char *names[] = {"a", "b", "c"};

static void worker(void *arg)
{
    const char *name = arg;
    int i;
    for (i = 0; i < 3; i++) {
        printf("%s step %d\n", name, i);
        rip_yield();
    }
    printf("%s done\n", name);
}

static void root(void *arg)
{
    int i;
    (void)arg;
    for (i = 0; i < 3; i++) {
        rip_spawn(worker, (void *)names[i]);
        printf("spawned %s\n", names[i]);
    }
    printf("root yields\n");
    rip_yield();
    printf("root back\n");
}

int main(void)
{
    int r = rip_run(root, NULL);
    printf("rip_run returned %d\n", r);
    return 0;
}

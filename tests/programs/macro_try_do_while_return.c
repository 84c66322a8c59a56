/* checks: a macro that does more than the async call (TRY(e): do { if ((e) < 0) { log; return -1; } } while (0)) in a loop that suspends */
#include <stdio.h>
#include <rip.h>

#define TRY(e) do { if ((e) < 0) { printf("failed: %s\n", #e); return -1; } } while (0)

static int step(int i)
{
    rip_yield();
    return i < 3 ? i : -1;
}

static int run_steps(void)
{
    int i;
    for (i = 0; i < 10; i++) {
        TRY(step(i));
        printf("step %d ok\n", i);
    }
    return 0;
}

static void root(void *arg)
{
    (void)arg;
    printf("run_steps %d\n", run_steps());
}

int main(void) { return rip_run(root, NULL); }

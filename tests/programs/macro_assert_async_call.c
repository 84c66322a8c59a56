/* checks: assert() around an async call, in a loop that suspends: the call is made and the assertion holds */
#include <assert.h>
#include <stdio.h>
#include <rip.h>

static int calls;

static int one(void)
{
    rip_yield();
    calls++;
    return 1;
}

static void root(void *arg)
{
    int i;
    (void)arg;
    for (i = 0; i < 3; i++) {
        rip_yield();
        assert(one() == 1);
    }
    printf("calls %d\n", calls);
}

int main(void) { return rip_run(root, NULL); }

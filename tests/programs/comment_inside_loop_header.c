/* checks: a comment inside the header of a loop whose condition holds an async call, between the condition and the ')' */
#include <stdio.h>
#include <rip.h>

static int below(int i, int n)
{
    rip_yield();
    return i < n;
}

static void root(void *arg)
{
    int i = 0;
    (void)arg;
    while (below(i, 3) /* ask again each time round */)
        printf("i %d\n", i++);
}

int main(void) { return rip_run(root, NULL); }

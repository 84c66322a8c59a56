/* checks: a MAX() macro written with a statement expression, with async calls as its arguments, in a loop that suspends */
#include <stdio.h>
#include <rip.h>

#define MAX(a, b) ({ __typeof__(a) a_ = (a); __typeof__(b) b_ = (b); a_ > b_ ? a_ : b_; })

static int value(int v)
{
    rip_yield();
    return v;
}

static void root(void *arg)
{
    int i, best = 0;
    (void)arg;
    for (i = 0; i < 4; i++) {
        best = MAX(value(i * 3 % 5), best);
        printf("i %d best %d\n", i, best);
    }
}

int main(void) { return rip_run(root, NULL); }

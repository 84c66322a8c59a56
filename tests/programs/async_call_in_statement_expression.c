/* checks: an async call inside a GNU statement expression, written out (no macro) */
#include <stdio.h>
#include <rip.h>

static int value(int v)
{
    rip_yield();
    return v;
}

static void root(void *arg)
{
    int r;
    (void)arg;
    r = ({ int t = value(20); t * 2 + 2; });
    printf("r %d\n", r);
}

int main(void) { return rip_run(root, NULL); }

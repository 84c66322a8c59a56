/* checks: an async call under #ifdef __OPTIMIZE__ (defined by the compiler at -O2, not by ripper's parser) is ripped: it suspends and returns its value */
/* threads: sorted */
#include <stdio.h>
#include <rip.h>

static int twice(int v)
{
    rip_yield();
    return 2 * v;
}

static void other(void *arg)
{
    (void)arg;
    puts("other runs while root waits");
}

static void root(void *arg)
{
    int r;
    (void)arg;
    rip_spawn(other, NULL);
#ifdef __OPTIMIZE__
    r = twice(21);
#else
    r = twice(21);
#endif
    printf("r %d\n", r);
}

int main(void) { return rip_run(root, NULL); }

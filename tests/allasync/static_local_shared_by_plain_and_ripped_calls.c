/* checks: a static local is one object, whether its function is called through a plain pointer or as a ripped function */
#include <stdio.h>

static int tally(int add)
{
    static int n, *last = &n;
    n += add;
    *last += 0;
    return n;
}

static int (*plain_tally)(int) = tally;

int main(void)
{
    plain_tally(1);
    tally(10);
    plain_tally(100);
    printf("%d %d\n", tally(0), plain_tally(0));
    return 0;
}

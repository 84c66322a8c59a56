/* checks: the comma operator with async calls on both sides: in a for loop's increment, a for condition, an expression statement, an assignment and an argument */
#include <stdio.h>
#include <rip.h>

static int steps;

/* Suspends, prints what it does (the comma operator fixes the order), returns v. */
RIP_ASYNC static int note(const char *what, int v)
{
    rip_yield();
    steps++;
    printf("  %s %d\n", what, v);
    return v;
}

static void root(void *arg)
{
    int i, j, r;
    (void)arg;
    for (i = 0, j = 10; i < 3; i = note("inc i", i + 1), j = note("dec j", j - 1))
        printf("body i=%d j=%d\n", i, j);
    printf("after for: i=%d j=%d\n", i, j);

    for (i = 0; note("test", i), i < 2; i++)
        printf("body2 i=%d\n", i);

    note("left", 1), note("right", 2);
    r = (note("first", 3), note("second", 4));
    printf("r = %d\n", r);
    r = (note("a", 5), r++, note("b", 6) * 10 + r);
    printf("r = %d\n", r);
    printf("argument = %d\n", (note("arg left", 7), note("arg right", 8)));
    if ((note("cond left", 0), note("cond right", 1)))
        printf("comma in if: right side decided\n");
    while ((r = note("w", r - 25)), r > 0)
        printf("while r=%d\n", r);
    printf("steps = %d\n", steps);
}

int main(void)
{
    return rip_run(root, NULL);
}

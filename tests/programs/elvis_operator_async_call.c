/* checks: the GNU ?: with an omitted middle operand (f() ?: y) calls f once and yields its value when it is nonzero */
#include <stdio.h>
#include <rip.h>

static int calls;

static int value(int v)
{
    rip_yield();
    calls++;
    return v;
}

static void root(void *arg)
{
    int a, b, y = 9;
    (void)arg;
    a = value(5) ?: y;
    b = value(0) ?: y;
    printf("a %d b %d calls %d\n", a, b, calls);
}

int main(void) { return rip_run(root, NULL); }

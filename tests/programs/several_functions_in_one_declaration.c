/* checks: several async functions declared in one declaration (static int ping(int), pong(int);) */
#include <stdio.h>
#include <rip.h>

static int ping(int), pong(int);

static int ping(int n)
{
    rip_yield();
    return n <= 0 ? 0 : 1 + pong(n - 1);
}

static int pong(int n)
{
    rip_yield();
    return n <= 0 ? 0 : 10 + ping(n - 1);
}

static void root(void *arg)
{
    (void)arg;
    printf("ping(4) %d\n", ping(4));
}

int main(void) { return rip_run(root, NULL); }

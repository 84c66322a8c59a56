/* checks: sizeof of a variably modified type evaluates its size expression: an async call there is made, once */
#include <stdio.h>
#include <rip.h>

static int calls;

static int count(int v) { rip_yield(); calls++; return v; }

static void root(void *arg)
{
    size_t s;
    (void)arg;
    s = sizeof(char[count(3)][2]);
    printf("size %zu calls %d\n", s, calls);
}

int main(void) { return rip_run(root, NULL); }

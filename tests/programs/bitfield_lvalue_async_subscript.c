/* checks: a bit-field assigned through a subscript that holds an async call */
#include <stdio.h>
#include <rip.h>

struct flags { unsigned ready : 1; unsigned level : 3; };

static int pick(int i)
{
    rip_yield();
    return i;
}

static void root(void *arg)
{
    struct flags f[3] = { { 0, 0 }, { 0, 0 }, { 0, 0 } };
    (void)arg;
    f[pick(1)].level = 5;
    f[pick(2)].ready = 1;
    f[pick(2)].level += 2;
    printf("%u %u %u %u %u %u\n", f[0].ready, f[0].level, f[1].ready, f[1].level,
           f[2].ready, f[2].level);
}

int main(void) { return rip_run(root, NULL); }

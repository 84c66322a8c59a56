/* checks: a frame array of a block-local struct S keeps the inner type even when the file-scope struct S it shadows was spelled the same way before */
#include <stdio.h>
#include <rip.h>

struct S { char c; };
static struct S global_two[2];

static void root(void *arg)
{
    (void)arg;
    global_two[0].c = 'x';
    {
        struct S { long c, y; };
        struct S two[2] = { { 1, 2 }, { 3, 4 } };
        rip_yield();
        printf("sizeof %zu: %ld %ld\n", sizeof two, (long)two[0].c, (long)two[1].c);
    }
}

int main(void) { return rip_run(root, NULL); }

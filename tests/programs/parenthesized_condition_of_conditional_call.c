/* checks: an async call in an arm of a ?: whose condition is a parenthesized equality, `(len == 0) ? get(1) : get(2)` (Lua's lapi.c:529, `ts = (len == 0) ? luaS_new(L, "") : luaS_newlstr(L, s, len);`), rips into output that clang compiles without warnings (test_clang) */
/* bug found on Lua 5.4, not marked `known bug:` because that marker takes a program out of test_clang, the one check that fails on it: the ?: becomes `if ((len == 0))`, and clang's -Wparentheses-equality, on by default, says "equality comparison with extraneous parentheses" (28 places in Lua ripped --all-async) */
#include <stdio.h>
#include <rip.h>

static int get(int v)
{
    rip_yield();
    return v;
}

static void task(void *arg)
{
    int len = *(int *)arg;
    int r = (len == 0) ? get(1) : get(2);
    printf("%d\n", r);
}

int main(void)
{
    int len = 0;
    return rip_run(task, &len);
}

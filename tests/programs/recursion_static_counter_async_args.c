/* checks: a recursive async function with a static local call counter and async calls in its own arguments: return depth(n - 1, f(acc)) + 1 */
#include <stdio.h>
#include <rip.h>

static int f_calls;

RIP_ASYNC static int f(int acc)
{
    rip_yield();
    f_calls++;
    return acc * 2 + 1;
}

static int depth(int n, int acc)
{
    static int calls;
    int mine = ++calls;
    if (n == 0) {
        printf("  bottom: acc=%d call #%d\n", acc, mine);
        return 0;
    }
    int r = depth(n - 1, f(acc)) + 1;
    printf("  unwind n=%d call #%d r=%d calls so far %d\n", n, mine, r, calls);
    return r;
}

static long sum_down(int n)
{
    static long deepest = 0;
    if (n > deepest)
        deepest = n;
    if (n == 0)
        return f(0) - 1;
    return n + sum_down(f(n - 1) / 2);   /* f(n - 1) / 2 == n - 1 */
}

static void root(void *arg)
{
    (void)arg;
    printf("depth(4, 0) = %d\n", depth(4, 0));
    printf("f_calls = %d\n", f_calls);
    printf("depth(2, 5) = %d\n", depth(2, 5));
    printf("sum_down(300) = %ld\n", sum_down(300));
    printf("f_calls = %d\n", f_calls);
}

int main(void)
{
    return rip_run(root, NULL);
}

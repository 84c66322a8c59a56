/* checks: a variable-length array in a block of an async function with no suspension in its scope stays a C local */
#include <stdio.h>
#include <rip.h>
static int sum(int n)
{
    int total = 0;
    rip_yield();
    {
        int v[n];
        for (int i = 0; i < n; i++)
            v[i] = i * i;
        for (int i = 0; i < n; i++)
            total += v[i];
    }
    rip_yield();
    return total;
}
static void root(void *arg)
{
    (void)arg;
    printf("%d %d\n", sum(4), sum(10));
}
int main(void) { return rip_run(root, NULL); }

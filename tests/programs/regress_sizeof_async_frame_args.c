/* checks: an async call in sizeof whose arguments name frame variables, or hold another such call, is left alone (gen_async fuzz regression) */
#include <stdio.h>
#include <rip.h>
static unsigned K[4] = {1u, 2u, 3u, 4u};
static unsigned long f(unsigned d, unsigned x)
{
    rip_yield();
    return d + x;
}
static void root(void *arg)
{
    unsigned d = 1u, x = 2u;
    (void)arg;
    rip_yield();
    printf("%u\n", K[sizeof(f(d, x)) % 4u] + (unsigned)f(d, x));
    printf("%zu\n", sizeof(f(d, K[sizeof(f(x, d)) % 4u])));
}
int main(void) { return rip_run(root, NULL); }

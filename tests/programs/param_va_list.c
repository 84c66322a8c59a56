/* checks: a va_list parameter (an array type on x86-64) of an async function is kept across a suspension */
#include <stdarg.h>
#include <stdio.h>
#include <rip.h>

struct args { int n; va_list ap; };

static int vsum(int n, va_list ap)
{
    int total = 0;
    while (n-- > 0) {
        rip_yield();
        total += va_arg(ap, int);
    }
    return total;
}

static void root(void *arg)
{
    struct args *a = arg;
    printf("sum %d\n", vsum(a->n, a->ap));
}

static int run_sum(int n, ...)
{
    struct args a;
    int r;
    a.n = n;
    va_start(a.ap, n);
    r = rip_run(root, &a);
    va_end(a.ap);
    return r;
}

int main(void) { return run_sum(3, 4, 5, 6); }

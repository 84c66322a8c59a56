/* checks: a return inside a statement expression, inside a declaration that ripper rewrites (its variable lives in the frame) */
#include <stdio.h>
#include <rip.h>

static int half_or_bail(int v)
{
    int h = ({ if (v < 0) return -1; v / 2; });
    rip_yield();
    return h;
}

static void root(void *arg)
{
    (void)arg;
    printf("%d %d\n", half_or_bail(10), half_or_bail(-4));
}

int main(void) { return rip_run(root, NULL); }

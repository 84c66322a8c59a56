/* checks: return EXIT_SUCCESS; and return EXIT_FAILURE; in an async function (macros for the value of a return the user wrote) */
#include <stdio.h>
#include <stdlib.h>
#include <rip.h>

static int check(int v)
{
    rip_yield();
    if (v < 0)
        return EXIT_FAILURE;
    return EXIT_SUCCESS;
}

static void root(void *arg)
{
    int a, b;
    (void)arg;
    a = check(1);
    b = check(-1);
    printf("%d %d\n", a, b);
}

int main(void) { return rip_run(root, NULL); }

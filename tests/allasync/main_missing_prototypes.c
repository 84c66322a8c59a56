/* checks: a program whose functions all have prototypes builds warning-free under -Wmissing-prototypes -Werror and -Wmissing-declarations -Werror (Lua's own flags), as the plain build does (gcc never asks main for a prototype) */
/* cflags: -Wmissing-prototypes -Werror */
/* cflags: -Wmissing-declarations -Werror */
#include <stdio.h>

static int twice(int v)
{
    return 2 * v;
}

int main(int argc, char **argv)
{
    (void)argv;
    printf("%d\n", twice(argc + 20));
    return 0;
}

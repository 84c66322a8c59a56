/* checks: a program whose functions all have prototypes builds warning-free under -Wmissing-prototypes -Werror and -Wmissing-declarations -Werror (Lua's own flags), as the plain build does (gcc never asks main for a prototype) */
/* known bug: the generated main__rip, main's ripped constructor, is defined with no previous prototype (lua.c:671: no previous prototype for 'main__rip') */
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

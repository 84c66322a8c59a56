/* checks: C89 declarations at the head of a function and of an inner block, one initialized by a call, build warning-free under -std=c89 -pedantic -Werror and under -Wdeclaration-after-statement -Werror (Lua's and cJSON's own flags), as the plain build does */
/* cflags: -std=c89 -pedantic -Werror */
/* cflags: -Wdeclaration-after-statement -Werror */
#include <stdio.h>

static const char *version(void)
{
    static char text[16];
    sprintf(text, "%d.%d", 1, 7);
    return text;
}

static int next(int v)
{
    return v + 1;
}

static int sum(int n)
{
    int total = 0;
    {
        int a = n;
        int b = next(a);
        total = a + b;
    }
    return total;
}

int main(void)
{
    printf("%s %d\n", version(), sum(20));
    return 0;
}

/* checks: a const-qualified parameter (cJSON's `const cJSON * const item`) builds warning-free under -std=c89 -pedantic -Werror and under -Wc++-compat -Werror, as the plain build does */
/* cflags: -std=c89 -pedantic -Werror */
/* cflags: -Wc++-compat -Werror */
#include <stdio.h>

struct item { int value; };

static int twice(const int x)
{
    return 2 * x;
}

static int value_of(const struct item * const item)
{
    return item->value;
}

int main(void)
{
    struct item it;
    it.value = 21;
    printf("%d %d\n", twice(21), value_of(&it));
    return 0;
}

/* checks: C89: a function called before its definition, with no prototype (implicitly declared), in the compiler's default dialect (gcc 12 accepts it) and in -std=gnu89 */
/* cflags: */
/* cflags: -std=gnu89 */
#include <stdio.h>

int main()
{
    printf("%d\n", triple(14));
    return 0;
}

int triple(v)
    int v;
{
    return 3 * v;
}

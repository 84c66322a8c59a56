/* checks: C89: implicit int in a result, a parameter and a static, in the compiler's default dialect (gcc 12 accepts it) and in -std=gnu89 */
/* cflags: */
/* cflags: -std=gnu89 */
#include <stdio.h>

static count;

next(step)
{
    count += step;
    return count;
}

main()
{
    next(2);
    next(5);
    printf("count %d\n", next(0));
    return 0;
}

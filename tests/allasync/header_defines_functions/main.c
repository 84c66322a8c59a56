/* checks: functions defined in a header (static, and static inline) are ripped with the file that includes it; one of them calls back into the file */
#include <stdio.h>
#include "helpers.h"

int base(void)
{
    return 40;
}

int main(void)
{
    printf("%d %d\n", plus_base(2), square(7));
    return 0;
}

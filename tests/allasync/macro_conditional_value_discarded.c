/* checks: a macro that expands to `cond ? call() : (v)`, used as a statement (cJSON's cJSON_SetNumberValue), builds warning-free under -Wall -Werror, as the plain build does */
/* cflags: -Wall -Werror */
#include <stdio.h>

static double set(double *p, double v)
{
    return *p = v;
}

#define SET(p, v) ((p) != NULL ? set(p, v) : (v))

int main(void)
{
    double d = 0, *q = &d;
    SET(q, 1.5);
    printf("%g\n", d);
    return 0;
}

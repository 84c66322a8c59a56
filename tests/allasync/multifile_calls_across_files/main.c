/* checks: a program of two files, each calling functions the other defines, links and runs as before */
#include <stdio.h>
#include "counter.h"

int scale = 3;

int scaled(int v)
{
    return v * scale;
}

int main(void)
{
    int i;
    for (i = 0; i < 3; i++)
        count_up(i);
    printf("total %d\n", counter_total());
    return counter_total() == 9 ? 0 : 1;
}

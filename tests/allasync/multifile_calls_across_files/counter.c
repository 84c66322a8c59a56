/* multifile_calls_across_files: the counter, calling back into main.c */
#include "counter.h"

static int total;

void count_up(int v)
{
    total += scaled(v);
}

int counter_total(void)
{
    return total;
}

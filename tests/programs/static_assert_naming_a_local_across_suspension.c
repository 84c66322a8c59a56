/* A _Static_assert naming locals kept across suspensions compiles on
 * every backend and asserts what the source says. */
#include <stdio.h>
#include "rip.h"

static void task(void *arg)
{
    unsigned long long acc[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    int n = *(int *)arg;
    rip_yield();
    _Static_assert(sizeof(acc) == 64, "acc is 64 bytes");
    _Static_assert(sizeof n == sizeof(int), "n is an int");
    rip_yield();
    printf("%llu %d\n", acc[n], n);
}

int main(void)
{
    int n = 7;
    return rip_run(task, &n);
}

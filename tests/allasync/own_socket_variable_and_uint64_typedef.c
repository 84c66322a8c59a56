/* checks: the ripped file includes nothing the user did not: a user's own `socket` variable and `uint64_t` typedef, with no <sys/socket.h> or <stdint.h> included */
#include <stdio.h>

typedef unsigned long long uint64_t;
static int socket = 3;
static uint64_t total;

static void add(uint64_t v)
{
    total += v * (uint64_t)socket;
}

int main(void)
{
    add(5);
    add(9);
    printf("total %llu\n", total);
    return 0;
}

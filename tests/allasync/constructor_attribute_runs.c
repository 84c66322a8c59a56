/* checks: a function marked __attribute__((constructor)) still runs before main */
#include <stdio.h>

static int ready;

__attribute__((constructor)) static void setup(void)
{
    ready = 42;
}

int main(void)
{
    printf("ready %d\n", ready);
    return ready == 42 ? 0 : 1;
}

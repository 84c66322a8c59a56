/* checks: a function marked __attribute__((destructor)) still runs after main returns */
#include <stdio.h>

__attribute__((destructor)) static void goodbye(void)
{
    printf("goodbye\n");
}

int main(void)
{
    printf("main\n");
    return 0;
}

/* checks: the function named in a local's cleanup attribute runs when the block ends, as before */
#include <stdio.h>

static int closed;

static void close_it(int *fd)
{
    printf("closing %d\n", *fd);
    closed++;
}

static int work(void)
{
    int fd __attribute__((cleanup(close_it))) = 7;
    printf("working with %d\n", fd);
    return fd + 1;
}

int main(void)
{
    int r = work();
    printf("r %d closed %d\n", r, closed);
    return 0;
}

/* error: of a variably modified type */
#include <stdio.h>
#include <rip.h>

static int grid[3][4] = { { 0, 1, 2, 3 }, { 4, 5, 6, 7 }, { 8, 9, 10, 11 } };

static int corner(int rows, int cols, int (*m)[cols])
{
    rip_yield();
    return m[rows - 1][cols - 1] + (int)sizeof *m;
}

static void root(void *arg)
{
    (void)arg;
    printf("corner %d\n", corner(3, 4, grid));
}

int main(void) { return rip_run(root, NULL); }

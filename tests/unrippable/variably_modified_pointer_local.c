/* error: has a suspension in its scope */
#include <stdio.h>
#include <rip.h>

static int grid[3][4] = { { 0, 1, 2, 3 }, { 4, 5, 6, 7 }, { 8, 9, 10, 11 } };

static void root(void *arg)
{
    int n = 4 + (int)(long)arg;
    int (*rows)[n] = grid;
    rip_yield();
    printf("%d %d %zu\n", rows[1][2], rows[2][3], sizeof *rows);
}

int main(void) { return rip_run(root, NULL); }

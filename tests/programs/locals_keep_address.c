/* checks: an array and a struct local whose addresses are taken keep them across rip_yield */
/* threads: sorted */
#include <stdio.h>
#include <string.h>
#include <rip.h>

struct point {
    int x;
    int y;
    char tag[8];
};

static void fill(int *p, int n, int base)
{
    for (int i = 0; i < n; i++)
        p[i] = base + i;
}

static void worker(void *arg)
{
    int arr[5];
    struct point pt;
    int *pa = arr;
    struct point *pp = &pt;
    int *py = &pt.y;
    int id = (int)(long)arg;
    fill(pa, 5, id * 100);
    pp->x = id;
    *py = -id;
    strcpy(pt.tag, id ? "one" : "zero");
    rip_yield();
    printf("task %d: same array %d, same struct %d, same field %d\n",
           id, pa == arr, pp == &pt, py == &pt.y);
    rip_yield();
    pa[4] += 1;
    printf("task %d: arr = %d %d %d %d %d\n", id, arr[0], arr[1], arr[2], arr[3], arr[4]);
    printf("task %d: pt = {%d, %d, %s}\n", id, pt.x, pt.y, pp->tag);
}

static void root(void *arg)
{
    (void)arg;
    rip_spawn(worker, (void *)0L);
    rip_spawn(worker, (void *)1L);
}

int main(void)
{
    return rip_run(root, NULL);
}

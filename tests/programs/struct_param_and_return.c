/* checks: async functions take and return structs by value across suspensions */
#include <stdio.h>
#include <rip.h>

struct vec {
    int x;
    int y;
    int z;
};

struct big {
    char name[32];
    long vals[8];
};

static struct vec vec_add(struct vec a, struct vec b)
{
    struct vec r;
    rip_yield();
    r.x = a.x + b.x;
    r.y = a.y + b.y;
    r.z = a.z + b.z;
    a.x = 1000; /* changes only the callee's copy */
    return r;
}

static struct big big_scale(struct big b, long k)
{
    rip_yield();
    for (int i = 0; i < 8; i++)
        b.vals[i] *= k;
    return b;
}

static void root(void *arg)
{
    struct vec a = {1, 2, 3};
    struct vec b = {10, 20, 30};
    struct vec c = vec_add(a, b);
    struct big g = {"big", {1, 2, 3, 4, 5, 6, 7, 8}};
    struct big h;
    (void)arg;
    printf("c = (%d, %d, %d)\n", c.x, c.y, c.z);
    printf("a unchanged = (%d, %d, %d)\n", a.x, a.y, a.z);
    c = vec_add(c, c);
    printf("c doubled = (%d, %d, %d)\n", c.x, c.y, c.z);
    h = big_scale(g, 3);
    printf("%s:", h.name);
    for (int i = 0; i < 8; i++)
        printf(" %ld", h.vals[i]);
    printf("\noriginal last = %ld\n", g.vals[7]);
}

int main(void)
{
    return rip_run(root, NULL);
}

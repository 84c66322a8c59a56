/* checks: a frame local named like a struct member, passed to a macro whose body has a .member designator, leaves the designator alone */
#include <stdio.h>
#include <rip.h>

struct point { int x, y; };

#define POINT_ON_DIAGONAL(v) ((struct point){ .x = (v), .y = (v) })

static void root(void *arg)
{
    int x = 5;
    struct point p;
    (void)arg;
    rip_yield();
    p = POINT_ON_DIAGONAL(x);
    printf("x %d: %d %d\n", x, p.x, p.y);
}

int main(void) { return rip_run(root, NULL); }

/* checks: a frame local named like a struct tag, passed to a macro whose body says `struct tag`, leaves the tag alone */
#include <stdio.h>
#include <rip.h>

struct point { int x, y; };

#define SHOW(v) printf("%d sizeof %zu\n", (v), sizeof(struct point))

static void root(void *arg)
{
    int point = 3;
    (void)arg;
    rip_yield();
    SHOW(point);
}

int main(void) { return rip_run(root, NULL); }

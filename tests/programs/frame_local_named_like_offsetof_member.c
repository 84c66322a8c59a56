/* checks: a frame local named like a struct member, passed to a macro whose body uses offsetof on that member, leaves the member alone */
#include <stddef.h>
#include <stdio.h>
#include <rip.h>

struct point { int x, y; };

#define SHOW_WITH_OFFSET(v) printf("%d offset %zu\n", (v), offsetof(struct point, y))

static void root(void *arg)
{
    int y = 9;
    (void)arg;
    rip_yield();
    SHOW_WITH_OFFSET(y);
}

int main(void) { return rip_run(root, NULL); }

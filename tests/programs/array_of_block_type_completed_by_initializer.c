/* checks: arrays of unknown size completed by their initializers, of a type declared in the function, live in the frame across suspensions */
#include <stdio.h>
#include <rip.h>

static void root(void *arg)
{
    struct W { int a; const char *n; };
    static const struct W fixed[] = { {1, "a"}, {2, "b"}, {3, "c"} };
    struct W w[] = { {4, "d"}, {5, "e"} };
    const struct { char c; } cs[] = { {'x'}, {'y'}, {'z'}, {'w'} };
    (void)arg;
    rip_yield();
    printf("%d %d %d\n", (int)(sizeof fixed / sizeof fixed[0]), (int)(sizeof w / sizeof w[0]),
           (int)(sizeof cs / sizeof cs[0]));
    printf("%s %d %s %c\n", fixed[2].n, w[1].a, w[0].n, cs[3].c);
}

int main(void) { return rip_run(root, NULL); }

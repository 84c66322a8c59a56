/* checks: an async call's result type is taken from the callee's frame, so a
 * block-local `struct vec` hiding the file-scope one does not change it
 * (found by fuzz/ripper_hostile.py) */
#include <stdio.h>
#include "rip.h"
struct vec { int x, y; };
static struct vec make(int a) { rip_yield(); struct vec v = { a, a + 1 }; return v; }
static void root(void *arg)
{
    (void)arg;
    {
        struct vec { double d; } local = { 1.5 };
        printf("%.1f\n", local.d);
        int s = make(3).y;
        printf("%d\n", s);
    }
    rip_yield();
}
int main(void) { return rip_run(root, NULL); }

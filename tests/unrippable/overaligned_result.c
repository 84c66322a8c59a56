/* error: alignment */
#include <stdio.h>
#include <rip.h>
struct __attribute__((aligned(64))) line { long hits; };
static struct line count(long n) { struct line l = { n * 10 }; rip_yield(); return l; }
static void root(void *arg)
{
    struct line l;
    (void)arg;
    l = count(4);
    printf("%ld\n", l.hits);
}
int main(void) { return rip_run(root, NULL); }

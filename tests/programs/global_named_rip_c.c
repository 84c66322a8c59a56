/* checks: a global named like ripper's old locals (rip_c, rip_self, rip_F)
 * is the program's: ripped code names its own in rip.h's reserved rip__
 * space, so nothing hides the global across a suspension */
#include <stdio.h>
#include <rip.h>
static void *rip_c;
static int rip_self = 1, rip_F = 2;
static void root(void *arg)
{
    (void)arg;
    puts(rip_c ? "set" : "unset");
    rip_c = &rip_self;
    rip_yield();
    puts(rip_c == &rip_self ? "set" : "unset");
    rip_F += rip_self;
    rip_yield();
    printf("%d %d\n", rip_self, rip_F);
}
int main(void) { return rip_run(root, NULL); }

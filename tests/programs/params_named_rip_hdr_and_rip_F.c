/* checks: parameters named like the frame's own members and ripper's old
 * locals (rip_hdr, rip_result, rip_F) are the program's: frame fields named
 * after them never meet the frame's own (rip__hdr, rip__result) */
#include <stdio.h>
#include <rip.h>
static int g(int rip_hdr, int rip_result)
{
    rip_yield();
    return rip_hdr * 10 + rip_result;
}
static void root(void *rip_F)
{
    int r = g(3, 4);
    printf("%d %s\n", r, rip_F ? "arg" : "null");
}
int main(void) { return rip_run(root, NULL); }

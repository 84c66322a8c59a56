/* checks: a compound literal whose array a pointer keeps across a suspension lives in the frame */
/* threads: sorted */
#include <stdio.h>
#include <string.h>
#include <rip.h>
static void clobber(void *arg) { volatile char junk[4096]; (void)arg; memset((char *)junk, 0x55, sizeof junk); }
static void root(void *arg)
{
    int *p = (int[]){10, 20, 30};
    (void)arg;
    rip_spawn(clobber, NULL);
    rip_yield();
    printf("%d\n", p[1]);
}
int main(void) { return rip_run(root, NULL); }

/* checks: compound literals whose address, member address or member array is kept across a suspension, in a loop (made anew each time round) */
/* threads: sorted */
#include <stdio.h>
#include <string.h>
#include <rip.h>
struct pt { int x, y; };
struct box { int n; char name[8]; };
static void clobber(void *arg) { volatile char junk[4096]; (void)arg; memset((char *)junk, 0x5a, sizeof junk); }
static void root(void *arg)
{
    (void)arg;
    for (int i = 0; i < 3; i++) {
        struct pt *p = &(struct pt){ i, i * 10 };
        int *py = &(struct pt){ i + 1, i + 100 }.y;
        char *name = (struct box){ i, "box" }.name;
        rip_spawn(clobber, NULL);
        rip_yield();
        printf("%d %d %d %s%d\n", p->x, p->y, *py, name, i);
        p->x += 5;
    }
}
int main(void) { return rip_run(root, NULL); }

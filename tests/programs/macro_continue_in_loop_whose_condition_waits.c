/* checks: a continue written by a macro, in a do loop whose condition waits, goes to the condition */
#include <stdio.h>
#include <rip.h>
#define SKIP_ODD(x) if ((x) % 2) continue
static int more(int i) { rip_yield(); return i < 4; }
static void root(void *arg)
{
    int i = 0;
    (void)arg;
    do { i++; SKIP_ODD(i); printf("even %d\n", i); } while (more(i));
}
int main(void) { return rip_run(root, NULL); }

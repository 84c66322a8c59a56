/* error: continue inside a statement expression in a loop condition */
#include <stdio.h>
#include <rip.h>
static void root(void *arg)
{
    int i = 0, j;
    (void)arg;
    for (j = 0; j < 3; j++) {
        do {
            rip_yield();
            i++;
        } while (({ if (i == 2) continue; i < 4; }));
        printf("j %d i %d\n", j, i);
    }
}
int main(void) { return rip_run(root, NULL); }

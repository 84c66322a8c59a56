/* checks: a continue out of a GNU statement expression goes on to the loop's increment: a local read only there survives the suspension */
#include <stdio.h>
#include <rip.h>

#define SKIP_BELOW(v, min) ({ if ((v) < (min)) continue; (v); })

static void root(void *arg)
{
    int step = (int)(long)arg + 3;   /* read only on the continue edge */
    int i, found;
    for (i = 0; i < 100; i += step) {
        rip_yield();
        found = SKIP_BELOW(i, 7);
        printf("first at or above 7: %d\n", found);
        break;
    }
}

int main(void) { return rip_run(root, NULL); }

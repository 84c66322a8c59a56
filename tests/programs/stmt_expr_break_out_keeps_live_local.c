/* checks: a break out of a GNU statement expression leaves the loop: a local read only after the loop survives the suspensions inside it */
#include <stdio.h>
#include <rip.h>

#define STOP_AT(v, end) ({ if ((v) == (end)) break; (v); })

static void root(void *arg)
{
    int last = (int)(long)arg + 40;   /* read only after the loop */
    int i = 0, sum = 0;
    for (;;) {
        rip_yield();
        sum += STOP_AT(i, 3);
        i++;
        if (i > 10)
            return;
    }
    printf("sum %d last %d\n", sum, last);
}

int main(void) { return rip_run(root, NULL); }

/* checks: each of many tasks keeps its own deadline while the others set,
 * change and drop theirs (deadlines live in a table keyed by task) */
#include <stdint.h>
#include <stdio.h>
#include "rip.h"

#define TASKS 3000
static int wrong;

static void task(void *arg) {
    int64_t mine = 1000000 + (int64_t)(intptr_t)arg * 7;
    if (rip_set_deadline(mine) != -1)
        wrong++;
    rip_yield();
    if (rip_set_deadline(mine + 1) != mine)  /* changed: still one entry */
        wrong++;
    rip_yield();
    if ((intptr_t)arg % 3 == 0) {              /* a third drop theirs early */
        if (rip_set_deadline(-1) != mine + 1 || rip_set_deadline(-1) != -1)
            wrong++;
        return;
    }
    rip_yield();
    if (rip_set_deadline(mine + 1) != mine + 1)
        wrong++;
}                                              /* the rest end with one set */

static void main_task(void *arg) {
    (void)arg;
    for (intptr_t i = 0; i < TASKS; i++)
        rip_spawn(task, (void *)i);
    rip_yield();
    printf("spawned with none: %s\n", rip_set_deadline(5) == -1 ? "yes" : "no");
}

int main(void) {
    int r = rip_run(main_task, NULL);
    int r2 = rip_run(task, (void *)1);       /* a second run starts clean */
    printf("run %d %d, wrong %d\n", r, r2, wrong);
    return 0;
}

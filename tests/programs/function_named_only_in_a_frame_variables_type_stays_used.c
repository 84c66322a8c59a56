/* A static function named only inside the written type of a variable that
 * lives in the frame (typeof, an array size): the frame spells the type
 * out, and the function must still count as used, or -Wall -Werror fails
 * with "defined but not used".  Found by fuzz/gen_diff.py (seed 3168). */
/* clang warns on the source too: -Wunneeded-internal-declaration, for a
 * function named only where nothing is evaluated. */
#include <stdio.h>
#include "rip.h"

static int pick(int k) { return k + 1; }
static long only_sized(void) { return 3; }
static int next_to_a_local(void) { return 3; }

static void task(void *arg) {
    __typeof__(pick(1)) v = 5;                  /* in the frame: used after the yield */
    char buf[sizeof(only_sized())];
    int a = 1, b[sizeof(next_to_a_local()) + sizeof a];
    (void)arg;
    rip_yield();
    buf[0] = 1;
    b[0] = a;
    printf("%d %d %d %d\n", v, buf[0], b[0], (int)(sizeof b / sizeof b[0]));
}

int main(void) { return rip_run(task, 0); }

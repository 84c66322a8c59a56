/* checks: rip_set_stack_size gives tasks spawned after it that stack (a deep recursion with big locals runs), returns the previous size, 0 only asks, sizes are page-rounded; the rip backend has no stacks and says 0 throughout */
#include <stdio.h>
#include <unistd.h>
#include "rip.h"

#define WANT (((size_t)16 << 20) + 1)  /* bytes asked for: 16 MiB and one */
#define DEPTH 1500                  /* frames of over 2 KiB: over 3 MiB of stack */

static int depth(int n) {
    volatile char pad[2048];
    pad[0] = (char)n;
    pad[sizeof pad - 1] = 1;
    return n == 0 ? 0 : depth(n - 1) + pad[sizeof pad - 1] + pad[0] - (char)n;
}

static void deep(void *arg) {
    (void)arg;
    printf("recursed %d deep\n", depth(DEPTH));
}

static void start(void *arg) {
    (void)arg;
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t before = rip_set_stack_size(0);
    size_t previous = rip_set_stack_size(WANT);
    size_t now = rip_set_stack_size(0);
    printf("returns the previous size: %s\n", previous == before ? "yes" : "no");
    printf("page-rounded up: %s\n",
           now == 0 || (now >= WANT && now - WANT < page && now % page == 0) ? "yes" : "no");
    printf("asking again changes nothing: %s\n", rip_set_stack_size(0) == now ? "yes" : "no");
    rip_spawn(deep, NULL);
}

int main(void) {
    return rip_run(start, NULL);
}

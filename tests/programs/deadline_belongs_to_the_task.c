/* checks: every task starts with no deadline (-1), one task's deadline does not apply to another, and rip_set_deadline returns the previous one */
#include <stdio.h>
#include "rip.h"

static void child(void *arg) {
    printf("child starts with: %lld\n", (long long)rip_set_deadline(-1));
    rip_wg_done(arg);
}

static void parent(void *arg) {
    rip_wg *wg = rip_wg_new();
    (void)arg;
    int64_t at = rip_now_ms() + 60000;
    printf("parent starts with: %lld\n", (long long)rip_set_deadline(at));
    rip_wg_add(wg, 1);
    rip_spawn(child, wg);
    rip_wg_wait(wg);
    rip_wg_free(wg);
    printf("parent still has its own: %s\n", rip_set_deadline(-1) == at ? "yes" : "no");
    printf("cleared: %lld\n", (long long)rip_set_deadline(-1));
}

int main(void) {
    return rip_run(parent, NULL);
}

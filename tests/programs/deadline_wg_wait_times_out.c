/* checks: rip_wg_wait past its task's deadline returns -1 and ETIMEDOUT, no sooner than the deadline, while another waiter without one waits on; done then wakes that one, and a wait on a zero count returns 0 at once under a passed deadline */
#include <errno.h>
#include <stdio.h>
#include "rip.h"

static rip_wg *wg;

static void patient(void *arg) {
    (void)arg;
    int r = rip_wg_wait(wg);
    printf("patient: %d\n", r);
}

static void task(void *arg) {
    (void)arg;
    rip_wg_add(wg, 1);
    rip_spawn(patient, NULL);
    int64_t start = rip_now_ms();
    rip_set_deadline(start + 50);
    errno = 0;
    int r = rip_wg_wait(wg);
    printf("wait: %d %s\n", r, errno == ETIMEDOUT ? "ETIMEDOUT" : "other");
    printf("waited at least 50 ms: %s\n", rip_now_ms() - start >= 50 ? "yes" : "no");
    rip_wg_done(wg);
    rip_sleep_ms(10);
    rip_set_deadline(rip_now_ms() - 1);
    printf("zero count, passed deadline: %d\n", rip_wg_wait(wg));
}

int main(void) {
    wg = rip_wg_new();
    int r = rip_run(task, NULL);
    rip_wg_free(wg);
    return r;
}

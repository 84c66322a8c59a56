/* checks: a mutex held across rip_yield and rip_sleep_ms still excludes the other tasks: a counter updated in two steps around a suspension loses no update */
#include <stdio.h>
#include <rip.h>

static rip_mutex *mu;
static rip_wg *wg;
static int counter;                 /* updated read-suspend-write under mu */
static int inside;                  /* tasks between lock and unlock */
static int overlaps;                /* times a task found another inside */

static void worker(void *arg) {
    long id = (long)arg;
    for (int i = 0; i < 5; i++) {
        if (rip_mutex_lock(mu) != 0)
            printf("lock failed\n");
        if (inside++)
            overlaps++;
        int seen = counter;
        if ((id + i) % 2)
            rip_yield();
        else
            rip_sleep_ms(1);
        counter = seen + 1;
        inside--;
        rip_mutex_unlock(mu);
        rip_yield();
    }
    rip_wg_done(wg);
}

static void root(void *arg) {
    (void)arg;
    rip_wg_add(wg, 4);
    for (long id = 0; id < 4; id++)
        rip_spawn(worker, (void *)id);
    rip_wg_wait(wg);
    printf("counter %d (4 tasks x 5 updates), overlaps %d\n", counter, overlaps);
}

int main(void) {
    mu = rip_mutex_new(RIP_MUTEX_NORMAL);
    wg = rip_wg_new();
    int r = rip_run(root, NULL);
    rip_mutex_free(mu);
    rip_wg_free(wg);
    return r;
}

/* checks: an unlock hands the mutex to the longest waiter (FIFO, no barging): a task that unlocks and relocks at once goes behind the waiters; a signalled cond waiter joins the mutex's waiters at the tail */
/* threads: sorted */
#include <stdio.h>
#include <rip.h>

static rip_mutex *mu;

static void waiter(void *arg) {
    long id = (long)arg;
    printf("task %ld waits\n", id);
    rip_mutex_lock(mu);
    printf("task %ld got the mutex\n", id);
    rip_mutex_unlock(mu);
}

static rip_cond *cv;
static volatile int cond_waiting;   /* set under mu just before the cond wait */

static void cond_waiter(void *arg) {
    (void)arg;
    rip_mutex_lock(mu);
    printf("cond waiter waits on the cond\n");
    cond_waiting = 1;
    rip_cond_wait(cv, mu);
    printf("cond waiter woke holding the mutex\n");
    rip_mutex_unlock(mu);
}

static void root(void *arg) {
    (void)arg;
    rip_mutex_lock(mu);
    for (long id = 1; id <= 3; id++)
        rip_spawn(waiter, (void *)id);
    rip_yield();                    /* the three queue on the mutex, 1 first */
    printf("root unlocks and relocks at once\n");
    rip_mutex_unlock(mu);
    rip_mutex_lock(mu);             /* behind 1, 2 and 3 */
    printf("root got the mutex again\n");
    rip_mutex_unlock(mu);

    rip_spawn(cond_waiter, NULL);
    while (!cond_waiting)           /* one yield on rip and ucontext */
        rip_yield();
    rip_mutex_lock(mu);             /* so it waits on cv (threads: no lost signal) */
    rip_spawn(waiter, (void *)4);
    rip_yield();                    /* 4 waits on mu */
    printf("root signals\n");
    rip_cond_signal(cv);            /* the cond waiter queues on mu behind 4 */
    rip_spawn(waiter, (void *)5);
    rip_yield();                    /* 5 behind the cond waiter */
    printf("root unlocks\n");
    rip_mutex_unlock(mu);
}

int main(void) {
    mu = rip_mutex_new(RIP_MUTEX_NORMAL);
    cv = rip_cond_new();
    int r = rip_run(root, NULL);
    rip_cond_free(cv);
    rip_mutex_free(mu);
    return r;
}

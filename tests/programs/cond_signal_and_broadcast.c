/* checks: rip_cond_signal wakes one waiter (the longest), rip_cond_broadcast every other one, each holding the mutex when its wait returns; a signal with no waiter is lost, as POSIX's */
/* threads: sorted */
#include <stdio.h>
#include <rip.h>

static rip_mutex *mu;
static rip_cond *cv;
static int tickets;                 /* wakes granted, under mu */
static int waiting;                 /* waiters that reached the wait, under mu */
static int woken;                   /* waiters returned, under mu */
static int returns;                 /* rip_cond_wait returns, under mu (no spurious wakes) */
static int held_wrongly;            /* a wait returned without mu held */

static void waiter(void *arg) {
    long id = (long)arg;
    rip_mutex_lock(mu);
    printf("waiter %ld waits\n", id);
    waiting++;
    while (tickets == 0) {
        rip_cond_wait(cv, mu);
        returns++;
    }
    if (rip_mutex_trylock(mu) == 0)  /* normal mutex held by us: EBUSY */
        held_wrongly++;
    tickets--;
    woken++;
    printf("waiter %ld woke\n", id);
    rip_mutex_unlock(mu);
}

/* Poll *count under mu until it reaches n (at most 5 s). */
static void wait_until(int *count, int n) {
    for (int i = 0; i < 5000; i++) {
        rip_mutex_lock(mu);
        int reached = *count >= n;
        rip_mutex_unlock(mu);
        if (reached)
            return;
        rip_sleep_ms(1);
    }
}

static void root(void *arg) {
    (void)arg;
    rip_cond_signal(cv);            /* nobody waits: lost */
    for (long id = 1; id <= 4; id++)
        rip_spawn(waiter, (void *)id);
    wait_until(&waiting, 4);
    rip_mutex_lock(mu);
    printf("signal\n");
    tickets = 1;
    rip_cond_signal(cv);
    rip_mutex_unlock(mu);
    wait_until(&woken, 1);
    rip_sleep_ms(20);               /* room for a wrong second wake */
    rip_mutex_lock(mu);
    printf("after signal: %d woke, %d cond waits returned\n", woken, returns);
    printf("broadcast\n");
    tickets = 3;
    rip_cond_broadcast(cv);
    rip_mutex_unlock(mu);
    wait_until(&woken, 4);
    rip_mutex_lock(mu);
    printf("after broadcast: %d woke, %d cond waits returned, without the mutex: %d\n",
           woken, returns, held_wrongly);
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

/* checks: a bounded queue guarded by a mutex with two condition variables (not full, not empty): 3 producers and 2 consumers pass 300 items through 4 slots, each exactly once */
#include <stdio.h>
#include <rip.h>

#define SLOTS 4
#define PER_PRODUCER 100

static rip_mutex *mu;
static rip_cond *not_full, *not_empty;
static int ring[SLOTS];             /* the queue, under mu */
static int head, count;             /* its first item and length, under mu */
static int producers_left = 3;      /* producers not yet done, under mu */
static int seen[3 * PER_PRODUCER];  /* times each item was consumed */
static rip_wg *wg;

static void producer(void *arg) {
    long id = (long)arg;
    for (int i = 0; i < PER_PRODUCER; i++) {
        rip_mutex_lock(mu);
        while (count == SLOTS)
            rip_cond_wait(not_full, mu);
        ring[(head + count++) % SLOTS] = (int)id * PER_PRODUCER + i;
        rip_cond_signal(not_empty);
        rip_mutex_unlock(mu);
        if (i % 7 == 0)
            rip_yield();
    }
    rip_mutex_lock(mu);
    if (--producers_left == 0)
        rip_cond_broadcast(not_empty);
    rip_mutex_unlock(mu);
    rip_wg_done(wg);
}

static void consumer(void *arg) {
    long *taken = arg;
    while (1) {
        rip_mutex_lock(mu);
        while (count == 0 && producers_left > 0)
            rip_cond_wait(not_empty, mu);
        if (count == 0) {
            rip_mutex_unlock(mu);
            break;
        }
        int item = ring[head];
        head = (head + 1) % SLOTS;
        count--;
        rip_cond_signal(not_full);
        rip_mutex_unlock(mu);
        seen[item]++;
        (*taken)++;
        if (item % 5 == 0)
            rip_sleep_ms(0);
    }
    rip_wg_done(wg);
}

static void root(void *arg) {
    long taken[2] = { 0, 0 };
    (void)arg;
    rip_wg_add(wg, 5);
    rip_spawn(consumer, &taken[0]);
    rip_spawn(consumer, &taken[1]);
    for (long id = 0; id < 3; id++)
        rip_spawn(producer, (void *)id);
    rip_wg_wait(wg);
    int once = 0;
    for (int i = 0; i < 3 * PER_PRODUCER; i++)
        once += seen[i] == 1;
    printf("consumed %ld items, %d of 300 exactly once\n", taken[0] + taken[1], once);
}

int main(void) {
    mu = rip_mutex_new(RIP_MUTEX_NORMAL);
    not_full = rip_cond_new();
    not_empty = rip_cond_new();
    wg = rip_wg_new();
    int r = rip_run(root, NULL);
    rip_wg_free(wg);
    rip_cond_free(not_empty);
    rip_cond_free(not_full);
    rip_mutex_free(mu);
    return r;
}

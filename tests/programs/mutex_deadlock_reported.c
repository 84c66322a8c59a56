/* exit: 3 */
/* checks: two tasks each holding one mutex and locking the other's, a third waiting on a cond nobody signals, and a fourth locking a mutex whose holder ended (it stays locked) are blocked forever: rip_run reports the deadlock and returns -1 */
/* threads: sorted */
#include <stdio.h>
#include <rip.h>

static rip_mutex *a, *b, *c, *left;
static rip_cond *never;
static volatile int holding;        /* tasks holding their first mutex */

static void take(rip_mutex *first, rip_mutex *second, const char *name) {
    rip_mutex_lock(first);
    holding++;
    while (holding < 2)
        rip_yield();
    printf("%s holds one mutex, locks the other\n", name);
    rip_mutex_lock(second);
    printf("%s got both (must not happen)\n", name);
}

static void task_a(void *arg) { (void)arg; take(a, b, "a"); }
static void task_b(void *arg) { (void)arg; take(b, a, "b"); }

static void ends_holding(void *arg) {
    (void)arg;
    rip_mutex_lock(left);
    printf("a task ends holding a mutex\n");
}

static void locks_left(void *arg) {
    (void)arg;
    while (rip_mutex_trylock(left) == 0) {  /* free yet: let the holder take it */
        rip_mutex_unlock(left);
        rip_yield();
    }
    printf("a task locks the mutex left locked\n");
    rip_mutex_lock(left);
    printf("got it (must not happen)\n");
}

static void root(void *arg) {
    (void)arg;
    rip_spawn(task_a, NULL);
    rip_spawn(task_b, NULL);
    rip_spawn(ends_holding, NULL);
    rip_spawn(locks_left, NULL);
    rip_mutex_lock(c);
    printf("root waits on a cond nobody signals\n");
    rip_cond_wait(never, c);
    printf("root woke (must not happen)\n");
}

int main(void) {
    a = rip_mutex_new(RIP_MUTEX_NORMAL);
    b = rip_mutex_new(RIP_MUTEX_NORMAL);
    c = rip_mutex_new(RIP_MUTEX_NORMAL);
    left = rip_mutex_new(RIP_MUTEX_NORMAL);
    never = rip_cond_new();
    int r = rip_run(root, NULL);
    printf("rip_run returned %d\n", r);
    return r == -1 ? 3 : 0;
}

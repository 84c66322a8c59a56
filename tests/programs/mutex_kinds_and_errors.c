/* checks: recursive depth, errorcheck EDEADLK and EPERM, trylock EBUSY, an unknown kind EINVAL, cond wait without the mutex EPERM */
/* threads: sorted */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <rip.h>

static rip_mutex *rec, *chk, *plain;
static rip_cond *cv;
static volatile int checked;        /* other has tried rec and chk while root holds them */

static const char *err(int r) {
    return r == 0 ? "0" : errno == EDEADLK ? "-1 EDEADLK" : errno == EPERM ? "-1 EPERM"
         : errno == EBUSY ? "-1 EBUSY" : strerror(errno);
}

static void other(void *arg) {
    (void)arg;
    printf("other: trylock recursive held by root: %s\n", err(rip_mutex_trylock(rec)));
    printf("other: unlock recursive held by root: %s\n", err(rip_mutex_unlock(rec)));
    printf("other: unlock errorcheck held by root: %s\n", err(rip_mutex_unlock(chk)));
    printf("other: lock recursive (waits for root's last unlock)\n");
    checked = 1;
    rip_mutex_lock(rec);
    printf("other: got recursive\n");
    rip_mutex_unlock(rec);
}

static void root(void *arg) {
    (void)arg;
    printf("lock recursive 3 times: %s", err(rip_mutex_lock(rec)));
    printf(" %s", err(rip_mutex_lock(rec)));
    printf(" %s\n", err(rip_mutex_trylock(rec)));
    printf("lock errorcheck: %s\n", err(rip_mutex_lock(chk)));
    printf("relock errorcheck: %s\n", err(rip_mutex_lock(chk)));
    printf("trylock errorcheck held: %s\n", err(rip_mutex_trylock(chk)));
    rip_spawn(other, NULL);
    while (!checked)                /* one yield on rip and ucontext */
        rip_yield();
    for (int i = 0; i < 3; i++) {
        printf("root unlocks recursive (%d left)\n", 2 - i);
        rip_mutex_unlock(rec);
        rip_yield();
    }
    printf("unlock recursive not held: %s\n", err(rip_mutex_unlock(rec)));
    printf("unlock errorcheck: %s\n", err(rip_mutex_unlock(chk)));
    printf("unlock errorcheck again: %s\n", err(rip_mutex_unlock(chk)));
    printf("cond wait without the mutex: %s\n", err(rip_cond_wait(cv, plain)));
    printf("trylock normal: %s\n", err(rip_mutex_trylock(plain)));
    printf("trylock normal again: %s\n", err(rip_mutex_trylock(plain)));
    rip_mutex_unlock(plain);
}

int main(void) {
    errno = 0;
    rip_mutex *bad = rip_mutex_new(7);
    printf("unknown kind: %s %s\n", bad ? "made" : "NULL", errno == EINVAL ? "EINVAL" : "?");
    rec = rip_mutex_new(RIP_MUTEX_RECURSIVE);
    chk = rip_mutex_new(RIP_MUTEX_ERRORCHECK);
    plain = rip_mutex_new(RIP_MUTEX_NORMAL);
    cv = rip_cond_new();
    int r = rip_run(root, NULL);
    rip_mutex_free(rec);
    rip_mutex_free(chk);
    rip_mutex_free(plain);
    rip_cond_free(cv);
    return r;
}

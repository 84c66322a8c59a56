/* checks: the task's deadline ends a mutex lock and a cond wait with ETIMEDOUT; the cond wait returns holding the mutex again, and when another task holds it at the deadline, only once that task unlocks (the relock is not cut short) */
#include <errno.h>
#include <stdio.h>
#include <rip.h>

static rip_mutex *mu;               /* errorcheck: unlock tells whether we hold it */
static rip_cond *cv;
static volatile int hogs_started;   /* hogs that began */
static volatile int hog_holds;      /* the hog has locked mu */
static volatile int root_unlocked;  /* the hog has unlocked mu */

static void hog(void *arg) {
    (void)arg;
    hogs_started++;
    rip_mutex_lock(mu);             /* root waits on cv; we take mu */
    hog_holds = 1;
    rip_sleep_ms(80);               /* past root's deadline */
    root_unlocked = 1;
    rip_mutex_unlock(mu);
}

static void root(void *arg) {
    (void)arg;
    rip_mutex_lock(mu);
    int64_t start = rip_now_ms();
    rip_set_deadline(start + 30);
    int r = rip_cond_wait(cv, mu);
    int e = errno;
    printf("cond wait: %d %s\n", r, e == ETIMEDOUT ? "ETIMEDOUT" : "?");
    printf("waited at least the deadline: %s\n", rip_now_ms() - start >= 30 ? "yes" : "no");
    printf("unlock (held again): %d\n", rip_mutex_unlock(mu));

    rip_spawn(hog, NULL);
    while (!hog_holds)              /* one yield on rip and ucontext */
        rip_yield();
    rip_set_deadline(rip_now_ms() + 20);
    r = rip_mutex_lock(mu);
    printf("lock while the hog holds it: %d %s\n", r, errno == ETIMEDOUT ? "ETIMEDOUT" : "?");
    rip_set_deadline(-1);
    rip_mutex_lock(mu);             /* after the hog */
    rip_mutex_unlock(mu);
    root_unlocked = 0;

    rip_mutex_lock(mu);
    rip_spawn(hog, NULL);
    while (hogs_started < 2)        /* one yield on rip and ucontext */
        rip_yield();
    rip_sleep_ms(10);               /* threads: the hog waits on mu, and gets it from our unlock */
    rip_set_deadline(rip_now_ms() + 30);
    r = rip_cond_wait(cv, mu);      /* the hog takes mu and keeps it past the deadline */
    e = errno;
    printf("cond wait while the hog holds the mutex: %d %s, after the hog unlocked: %s\n",
           r, e == ETIMEDOUT ? "ETIMEDOUT" : "?", root_unlocked ? "yes" : "no");
    printf("unlock (held again): %d\n", rip_mutex_unlock(mu));
    printf("deadline passed, mutex free: lock %d\n", rip_mutex_lock(mu));
    printf("deadline passed, cond wait: %d %s\n", rip_cond_wait(cv, mu), errno == ETIMEDOUT ? "ETIMEDOUT" : "?");
    printf("unlock (still held): %d\n", rip_mutex_unlock(mu));
}

int main(void) {
    mu = rip_mutex_new(RIP_MUTEX_ERRORCHECK);
    cv = rip_cond_new();
    int r = rip_run(root, NULL);
    rip_cond_free(cv);
    rip_mutex_free(mu);
    return r;
}

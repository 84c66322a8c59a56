/* offload.c -- rip_offload for the rip and ucontext backends: a blocking
 * function runs on a small pthread pool while its task waits and the
 * scheduler runs others.  A finished job goes on its scheduler's done list
 * and an eventfd wakes the loop, which calls drain (the eventfd is watched
 * like any event source: rip__loop_watch), and drain makes the task ready.
 * Pool threads start on demand, up to RIP_OFFLOAD_THREADS (default 4), and
 * block every signal. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>
#include "core.h"
#include "../shared/sys.h"

#define DEFAULT_THREADS 4

/* A scheduler's side: where the pool leaves its finished jobs. */
struct rip_offload_home {
    pthread_mutex_t mu;             /* guards the done list and the eventfd write */
    rip_job *head, *tail;           /* finished jobs, oldest first */
    int efd;                        /* eventfd in the scheduler's epoll set */
};

static __thread struct rip_offload_home *home; /* this scheduler's; made on its first offload */
static __thread long in_flight;     /* this scheduler's jobs not yet drained */
static __thread rip_job *flying;    /* those jobs, newest first (rip_dump_tasks) */

static void fly(rip_job *job) {
    job->fl_prev = NULL;
    if ((job->fl_next = flying))
        flying->fl_prev = job;
    flying = job;
}

static void land(rip_job *job) {
    if (job->fl_prev)
        job->fl_prev->fl_next = job->fl_next;
    else
        flying = job->fl_next;
    if (job->fl_next)
        job->fl_next->fl_prev = job->fl_prev;
}

static struct {
    pthread_mutex_t mu;             /* guards every field below */
    pthread_cond_t work;            /* signalled when a job is queued */
    rip_job *head, *tail;           /* jobs not yet taken, oldest first */
    int threads;                    /* pool threads started */
    int idle;                       /* of them, waiting for work */
    int queued;                     /* jobs not yet taken */
    int max;                        /* RIP_OFFLOAD_THREADS; 0 until read */
} pool = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, NULL, NULL, 0, 0, 0, 0 };

static void finished(rip_job *job) {
    struct rip_offload_home *h = job->home;
    uint64_t one = 1;
    rip__sys_pthread_mutex_lock(&h->mu);
    job->next = NULL;
    if (h->tail)
        h->tail->next = job;
    else
        h->head = job;
    h->tail = job;
    /* Written under the lock: the scheduler cannot drain, finish and close
     * efd before this write is done. */
    while (rip__sys_write(h->efd, &one, sizeof one) == -1 && errno == EINTR)
        ;
    rip__sys_pthread_mutex_unlock(&h->mu);
}

static void *pool_main(void *unused) {
    (void)unused;
    rip__sys_pthread_mutex_lock(&pool.mu);
    for (;;) {
        while (!pool.head) {
            pool.idle++;
            rip__sys_pthread_cond_wait(&pool.work, &pool.mu);
            pool.idle--;
        }
        rip_job *job = pool.head;
        if (!(pool.head = job->next))
            pool.tail = NULL;
        pool.queued--;
        rip__sys_pthread_mutex_unlock(&pool.mu);
        job->result = job->fn(job->arg);
        finished(job);
        rip__sys_pthread_mutex_lock(&pool.mu);
    }
    return NULL;
}

/* A new pool thread if every one is busy and there is room.  Lock held. */
static void grow_pool(void) {
    if (!pool.max) {
        const char *env = getenv("RIP_OFFLOAD_THREADS");
        pool.max = env && atoi(env) > 0 ? atoi(env) : DEFAULT_THREADS;
    }
    if (pool.queued <= pool.idle || pool.threads >= pool.max)
        return;                     /* (a signalled thread counts idle until it runs) */
    pthread_t t;
    pthread_attr_t attr;
    sigset_t all, old;
    sigfillset(&all);
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    rip__sys_pthread_sigmask(SIG_SETMASK, &all, &old);   /* inherited: signals stay with the schedulers */
    int err = rip__sys_pthread_create(&t, &attr, pool_main, NULL);
    rip__sys_pthread_sigmask(SIG_SETMASK, &old, NULL);
    pthread_attr_destroy(&attr);
    if (err == 0)
        pool.threads++;
    else if (pool.threads == 0)
        rip__fatal("cannot start an offload thread: %s", strerror(err));
}

static void drain(int fd, unsigned events, void *data);

/* The task's deadline came: a job no pool thread has taken yet is
 * dropped (fn never runs, nothing of it is lost); one running is waited
 * for, as its result is the caller's. */
static int cancel(rip_waiter *w, void *on, int key) {
    rip_job *job = on, *prev = NULL, *x;
    (void)w, (void)key;
    rip__sys_pthread_mutex_lock(&pool.mu);
    for (x = pool.head; x && x != job; x = x->next)
        prev = x;
    if (x) {
        if (prev)
            prev->next = x->next;
        else
            pool.head = x->next;
        if (pool.tail == x)
            pool.tail = prev;
        pool.queued--;
    }
    rip__sys_pthread_mutex_unlock(&pool.mu);
    if (!x)
        return 0;
    land(job);
    in_flight--;
    rip__loop_hold(-1);
    return 1;
}

/* fork(2) while a pool thread held the pool's lock would leave it held
 * in the child: the fork waits for it. */
static void before_fork(void) {
    rip__sys_pthread_mutex_lock(&pool.mu);
}

static void after_fork_in_parent(void) {
    rip__sys_pthread_mutex_unlock(&pool.mu);
}

/* The child has none of the pool's threads: it starts its own as needed;
 * the parent's queued jobs are the parent's tasks', gone here. */
static void after_fork_in_child(void) {
    rip__sys_pthread_mutex_init(&pool.mu, NULL);
    rip__sys_pthread_cond_init(&pool.work, NULL);
    pool.head = pool.tail = NULL;
    pool.threads = pool.idle = pool.queued = 0;
}

static void register_atfork(void) {
    pthread_atfork(before_fork, after_fork_in_parent, after_fork_in_child);
}

void rip__offload_forked(void) {
    if (home)
        close(home->efd);           /* the child's copy; its lock may be a pool thread's: left alone */
    home = NULL;
    in_flight = 0;
    flying = NULL;
}

void rip__offload_each(void (*fn)(rip_job *job, void *ctx), void *ctx) {
    for (rip_job *j = flying; j; j = j->fl_next)
        fn(j, ctx);
}

void rip__offload_counts(long *queued, long *busy, long *threads) {
    rip__sys_pthread_mutex_lock(&pool.mu);
    *queued = pool.queued;
    *threads = pool.threads;
    *busy = pool.threads - pool.idle;
    rip__sys_pthread_mutex_unlock(&pool.mu);
}

/* Queue job for the pool; 0, or -1 when there is no wakeup fd. */
static int queue(rip_job *job) {
    static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;
    rip__sys_pthread_once(&atfork_once, register_atfork);
    if (!home) {                    /* no fd or memory for a wakeup: the caller runs fn in place */
        struct rip_offload_home *h = calloc(1, sizeof *h);
        if (!h || (h->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) == -1) {
            free(h);
            return -1;
        }
        if (rip__loop_watch(h->efd, RIP_EV_READ, drain, NULL) == -1) {
            rip__sys_close(h->efd);
            free(h);
            return -1;
        }
        rip__sys_pthread_mutex_init(&h->mu, NULL);
        home = h;
    }
    job->task = rip__current();
    job->home = home;
    job->next = NULL;
    fly(job);
    in_flight++;
    rip__loop_hold(1);
    rip__sys_pthread_mutex_lock(&pool.mu);
    if (pool.tail)
        pool.tail->next = job;
    else
        pool.head = job;
    pool.tail = job;
    pool.queued++;
    grow_pool();
    rip__sys_pthread_cond_signal(&pool.work);
    rip__sys_pthread_mutex_unlock(&pool.mu);
    return 0;
}

int rip__offload_begin(rip_job *job) {
    if (queue(job) == -1)
        return -1;
    job->wait.task = job->task;
    job->wait.status = 0;
    rip__wait_limit(&job->wait, cancel, job, 0);
    return 0;
}

void *rip__offload_nested(void *(*fn)(void *), void *arg) {
    rip_job job = { .fn = fn, .arg = arg };
    if (queue(&job) == -1)
        return fn(arg);
    rip__park("a blocking call");   /* until drain readies it */
    return job.result;
}

/* The eventfd said jobs are done: ready their tasks. */
static void drain(int fd, unsigned events, void *data) {
    uint64_t count;
    (void)fd, (void)events, (void)data;
    rip_assert(home != NULL);
    rip__sys_pthread_mutex_lock(&home->mu);
    rip_job *job = home->head;
    home->head = home->tail = NULL;
    ssize_t n;
    while ((n = rip__sys_read(home->efd, &count, sizeof count)) == -1 && errno == EINTR)
        ;
    if (n == -1 && errno != EAGAIN)
        rip__fatal("eventfd read: %s", strerror(errno));
    rip__sys_pthread_mutex_unlock(&home->mu);
    while (job) {
        rip_job *next = job->next; /* the task may free job once it runs */
        land(job);
        in_flight--;
        rip__loop_hold(-1);
        rip__ready(job->task);      /* a nested job's task is parked: this ends its wait */
        job = next;
    }
}

void rip__offload_end(void) {
    if (!home)
        return;
    rip_assert(in_flight == 0);
    rip__loop_unwatch(home->efd);
    rip__sys_pthread_mutex_lock(&home->mu);  /* the last pool thread's write is done */
    rip__sys_pthread_mutex_unlock(&home->mu);
    rip__sys_pthread_mutex_destroy(&home->mu);
    rip__sys_close(home->efd);
    free(home);
    home = NULL;
}

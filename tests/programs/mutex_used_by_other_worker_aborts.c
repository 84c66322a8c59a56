/* checks: a mutex used from a worker other than the one that made it is a fatal error: the program aborts with a message that starts with "rip: " */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "rip.h"

static rip_mutex *made;             /* worker 0's mutex, once it exists */

static void work(void *arg) {
    (void)arg;
    if (rip_worker_id() == 0) {
        __atomic_store_n(&made, rip_mutex_new(RIP_MUTEX_NORMAL), __ATOMIC_SEQ_CST);
        return;
    }
    int64_t give_up = rip_now_ms() + 10000;
    while (!__atomic_load_n(&made, __ATOMIC_SEQ_CST) && rip_now_ms() < give_up)
        rip_sleep_ms(1);
    if (__atomic_load_n(&made, __ATOMIC_SEQ_CST))
        rip_mutex_lock(made);       /* worker 1 uses worker 0's mutex */
}

/* The workers run in a child whose stderr comes back through a pipe. */
int main(void) {
    char msg[256];
    size_t got = 0;
    ssize_t n;
    int status, err[2];
    if (pipe(err))
        return 1;
    fflush(stdout);
    pid_t child = fork();
    if (child == 0) {
        dup2(err[1], 2);
        close(err[0]);
        rip_run_workers(2, work, NULL);
        _exit(0);
    }
    close(err[1]);
    while (got < sizeof msg - 1 && (n = read(err[0], msg + got, sizeof msg - 1 - got)) > 0)
        got += (size_t)n;
    msg[got] = '\0';
    waitpid(child, &status, 0);
    printf("aborted: %s\n", WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT ? "yes" : "no");
    printf("message starts with \"rip: \": %s\n", strncmp(msg, "rip: ", 5) == 0 ? "yes" : "no");
    return 0;
}

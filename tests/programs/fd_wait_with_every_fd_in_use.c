/* checks: a task can still wait on an fd after the program has used up
 * every fd (the event loop's own fd is made when the scheduler starts) */
#include <stdio.h>
#include <sys/resource.h>
#include <unistd.h>
#include "rip.h"

static int fds[2];

static void writer(void *arg) {
    (void)arg;
    rip_sleep_ms(10);
    rip_write(fds[1], "ping", 4);
}

static void reader(void *arg) {
    int spare[64], n = 0;
    char buf[8] = "";
    (void)arg;
    struct rlimit lim;
    getrlimit(RLIMIT_NOFILE, &lim);
    lim.rlim_cur = 64;
    setrlimit(RLIMIT_NOFILE, &lim);
    while (n < 64 && (spare[n] = dup(0)) >= 0)
        n++;
    printf("fds used up: %s\n", n < 64 ? "yes" : "no");
    rip_spawn(writer, NULL);
    ssize_t got = rip_read(fds[0], buf, 4);
    printf("read %zd \"%s\"\n", got, got > 0 ? buf : "");
    while (n > 0)
        close(spare[--n]);
}

int main(void) {
    if (pipe(fds))
        return 1;
    return rip_run(reader, NULL);
}

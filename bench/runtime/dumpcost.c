/* dumpcost.c -- how long rip_dump_tasks takes with N tasks blocked (issue
 * 24's goal: 10^6 in under a second), each two async calls deep and on one
 * of four waits (a channel's receive, another's send, a wait group, a
 * sleep), written to a temporary file.
 *
 *     dumpcost N   ->   "dump 1000000 tasks in 412 ms, 118 MB written"
 */
#include <stdio.h>
#include <stdlib.h>
#include "rip.h"

static rip_chan *never, *full;
static rip_wg *wg;

RIP_ASYNC static void wait_on(long kind) {
    int x = 0;
    if (kind == 0)
        rip_chan_recv(never, &x);
    else if (kind == 1)
        rip_chan_send(full, &x);
    else if (kind == 2)
        rip_wg_wait(wg);
    else
        rip_sleep_ms(600000);
}
RIP_ASYNC static void level(long kind) {
    wait_on(kind);
}
static void task(void *arg) {
    level((long)arg);
}
static long tasks;

static void main_task(void *arg) {
    (void)arg;
    never = rip_chan_new(sizeof(int), 0);
    full = rip_chan_new(sizeof(int), 0);
    wg = rip_wg_new();
    rip_wg_add(wg, 1);
    for (long i = 0; i < tasks; i++)
        rip_spawn(task, (void *)(i % 4));
    rip_yield();
    FILE *out = tmpfile();
    if (!out) {
        perror("tmpfile");
        exit(1);
    }
    int64_t t0 = rip_now_ms();
    rip_dump_tasks(out);
    int64_t ms = rip_now_ms() - t0;
    printf("dump %ld tasks in %lld ms, %ld MB written\n", tasks, (long long)ms,
           ftell(out) >> 20);
    fflush(stdout);
    exit(0);                        /* the blocked tasks stay blocked */
}

int main(int argc, char **argv) {
    tasks = argc > 1 ? atol(argv[1]) : 1000000;
    return rip_run(main_task, NULL);
}

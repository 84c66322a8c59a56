/* threads: sorted */
/* checks: the order of rip_chan_select, identical on rip and ucontext: which of several ready cases is done follows a fixed sequence that reaches every case (no case starves), and selects waiting on one channel are served in the order they began waiting, each taking one value */
#include <stdio.h>
#include "rip.h"

static rip_chan *a, *b;

static void selector(void *arg) {
    int v = -1, w = -1;
    rip_chan_case k[2] = { { a, 0, &v, 0 }, { b, 0, &w, 0 } };
    int i = rip_chan_select(k, 2, -1);
    printf("selector %ld: case %d value %d\n", (long)arg, i, i == 1 ? w : v);
}

static void task(void *arg) {
    (void)arg;
    rip_chan *ready[3];
    int counts[3] = { 0, 0, 0 }, v;
    for (int i = 0; i < 3; i++) {
        ready[i] = rip_chan_new(sizeof(int), 64);
        for (int n = 0; n < 60; n++)
            rip_chan_try_send(ready[i], &n);
    }
    rip_chan_case k[3] = { { ready[0], 0, &v, 0 }, { ready[1], 0, &v, 0 }, { ready[2], 0, &v, 0 } };
    printf("choices:");
    for (int n = 0; n < 30; n++) {
        int i = rip_chan_select(k, 3, 0);
        counts[i]++;
        printf(" %d", i);
    }
    printf("\nevery case chosen: %s\n", counts[0] && counts[1] && counts[2] ? "yes" : "no");
    for (int i = 0; i < 3; i++)
        rip_chan_free(ready[i]);

    for (long t = 1; t <= 3; t++) {
        rip_spawn(selector, (void *)t);
        rip_sleep_ms(5);
    }
    for (int n = 0; n < 3; n++)
        rip_chan_send(b, &n);
}

int main(void) {
    a = rip_chan_new(sizeof(int), 0);
    b = rip_chan_new(sizeof(int), 0);
    int r = rip_run(task, NULL);
    rip_chan_free(a);
    rip_chan_free(b);
    return r;
}

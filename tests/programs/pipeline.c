/* checks: a chain of tasks linked by channels passes every value through each stage in order */
#include <stdio.h>
#include <rip.h>

#define STAGES 3

static rip_chan *chans[STAGES + 1];
static int stage_ids[STAGES];

static void producer(void *arg)
{
    (void)arg;
    for (int i = 1; i <= 5; i++)
        rip_chan_send(chans[0], &i);
    rip_chan_close(chans[0]);
}

static void stage(void *arg)
{
    int k = *(int *)arg;
    int v;
    int got = rip_chan_recv(chans[k], &v);
    while (got) {
        v = v * 2 + k;
        rip_chan_send(chans[k + 1], &v);
        got = rip_chan_recv(chans[k], &v);
    }
    rip_chan_close(chans[k + 1]);
}

static void root(void *arg)
{
    int v;
    int got;
    (void)arg;
    for (int k = 0; k < STAGES; k++) {
        stage_ids[k] = k;
        rip_spawn(stage, &stage_ids[k]);
    }
    rip_spawn(producer, NULL);
    got = rip_chan_recv(chans[STAGES], &v);
    while (got) {
        printf("out %d\n", v);
        got = rip_chan_recv(chans[STAGES], &v);
    }
    printf("pipeline closed\n");
}

int main(void)
{
    for (int k = 0; k <= STAGES; k++)
        chans[k] = rip_chan_new(sizeof(int), k % 2);
    if (rip_run(root, NULL) != 0)
        return 1;
    for (int k = 0; k <= STAGES; k++)
        rip_chan_free(chans[k]);
    return 0;
}

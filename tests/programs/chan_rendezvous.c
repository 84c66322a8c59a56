/* checks: a capacity-0 channel hands each value from sender to receiver in order */
/* threads: sorted */
#include <stdio.h>
#include <rip.h>

static rip_chan *ch;

static void sender(void *arg)
{
    int i;
    (void)arg;
    for (i = 1; i <= 4; i++) {
        int v = i * 10;
        printf("send %d\n", v);
        rip_chan_send(ch, &v);
        printf("sent %d\n", v);
    }
    rip_chan_close(ch);
}

static void root(void *arg)
{
    int v = 0;
    int got;
    int sum = 0;
    (void)arg;
    rip_spawn(sender, NULL);
    got = rip_chan_recv(ch, &v);
    while (got) {
        printf("recv %d\n", v);
        sum += v;
        got = rip_chan_recv(ch, &v);
    }
    printf("closed, sum %d\n", sum);
}

int main(void)
{
    ch = rip_chan_new(sizeof(int), 0);
    if (rip_run(root, NULL) != 0)
        return 1;
    rip_chan_free(ch);
    return 0;
}

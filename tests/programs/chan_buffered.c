/* checks: a buffered channel accepts capacity sends without a receiver, keeps FIFO order, and drains after close */
#include <stdio.h>
#include <rip.h>

static void root(void *arg)
{
    rip_chan *c = rip_chan_new(sizeof(long), 3);
    long v;
    int r;
    int i;
    (void)arg;
    for (i = 0; i < 3; i++) {
        v = 100 + i;
        r = rip_chan_send(c, &v);
        printf("send %ld -> %d\n", v, r);
    }
    rip_chan_close(c);
    v = 999;
    r = rip_chan_send(c, &v);
    printf("send after close -> %d\n", r);
    for (i = 0; i < 4; i++) {
        v = -1;
        r = rip_chan_recv(c, &v);
        printf("recv -> %d", r);
        if (r)
            printf(" value %ld", v);
        printf("\n");
    }
    rip_chan_free(c);
}

int main(void)
{
    return rip_run(root, NULL) == 0 ? 0 : 1;
}

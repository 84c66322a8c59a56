/* checks: closing a channel fails waiting senders with -1 and EPIPE; later sends fail at once the same way; receivers still drain the buffer */
/* threads: sorted */
#include <errno.h>
#include <stdio.h>
#include "rip.h"

static rip_chan *ch;
static rip_wg *senders;             /* the channel is freed after they are done with it */

static void sender(void *arg) {
    int v = (int)(long)arg;
    int r = rip_chan_send(ch, &v);
    printf("sender %d: %d %s\n", v, r, r == -1 && errno == EPIPE ? "EPIPE" : "");
    rip_wg_done(senders);
}

static void start(void *arg) {
    int v = 9, got;
    (void)arg;
    ch = rip_chan_new(sizeof(int), 1);
    senders = rip_wg_new();
    rip_wg_add(senders, 2);
    rip_chan_send(ch, &v);          /* fills the buffer */
    rip_spawn(sender, (void *)1L);  /* both wait: the buffer is full */
    rip_spawn(sender, (void *)2L);
    rip_yield();
    rip_chan_close(ch);
    rip_yield();
    int r = rip_chan_send(ch, &v);
    printf("send after close: %d %s\n", r, r == -1 && errno == EPIPE ? "EPIPE" : "");
    while (rip_chan_recv(ch, &got))
        printf("received %d\n", got);
    rip_wg_wait(senders);           /* on threads they may not even have started */
    rip_wg_free(senders);
    rip_chan_free(ch);
}

int main(void) {
    return rip_run(start, NULL);
}

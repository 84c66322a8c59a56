/* checks: closing a channel wakes every blocked receiver, each getting 0 */
/* threads: sorted */
#include <stdio.h>
#include <rip.h>

static rip_chan *ch;
static rip_wg *wg;
static int ids[3] = {1, 2, 3};

static void receiver(void *arg)
{
    int id = *(int *)arg;
    int v = 0;
    int r;
    printf("receiver %d waits\n", id);
    r = rip_chan_recv(ch, &v);
    printf("receiver %d woke with %d\n", id, r);
    rip_wg_done(wg);
}

static void root(void *arg)
{
    int i;
    (void)arg;
    rip_wg_add(wg, 3);
    for (i = 0; i < 3; i++)
        rip_spawn(receiver, &ids[i]);
    rip_sleep_ms(20);
    printf("closing\n");
    rip_chan_close(ch);
    rip_wg_wait(wg);
    printf("all receivers woke\n");
}

int main(void)
{
    ch = rip_chan_new(sizeof(int), 0);
    wg = rip_wg_new();
    if (rip_run(root, NULL) != 0)
        return 1;
    rip_chan_free(ch);
    rip_wg_free(wg);
    return 0;
}

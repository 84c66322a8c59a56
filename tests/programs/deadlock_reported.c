/* exit: 3 */
/* checks: when every task is blocked forever rip_run returns -1 (message on stderr) */
/* threads: sorted */
#include <stdio.h>
#include <rip.h>

static rip_chan *ch;

static void waiter(void *arg)
{
    int v;
    (void)arg;
    printf("waiter blocks on recv\n");
    rip_chan_recv(ch, &v);
    printf("waiter woke (must not happen)\n");
}

static void root(void *arg)
{
    int v = 1;
    (void)arg;
    rip_spawn(waiter, NULL);
    rip_yield();
    printf("root blocks on a wait group that never finishes\n");
    rip_wg_add((rip_wg *)arg, 1);
    rip_wg_wait((rip_wg *)arg);
    printf("root woke (must not happen) %d\n", v);
}

int main(void)
{
    rip_wg *wg = rip_wg_new();
    int r;
    ch = rip_chan_new(sizeof(int), 0);
    r = rip_run(root, wg);
    printf("rip_run returned %d\n", r);
    return r == -1 ? 3 : 0;
}

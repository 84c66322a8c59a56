/* checks: locals named like rip.h's functions (rip_yield, rip_sleep_ms,
 * rip_chan_recv) in one block, and the functions called in another block
 * of the same async function: the calls are the runtime's (ripper inlines
 * them or calls their constructors, rip__ names), the locals the program's */
#include <stdio.h>
#include <rip.h>
static int g(int x) { rip_yield(); return x + 1; }
static void root(void *arg)
{
    rip_chan *c = rip_chan_new(sizeof(int), 1);
    int v = 0;
    (void)arg;
    {
        int rip_yield = 3, rip_sleep_ms = 4, rip_chan_recv = 5;
        printf("%d %d %d\n", rip_yield, rip_sleep_ms, rip_chan_recv);
    }
    rip_yield();
    rip_sleep_ms(0);
    v = 7;
    rip_chan_send(c, &v);
    v = 0;
    rip_chan_recv(c, &v);
    {
        int rip_yield = g(10), rip_chan_send = v;
        printf("%d %d\n", rip_yield, rip_chan_send);
    }
    rip_chan_free(c);
}
int main(void) { return rip_run(root, NULL); }

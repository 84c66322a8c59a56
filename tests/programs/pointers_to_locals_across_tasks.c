/* checks: pointers to locals taken before a suspension stay valid after it: another task fills a local array received through a channel of pointers, and a struct local is updated through a pointer after rip_yield */
#include <stdio.h>
#include <rip.h>

struct counter {
    int hits;
    char tag[8];
};

static rip_chan *requests;      /* carries int * pointing into the requester's frame/stack */
static rip_chan *done;

static void filler(void *arg)
{
    int *slot;
    (void)arg;
    while (rip_chan_recv(requests, &slot)) {
        rip_yield();
        for (int k = 0; k < 4; k++)
            slot[k] = 100 + k * 11;
        int ok = 1;
        rip_chan_send(done, &ok);
    }
}

static void root(void *arg)
{
    int arr[4] = { 0, 0, 0, 0 };
    int *p = arr;
    int ok = 0;
    struct counter c = { 0, "cnt" };
    struct counter *pc = &c;
    int x = 5, *px = &x, **ppx = &px;
    (void)arg;
    requests = rip_chan_new(sizeof(int *), 0);
    done = rip_chan_new(sizeof(int), 0);
    rip_spawn(filler, NULL);
    rip_chan_send(requests, &p);
    rip_chan_recv(done, &ok);
    printf("filled through pointer: %d %d %d %d (ok=%d)\n", arr[0], arr[1], arr[2], arr[3], ok);
    printf("p still points at arr: %d\n", p == arr);
    for (int round = 0; round < 3; round++) {
        rip_yield();
        pc->hits += round + 1;
        pc->tag[3] = (char)('0' + round);
    }
    printf("struct through pointer: hits=%d tag=%s\n", c.hits, c.tag);
    rip_sleep_ms(1);
    **ppx = 77;
    printf("x through pointer to pointer: %d\n", x);
    rip_chan_close(requests);   /* the filler's loop ends; channels are left to the process exit */
}

int main(void)
{
    return rip_run(root, NULL);
}

/* checks: a function-like macro expanding to one async call used as a statement, an initializer and a condition; a macro naming a caller's local; stringifying a local after a suspension; assert() after a suspension */
#include <assert.h>
#include <stdio.h>
#include <rip.h>

#define RECV(c, v) rip_chan_recv(c, &v)
#define SEND(c, v) rip_chan_send(c, &v)
#define SHOW(x) printf(#x " = %d\n", x)
#define BUMP() (total += 10)           /* names the caller's local `total` */
#define PAUSE() rip_yield()
#define TWICE(e) ((e) * 2)

static rip_chan *ch;

static void producer(void *arg)
{
    (void)arg;
    for (int i = 1; i <= 4; i++)
        SEND(ch, i);
    rip_chan_close(ch);
}

static void root(void *arg)
{
    int v = 0, total = 0;
    (void)arg;
    ch = rip_chan_new(sizeof(int), 0);
    rip_spawn(producer, NULL);
    RECV(ch, v);                        /* as a statement */
    SHOW(v);
    int ok = RECV(ch, v);               /* as an initializer */
    SHOW(ok);
    SHOW(v);
    BUMP();
    PAUSE();
    SHOW(total);
    while (RECV(ch, v)) {               /* as a loop condition */
        total += v;
        PAUSE();
        BUMP();
    }
    SHOW(total);
    SHOW(TWICE(total));
    ok = RECV(ch, v);                   /* closed and empty */
    assert(ok == 0);
    assert(total == 37 && v == 4);
    SHOW(ok + total);
    printf("%s\n", "RECV(ch, v) in a string is just text");
}

int main(void)
{
    return rip_run(root, NULL);
}

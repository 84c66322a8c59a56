/* threads: sorted */
/* checks: timers begun in deadline order (kept in a list) and out of it
 * (kept in a heap) wake together by deadline, ties in the order the
 * sleeps began, whichever structure holds them */
#include <stdio.h>
#include <rip.h>

struct sleeper { const char *name; int ms; };

static struct sleeper sleepers[] = {
    { "a", 30 }, { "b", 10 }, { "c", 30 }, { "d", 10 }, { "e", 20 }, { "f", 30 }, { "g", 0 },
};

static void sleeper(void *arg)
{
    struct sleeper *s = arg;
    rip_sleep_ms(s->ms);
    printf("%s woke (%d ms)\n", s->name, s->ms);
}

static void root(void *arg)
{
    (void)arg;
    for (size_t i = 0; i < sizeof sleepers / sizeof *sleepers; i++)
        rip_spawn(sleeper, &sleepers[i]);   /* each starts its sleep in this order */
}

int main(void)
{
    return rip_run(root, NULL);
}

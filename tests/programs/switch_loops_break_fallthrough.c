/* checks: switch cases containing loops with suspensions and break (break leaves only the loop), continue in a loop inside a case, and fallthrough into the next case after a suspension */
#include <stdio.h>
#include <rip.h>

RIP_ASYNC static int slow(int v)
{
    rip_yield();
    return v;
}

static int run(int cmd)
{
    int r = 0;
    switch (cmd) {
    case 0:
        for (int i = 0; i < 10; i++) {
            r += slow(i);
            if (i == 3)
                break;              /* leaves the for, not the switch */
        }
        printf("  case 0 after loop r=%d\n", r);
        r += 1000;
        break;
    case 1:
        while (slow(r) < 50) {
            r += 20;
            if (r == 40)
                continue;
        }
        printf("  case 1 after loop r=%d\n", r);
        rip_yield();
        /* fall through */
    case 2:
        r += 2;
        do {
            rip_sleep_ms(1);
            if (++r % 5 == 0)
                break;
        } while (1);
        printf("  case 2 after loop r=%d\n", r);
        break;
    case 3:
        r = slow(3);
        /* fall through */
    default:
        if (r == 0)
            r = cmd;
        for (;;) {
            switch (slow(r)) {      /* a nested switch: its break leaves only it */
            case 3:
                r = 4;
                break;
            default:
                r *= 10;
            }
            if (r > 100)
                break;
        }
        r = -r;
    }
    return r;
}

static void root(void *arg)
{
    (void)arg;
    for (int cmd = 0; cmd < 5; cmd++)
        printf("run(%d) = %d\n", cmd, run(cmd));
}

int main(void)
{
    return rip_run(root, NULL);
}

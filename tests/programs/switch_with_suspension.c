/* checks: switch with suspension points inside cases, fallthrough, default and break */
#include <stdio.h>
#include <rip.h>

static int slow_double(int v)
{
    rip_yield();
    return v * 2;
}

static int handle(int cmd)
{
    int r = 0;
    switch (cmd) {
    case 0:
        r = slow_double(21);
        break;
    case 1:
        rip_yield();
        r = 10;
        /* fall through */
    case 2:
        rip_sleep_ms(1);
        r += 5;
        break;
    case 3: {
        int inner = slow_double(cmd);
        r = inner + 100;
        break;
    }
    default:
        rip_yield();
        r = -cmd;
    }
    return r;
}

static void root(void *arg)
{
    (void)arg;
    for (int cmd = 0; cmd < 6; cmd++) {
        int r = handle(cmd);
        printf("handle(%d) = %d\n", cmd, r);
    }
}

int main(void)
{
    return rip_run(root, NULL);
}

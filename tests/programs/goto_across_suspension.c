/* checks: goto forwards and backwards across suspension points, including a retry loop */
#include <stdio.h>
#include <rip.h>

static int attempts;

static int try_once(void)
{
    rip_yield();
    attempts++;
    return attempts >= 3;
}

static void root(void *arg)
{
    int ok;
    int i = 0;
    (void)arg;
retry:
    ok = try_once();
    printf("attempt %d: %s\n", attempts, ok ? "ok" : "failed");
    if (!ok)
        goto retry;

again:
    if (i >= 4)
        goto done;
    rip_yield();
    if (i == 1) {
        i += 2;
        goto again;
    }
    printf("i=%d\n", i);
    i++;
    goto again;

done:
    rip_sleep_ms(1);
    printf("done with i=%d\n", i);
}

int main(void)
{
    return rip_run(root, NULL);
}

/* checks: goto forward to a shared cleanup label from several places after suspensions, goto backward for a retry, and goto out of nested loops */
#include <stdio.h>
#include <stdlib.h>
#include <rip.h>

static int flaky_calls;

RIP_ASYNC static int flaky(int fail_times)
{
    rip_yield();
    return ++flaky_calls > fail_times;
}

RIP_ASYNC static int step(int v)
{
    rip_sleep_ms(1);
    return v;
}

static int work(int fail_at, int flaky_fails)
{
    int status = -1, tries = 0;
    char *buf = malloc(16);
    if (!buf)
        return -2;
    flaky_calls = 0;
retry:
    tries++;
    if (!flaky(flaky_fails)) {
        if (tries < 5)
            goto retry;
        goto cleanup;
    }
    if (step(fail_at) == 1)
        goto cleanup;
    for (int i = 0; i < 3; i++) {
        for (int j = 0; j < 3; j++) {
            if (step(i * 3 + j) == fail_at)
                goto cleanup;       /* out of both loops */
        }
    }
    status = 0;
cleanup:
    rip_yield();
    printf("  cleanup: fail_at=%d flaky_fails=%d tries=%d status=%d\n", fail_at, flaky_fails, tries, status);
    free(buf);
    return status;
}

static void root(void *arg)
{
    int n = 0;
    (void)arg;
    printf("work(1, 1) = %d\n", work(1, 1));
    printf("work(5, 0) = %d\n", work(5, 0));
    printf("work(99, 2) = %d\n", work(99, 2));
    printf("work(99, 9) = %d\n", work(99, 9));
back:
    n = step(n + 1);
    if (n < 3)
        goto back;
    printf("backward goto counted to %d\n", n);
}

int main(void)
{
    return rip_run(root, NULL);
}

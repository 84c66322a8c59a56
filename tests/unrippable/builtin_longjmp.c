/* error: '__builtin_longjmp' in async function */
#include <stdio.h>
#include <rip.h>
static void *buf[5];
static void root(void *arg)
{
    (void)arg;
    rip_yield();
    __builtin_longjmp(buf, 1);
}
int main(void)
{
    if (__builtin_setjmp(buf)) {
        puts("back");
        return 0;
    }
    return rip_run(root, NULL);
}

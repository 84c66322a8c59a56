/* error: '__builtin_setjmp' in async function */
#include <stdio.h>
#include <rip.h>
static void *buf[5];
static void root(void *arg)
{
    (void)arg;
    if (__builtin_setjmp(buf) == 0) {
        rip_yield();
        __builtin_longjmp(buf, 1);
    }
    puts("back");
}
int main(void) { return rip_run(root, NULL); }

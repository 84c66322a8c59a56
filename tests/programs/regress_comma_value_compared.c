/* checks: (async call, x) != x rips into code gcc -Wall -Wextra has nothing to say about: no self-comparison appears (gen_async fuzz regression) */
#include <stdio.h>
#include <rip.h>
static void root(void *arg)
{
    unsigned x = 3u;
    (void)arg;
    if ((rip_yield(), x) != x)
        printf("different\n");
    else
        printf("same %u\n", (rip_sleep_ms(0), x) == x);
}
int main(void) { return rip_run(root, NULL); }

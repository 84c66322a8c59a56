/* error: 'rip__x' is a name ripper reserves */
/* rip.h reserves every name starting rip__ for ripper's own: a user's
 * name there is refused, with a note that says so */
#include <stdio.h>
#include <rip.h>
static void root(void *arg)
{
    int rip__x = 1;
    (void)arg;
    rip_yield();
    printf("%d\n", rip__x);
}
int main(void) { return rip_run(root, NULL); }

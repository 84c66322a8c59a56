/* error: name ripper reserves */
#include <stdio.h>
#include <rip.h>
static void *rip_c;
static void root(void *arg)
{
    (void)arg;
    rip_yield();
    puts(rip_c ? "set" : "unset");
}
int main(void) { return rip_run(root, NULL); }

/* checks: a compound literal whose address is kept across a suspension lives in the frame (compound_literal_address_in_parens) */
/* threads: sorted */
#include <stdio.h>
#include <string.h>
#include <rip.h>

struct pair { int a, b; };

static void scribble(void *arg)
{
    volatile char junk[4096];
    (void)arg;
    memset((char *)junk, 0x5a, sizeof junk);
    printf("scribbled %d\n", junk[100]);
}

static void root(void *arg)
{
    struct pair *p;
    (void)arg;
    p = &((struct pair){ 11, 22 });
    rip_spawn(scribble, NULL);
    rip_yield();
    printf("a %d b %d\n", p->a, p->b);
}

int main(void) { return rip_run(root, NULL); }

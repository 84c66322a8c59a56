/* checks: a goto out of a GNU statement expression (the TRY idiom) is a control-flow edge: a local live only along it survives the suspension before it */
#include <stdio.h>
#include <rip.h>

#define TRY(x) ({ if ((x) < 0) goto fail; (x); })

static int check(int v) { return v; }

static void root(void *arg)
{
    int code = (int)(long)arg + 7;   /* read only after the goto */
    int r;
    rip_yield();
    r = TRY(check(-1));
    printf("not reached %d\n", r);
    return;
fail:
    printf("failed with code %d\n", code);
}

int main(void) { return rip_run(root, NULL); }

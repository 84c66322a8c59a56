/* checks: a frame pointer to a block-local struct S keeps the inner type even when the file-scope struct S it shadows was spelled the same way before */
#include <stdio.h>
#include <stdlib.h>
#include <rip.h>

struct S { int a; };
static struct S *global_s;

static void root(void *arg)
{
    (void)arg;
    global_s = NULL;
    {
        struct S { char tag[8]; int a; };
        struct S *p = calloc(1, sizeof *p);
        p->a = 5;
        rip_yield();
        printf("a %d sizeof %zu\n", p->a, sizeof *p);
        free(p);
    }
}

int main(void) { return rip_run(root, NULL); }

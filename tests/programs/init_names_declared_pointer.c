/* checks: an async call in an initializer that names the variable being declared (p = alloc(sizeof *p)) sees that variable, not an outer one of the same name */
#include <stdio.h>
#include <stdlib.h>
#include <rip.h>

struct node { long value; struct node *next; };

static void *alloc(size_t size)
{
    rip_yield();
    printf("alloc %zu\n", size);
    return calloc(1, size);
}

static char *p = "outer";

static void root(void *arg)
{
    (void)arg;
    printf("%s\n", p);
    {
        struct node *p = alloc(sizeof *p);
        p->value = 7;
        printf("value %ld\n", p->value);
        free(p);
    }
}

int main(void) { return rip_run(root, NULL); }

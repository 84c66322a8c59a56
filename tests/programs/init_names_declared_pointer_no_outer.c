/* checks: an async call in an initializer that names the variable being declared, with no other variable of that name and not kept in the frame, compiles and sees the new variable */
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

static void root(void *arg)
{
    struct node *head = alloc(sizeof *head);
    (void)arg;
    head->value = 3;
    printf("value %ld\n", head->value);
    free(head);
}

int main(void) { return rip_run(root, NULL); }

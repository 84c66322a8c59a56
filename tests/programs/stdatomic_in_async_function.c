/* checks: <stdatomic.h> included, and atomics used in an async function that suspends between them */
#include <stdatomic.h>
#include <stdio.h>
#include <rip.h>

static atomic_int shared;

static void root(void *arg)
{
    int i;
    (void)arg;
    for (i = 0; i < 3; i++) {
        atomic_fetch_add(&shared, 2);
        rip_yield();
    }
    printf("shared %d\n", atomic_load(&shared));
}

int main(void) { return rip_run(root, NULL); }

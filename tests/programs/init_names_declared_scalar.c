/* checks: an async call in a scalar's initializer that names the variable being declared (its size) sees that variable, not the outer one it shadows */
#include <stdio.h>
#include <rip.h>

static long echo(long v)
{
    rip_yield();
    return v;
}

static void root(void *arg)
{
    char n = 'n';
    (void)arg;
    printf("outer %c\n", n);
    {
        long n = echo((long)sizeof n);
        printf("inner %ld\n", n);
    }
}

int main(void) { return rip_run(root, NULL); }

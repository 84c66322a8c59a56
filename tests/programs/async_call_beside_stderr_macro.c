/* checks: fprintf(stderr, "%d\n", f()): an async call as an argument beside an operand that is a macro (glibc's stderr) */
#include <stdio.h>
#include <rip.h>

static int value(int v)
{
    rip_yield();
    return v;
}

static void root(void *arg)
{
    int n;
    (void)arg;
    n = fprintf(stderr, "%d\n", value(430));
    printf("wrote %d bytes to stderr\n", n);
}

int main(void) { return rip_run(root, NULL); }

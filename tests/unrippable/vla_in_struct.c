/* error: variable-length array in a struct */
#include <stdio.h>
#include <rip.h>
static void root(void *arg)
{
    int n = 3;
    struct { int len; int v[n]; } s;
    (void)arg;
    s.len = n;
    s.v[n - 1] = 7;
    rip_yield();
    printf("%d %d\n", s.len, s.v[n - 1]);
}
int main(void) { return rip_run(root, NULL); }

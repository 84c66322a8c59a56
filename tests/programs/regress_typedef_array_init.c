/* checks: a typedef'd array local initialized with a brace list (review regression) */
#include <stdio.h>
#include <rip.h>
typedef int vec3[3];
static void root(void *arg)
{
    vec3 v = {1, 2, 3};
    (void)arg;
    rip_yield();
    printf("%d\n", v[2]);
}
int main(void) { return rip_run(root, NULL); }

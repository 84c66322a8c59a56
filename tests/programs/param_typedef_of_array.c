/* checks: a parameter whose type is a typedef of an array type (it decays to a pointer) is kept across a suspension */
#include <stdio.h>
#include <rip.h>

typedef int vec3[3];

static int sum(vec3 v)
{
    rip_yield();
    return v[0] + v[1] + v[2];
}

static void root(void *arg)
{
    vec3 a = { 1, 2, 3 };
    (void)arg;
    printf("sum %d\n", sum(a));
}

int main(void) { return rip_run(root, NULL); }

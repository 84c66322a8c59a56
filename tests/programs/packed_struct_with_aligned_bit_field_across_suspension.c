/* checks: a block-scope struct gcc lays out otherwise than clang (#pragma pack, an aligned bit-field) lives in the frame across suspensions, whole */
#include <stdio.h>
#include <string.h>
#include <rip.h>

static void root(void *arg)
{
#pragma pack(push, 1)
    struct P { int x : 12; char y : 6; long long z : 63;
               __attribute__((aligned(16))) char a : 4; long long b : 2; };
#pragma pack(pop)
    struct P p, *q;
    (void)arg;
    memset(&p, 0, sizeof p);
    p.x = 5; p.y = -3; p.z = 1234567; p.a = 6; p.b = 1;
    q = &(struct P){ 1, 2, 3, 4, 1 };
    rip_yield();
    printf("%d %d %d %lld %d %lld\n", (int)sizeof p, p.x, p.y, (long long)p.z, p.a, (long long)p.b);
    rip_yield();
    printf("%d %d %lld %d %lld\n", q->x, q->y, (long long)q->z, q->a, (long long)q->b);
}

int main(void) { return rip_run(root, NULL); }

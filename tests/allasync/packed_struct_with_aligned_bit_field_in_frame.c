/* checks: a block-scope struct that gcc lays out otherwise than clang (#pragma pack with aligned bit-fields: gcc 12 bytes, clang 11) kept in the frame across calls, as a variable and as a compound literal whose address is kept */
/* cflags: -Wall -Wextra -Werror */
/* cflags: -std=gnu99 -pedantic -Wall -Wextra -Werror */
#include <stdio.h>
#include <string.h>

static int bump(int x) { return x + 1; }

int main(void)
{
#pragma pack(push, 1)
    struct P { int x : 12; char y : 6; long long z : 63;
               __attribute__((aligned(16))) char a : 4; long long b : 2; };
    union U { struct P p; short s : 5 __attribute__((aligned(4))); };
#pragma pack(pop)
    struct P p, arr[2], *q;
    union U u;
    int k;
    memset(&p, 0, sizeof p);
    memset(arr, 0, sizeof arr);
    memset(&u, 0, sizeof u);
    p.x = 5; p.y = -3; p.z = 1234567; p.a = 6; p.b = 1;
    arr[1].z = -7;
    u.s = 9;
    q = &(struct P){ 1, 2, 3, 4, 1 };
    k = bump(p.a);
    printf("%d %d %d\n", (int)sizeof p, (int)sizeof arr, (int)sizeof u);
    printf("%d %d %lld %d %lld %d\n", p.x, p.y, (long long)p.z, p.a, (long long)p.b, k);
    printf("%d %d %lld %d %lld\n", q->x, bump(q->y), (long long)q->z, q->a, (long long)q->b);
    k = bump(0);
    printf("%lld %d\n", (long long)arr[k].z, bump(u.s));
    return 0;
}

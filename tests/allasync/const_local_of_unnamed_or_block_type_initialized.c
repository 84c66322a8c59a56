/* checks: a const local of an unnamed or block-declared struct/union type, with an initializer, kept in the frame across calls (lz4's and xxhash's endianness probe) */
/* cflags: -Wall -Wextra -Werror */
#include <stdio.h>

static int twice(int x) { return 2 * x; }

static int little_endian(void)
{
    const union { unsigned u; unsigned char c[4]; } one = { 1 };
    int k = twice(1);
    return one.c[0] * k / 2;
}

int main(void)
{
    struct S { int a, b; };
    const struct S s = { 3, twice(2) };
    const struct S copy = s;
    const struct { const char *name; short w[2]; } named = { "n", { 7, 8 } };
    int k = twice(s.a);
    printf("%d %d %d %d\n", little_endian(), s.a, s.b, k);
    printf("%d %d %s %d %d\n", copy.a, twice(copy.b), named.name, named.w[0], twice(named.w[1]));
    printf("%d %d\n", (int)sizeof s, (int)sizeof named);
    return 0;
}

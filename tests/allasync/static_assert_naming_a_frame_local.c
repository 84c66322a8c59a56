/* A block-scope _Static_assert that names a local the frame keeps
 * (xxHash's XXH_STATIC_ASSERT(sizeof(acc) == 64)): its operands name the
 * frame's field, and it is still a constant expression. */
#include <stdio.h>

static int sum(unsigned long long *a, int n)
{
    int s = 0;
    while (n--)
        s += (int)a[n];
    return s;
}

int main(void)
{
    unsigned long long acc[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    int s = sum(acc, 8);
    do {
        _Static_assert(sizeof(acc) == 64, "size");
    } while (0);
    _Static_assert(sizeof acc[0] == 8 && sizeof(s) == sizeof(int), "element");
    s += sum(acc, 4);
    printf("%d %llu\n", s, acc[7]);
    return 0;
}

/* Frame variables whose type wraps a block's type or typedef: _Atomic(struct
 * s) of a block's struct s that hides the file's, _Atomic(T) and a vector of
 * T, T a block's typedef that hides the file's.  The frame (at file scope)
 * spells each as the block means it: not the file's struct s, nor char. */
#include <stdio.h>

struct s { char c; };
typedef char T;

static int id(int x) { return x; }

int main(void)
{
    struct s { int a, b; };
    typedef long long T;
    _Atomic(struct s) as;
    _Atomic(T) at = (T)1 << 40;
    T __attribute__((vector_size(16))) vv = { (T)1 << 41, 3 };
    struct s tmp = { 1 << 20, 2 };
    as = tmp;
    at += id(1);
    vv[1] += id(2);
    tmp = as;
    printf("%d %d %zu\n", tmp.a, tmp.b, sizeof as);
    printf("%lld %zu\n", (long long)at, sizeof at);
    printf("%lld %lld %zu\n", (long long)vv[0], (long long)vv[1], sizeof vv);
    return 0;
}

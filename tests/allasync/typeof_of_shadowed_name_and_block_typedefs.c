/* checks: `__typeof__(*p)` is the type of the `p` its own block sees, not of another block's `p`, and a typedef declared in a block is that block's own, for variables kept across calls (the frame spells their types at file scope): issue 20 */
/* cflags: -Wall -Wextra -Werror */
#include <stdio.h>

static int twice(int x) { return 2 * x; }
static double half(double x) { return x / 2; }

int main(void)
{
    int i = 5;
    float f = 2.5f;
    {
        int *p = &i;
        {
            float *p = &f;
            __typeof__(*p) q = *p;
            __typeof__(p) pq = p;
            q += (float)half(twice(1));
            printf("%g %g\n", q, *pq);
        }
        {
            double p[3] = {0.25, 0.5, 0.75};
            __typeof__(p[0]) d = half(p[1]);
            __typeof__(p) arr = {1.5, 2.5, 3.5};
            d += twice((int)arr[2]);
            printf("%g %g\n", d, arr[1]);
        }
        __typeof__(*p) n = twice(*p);
        printf("%d %d\n", n, *p);
    }
    {
        typedef float T;
        T t = (T)half(7);
        {
            typedef short T;
            T s = (T)twice(-3);
            printf("%d %zu\n", s, sizeof s);
            {
                typedef long T;
                { T T = twice(4); printf("%ld %zu\n", T, sizeof T); }
            }
        }
        printf("%g %zu\n", t, sizeof t);
    }
    {
        typedef char T[5];
        T name = "abcd";
        T *pn = &name;
        twice(1);
        printf("%s %zu\n", *pn, sizeof name);
    }
    {
        typedef int T;
        int s = 0;
        for (T k = 0; k < 3; k++)
            s += twice(k);
        printf("%d\n", s);
    }
    return 0;
}

/* checks: types ripper writes are those of the declarations they stand for: `__typeof__(*p)` of a shadowed `p`, two atomic_loads of different types in one function, and a block's typedef, all kept across real suspensions */
#include <stdio.h>
#include <stdatomic.h>
#include <rip.h>

static int value(int v)
{
    rip_yield();
    return v;
}

static void root(void *arg)
{
    _Atomic int ai = 5;
    _Atomic float af = 2.5f;
    int i = atomic_load(&ai);
    float f;
    (void)arg;
    rip_yield();
    f = atomic_load(&af);
    printf("%d %g\n", i, f);
    {
        int *p = &i;
        {
            float *p = &f;
            __typeof__(*p) q = *p;
            rip_yield();
            q += (float)value(1);
            printf("%g\n", q);
        }
        {
            __typeof__(*p) n = *p;
            n += value(2);
            printf("%d\n", n);
        }
    }
    {
        typedef double T;
        T t = value(3) / 2.0;
        {
            typedef short T;
            T s = (T)value(-4);
            rip_yield();
            printf("%d %zu\n", s, sizeof s);
        }
        printf("%g %zu\n", t, sizeof t);
    }
}

int main(void) { return rip_run(root, NULL); }

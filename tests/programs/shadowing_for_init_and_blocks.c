/* checks: names shadowed across suspensions: a for-init variable shadowing an outer one of the same name, nested loops both named i, and sibling blocks reusing a name */
#include <stdio.h>
#include <rip.h>

RIP_ASYNC static int id(int v)
{
    rip_yield();
    return v;
}

static void root(void *arg)
{
    int i = 42;
    int n = 7;
    (void)arg;
    for (int i = id(0); i < 2; i++) {
        rip_yield();
        for (int i = 10; i < 12; i = id(i + 1)) {
            int n = i * 100;
            rip_yield();
            printf("inner i=%d n=%d\n", i, n);
        }
        printf("middle i=%d n=%d\n", i, n);
    }
    printf("outer i=%d n=%d\n", i, n);
    {
        long i = 5000000000L;
        rip_yield();
        {
            int n = id(3);
            printf("block long i=%ld n=%d\n", i, n);
        }
        printf("block n=%d\n", n);
    }
    {
        const char *i = "sibling";
        int n = id(-1);
        printf("sibling block i=%s n=%d\n", i, n);
    }
    for (i = 0; i < 2; i++) {
        int n = id(i) + 1000;
        rip_yield();
        printf("reused outer i=%d n=%d\n", i, n);
    }
    printf("end i=%d n=%d\n", i, n);
}

int main(void)
{
    return rip_run(root, NULL);
}

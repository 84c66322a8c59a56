/* checks: unions passed to and returned from async functions by value, and a 100+ byte struct returned by value through two levels of async calls */
#include <stdio.h>
#include <string.h>
#include <rip.h>

union num {
    int i;
    float f;
    unsigned char bytes[8];
};

struct big {
    char name[64];
    long values[10];
    int count;
};

RIP_ASYNC static union num widen(union num u, int as_float)
{
    union num r;
    rip_yield();
    memset(&r, 0, sizeof r);
    if (as_float)
        r.f = u.f * 2.0f;
    else
        r.i = u.i * 2;
    return r;
}

RIP_ASYNC static struct big make_big(const char *name, int n)
{
    struct big b;
    memset(&b, 0, sizeof b);
    rip_yield();
    snprintf(b.name, sizeof b.name, "%s", name);
    for (int k = 0; k < n && k < 10; k++) {
        b.values[k] = (long)k * k * 1000003L;
        rip_yield();
    }
    b.count = n;
    return b;
}

RIP_ASYNC static struct big relabel(int n)
{
    struct big b = make_big("inner", n);
    rip_sleep_ms(1);
    strcat(b.name, "+outer");
    b.values[9] = -1;
    return b;
}

static void root(void *arg)
{
    union num u, v;
    (void)arg;
    printf("sizeof(struct big) = %zu\n", sizeof(struct big));
    u.i = 21;
    v = widen(u, 0);
    printf("widen int: %d\n", v.i);
    u.f = 1.25f;
    v = widen(widen(u, 1), 1);
    printf("widen float twice: %.2f\n", (double)v.f);
    printf("bytes[7] stays zero: %d\n", widen(u, 0).bytes[7]);
    struct big b = relabel(6);
    printf("%s count=%d\n", b.name, b.count);
    for (int k = 0; k < 10; k++)
        printf(" %ld", b.values[k]);
    printf("\n");
    printf("direct field: %ld\n", relabel(4).values[3]);
}

int main(void)
{
    return rip_run(root, NULL);
}

/* Static locals under --all-async whose declaration declares a type that
 * cannot move to file scope with them and mean the same there: its tag or
 * enumerator is also an outer block's (which would then hide it in the
 * function) or file scope's (a redefinition), or its members name a block's
 * typedef (file scope's L would take its place), or another function's
 * moved there declares it too; nor can a static of a block's typedef.  Those functions stay plain; one whose type moves
 * cleanly is still ripped. */
#include <stdio.h>

struct T { double x; char name[40]; };
typedef char L;

static int twice(int x) { return 2 * x; }

static int outer_tag(int k)
{
    struct T { char c[100]; };
    {
        static struct T { int a, b; } t = { 1, 2 };
        t.a += twice(k);
        printf("%d %d %zu\n", t.a, t.b, sizeof(struct T));
    }
    return (int)sizeof(struct T);
}

static int file_tag(int k)
{
    static struct T { int a, b; } t = { 3, 4 };
    t.b += twice(k);
    return t.b + (int)sizeof(struct T);
}

static int outer_enumerator(int k)
{
    enum { A = 5 };
    {
        static enum { A = 7, B } e;
        printf("%d %d %d\n", A, (int)e, twice(k));
        e = B;
    }
    return A;
}

static int block_typedef_member(int k)
{
    typedef long long L;
    static struct W { int a; L big; } w = { 1, 1LL << 40 };
    w.big += twice(k);
    printf("%lld %zu\n", (long long)w.big, sizeof w);
    return w.a;
}

static int block_typedef_static(int k)
{
    typedef long long L;
    static L v = 1LL << 40;
    v += twice(k);
    printf("%lld %zu\n", (long long)v, sizeof v);
    return 0;
}

static int first_enum(int k)
{
    static enum { IDLE, BUSY } state;
    state = state == IDLE ? BUSY : IDLE;
    return (int)state + twice(k);
}

static int second_enum(int k)
{
    static enum { OFF, BUSY } mode;
    mode = mode == BUSY ? OFF : BUSY;
    return (int)mode * 3 + twice(k);
}

static int moves_cleanly(int k)
{
    static struct node { struct node *next; int v; } nodes[] = { { &nodes[1], 1 }, { 0, 2 } };
    nodes[1].v += twice(k);
    return nodes[0].next->v;
}

int main(void)
{
    int i, sum = 0;
    for (i = 0; i < 2; i++) {
        sum += outer_tag(i);
        sum += file_tag(i);
        sum += outer_enumerator(i);
        sum += block_typedef_member(i);
        sum += block_typedef_static(i);
        sum += first_enum(i) + second_enum(i);
        sum += moves_cleanly(i);
    }
    printf("%d\n", sum);
    return 0;
}

/* Static locals under --all-async that cannot move to file scope (where
 * the plain and the ripped definition would share them) and mean the same
 * there: one whose declaration declares a type whose tag or enumerator is
 * also an outer block's (which would then hide it in the function), file
 * scope's (a redefinition) or another moved function's, or whose members
 * name a block's typedef or enumerator (file scope's L and N would take
 * their places); one of a
 * block's typedef; one whose initializer names its own function, which
 * nothing declares before it.  Those functions stay plain; the others
 * (a self-referencing table, an enum, a prototyped function) still move. */
#include <stdio.h>

struct T { double x; char name[40]; };
typedef char L;
enum { N = 1 };

static int twice(int x) { return 2 * x; }
static int self_prototyped(int k);

static int self_named(int k)
{
    static int (*self)(int) = self_named;
    return k > 0 ? self(k - 1) + twice(k) : 0;
}

static int self_prototyped(int k)
{
    static int (*self)(int) = self_prototyped;
    return k > 0 ? self(k - 1) + twice(k) : 1;
}

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

static int block_enumerator_member(int k)
{
    enum { N = 3 };
    static struct { int a[N]; } v;
    v.a[N - 1] += twice(k);
    printf("%zu %d\n", sizeof v, v.a[2]);
    return 0;
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
        sum += block_typedef_static(i) + block_enumerator_member(i);
        sum += first_enum(i) + second_enum(i);
        sum += moves_cleanly(i);
        sum += self_named(i) + self_prototyped(i);
    }
    printf("%d\n", sum);
    return 0;
}

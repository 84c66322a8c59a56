/* A local of a type declared in the function whose declaration holds the
 * words "register" and "auto" in a string, not as storage classes: ripped
 * like any other (the storage class comes from the declaration, not its
 * text). */
#include <stdio.h>

static int id(int x) { return x; }

static int f(void)
{
    struct { int a; char n[sizeof("register auto")]; } v = { 1, "register" };
    int k = id(3);
    return v.a + k + (int)sizeof v.n + v.n[0];
}

int main(void)
{
    printf("%d\n", f());
    return 0;
}

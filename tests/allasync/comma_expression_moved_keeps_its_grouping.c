/* An operand ripper moves to a new place keeps the grouping it had: a
 * comma expression as the middle operand of ?: (SQLite's putVarint32
 * macro), as a return value, and as the value of a statement expression
 * is assigned whole, not its first part. */
#include <stdio.h>

static int put(int *p, int v)
{
    *p = v + 100;
    return 2;
}

#define PUT_SMALL(p, v) ((v) < 10 ? (*(p) = (v)), 1 : put((p), (v)))

static int store_conditional(int c, int *p, int v)
{
    int t;
    t = c ? (*p = v), 1 : put(p, v);
    return t;
}

static int return_comma(int *p)
{
    int x;
    return x = 3, *p = x + put(p, 1), x;
}

static int statement_expression_ends_with_comma(int *p)
{
    int y = ({ int z = put(p, 5); z = z * 2, z + 1; });
    return y;
}

static int conditional_of_commas(int *p)
{
    return put(p, 1) ? *p += 1, 5 : 6;
}

int main(void)
{
    int x = 0, n = 0, i;
    int t = store_conditional(1, &x, 7);
    printf("%d %d\n", t, x);
    t = store_conditional(0, &x, 7);
    printf("%d %d\n", t, x);
    t = return_comma(&x);
    printf("%d %d\n", t, x);
    t = statement_expression_ends_with_comma(&x);
    printf("%d %d\n", t, x);
    printf("%d\n", conditional_of_commas(&x));
    for (i = 5; i < 15; i++)
        {
        n += PUT_SMALL(&x, i) * 10;
        n += x;
    }
    printf("%d %d\n", n, x);
    return 0;
}

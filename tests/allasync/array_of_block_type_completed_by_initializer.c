/* checks: an array of unknown size completed by its initializer, whose element type is declared in the function, kept in the frame across calls: auto, const and static (SQLite's sqlite3WindowUpdate) */
/* cflags: -Wall -Wextra -Werror */
#include <stdio.h>

#define ArraySize(X) ((int)(sizeof(X) / sizeof(X[0])))

static int twice(int x) { return 2 * x; }

static int window_update(const char *name)
{
    static const struct WindowUpdate { const char *zFunc; int eType; int a; int b; } aUp[] = {
        { "row_number", 1, 2, 3 }, { "rank", 4, 5, 6 }, { "dense_rank", 7, 8, 9 },
    };
    int i;
    for (i = 0; i < ArraySize(aUp); i++)
        if (name[0] == aUp[i].zFunc[0] && name[1] == aUp[i].zFunc[1])
            return twice(aUp[i].a) + aUp[i].b;
    return -1;
}

static void from_structs(void)      /* tinycc's 90_struct-init: one declaration, the type too */
{
    int i = 0;
    struct S { int x, y; }
        a = {1, 2},
        b = {3, 4},
        c[] = {a, b},
        d[] = {{i + 1, i + 2}, {i + 3, i + 4}},
        e[] = {b, (struct S){5, 6}};
    i = twice(i);
    printf("%d %d %d %d - %d %d %d %d - %d %d %d\n", c[0].x, c[1].y, d[0].x, d[1].y,
           e[0].x, e[1].y, a.x, b.y, (int)(sizeof c / sizeof c[0]),
           (int)(sizeof d / sizeof d[0]), i);
}

int main(void)
{
    struct W { int a; const char *n; };
    static const struct W ws[] = { {1, "a"}, {2, "b"}, {3, "c"} };
    struct W w2[] = { {4, "d"}, {twice(5), "e"} };
    const struct W w3[] = { {6, "f"} };
    struct { unsigned char b; } bytes[][2] = { {{1}, {2}}, {{3}, {4}}, {{5}} };
    typedef char ch;
    const ch str[] = "abcd";
    enum { A, B, C } e[] = { A, C, B, C };
    int k = twice(w2[1].a);
    printf("%zu %zu %zu %zu\n", sizeof ws / sizeof ws[0], sizeof w2 / sizeof w2[0],
           sizeof w3 / sizeof *w3, sizeof bytes / sizeof bytes[0]);
    printf("%s %s %d %s %d %d\n", ws[2].n, w2[1].n, k, w3[0].n, twice(w3[0].a), bytes[2][0].b);
    printf("%d %d %d\n", window_update("rank"), window_update("dense_rank"), window_update("x"));
    k = twice(e[1]);
    printf("%s %d %d %d\n", str, (int)sizeof str, (int)(sizeof e / sizeof e[0]), k);
    from_structs();
    return 0;
}

/* checks: a type ripper writes inside the body means the type it stands for even where a block declares a tag, typedef or variable of the same name: `(__typeof__(x)){3, 4}` kept in the frame while a block's own `struct s` (members swapped) hides the file's (it was cast to the block's struct s, reading b for a, silently), and stores of a struct with a const member, of a typeof'd long where a variable is named like its typedef (issue 20) */
/* cflags: -Wall -Wextra -Werror */
#include <stdio.h>

struct s { int a, b; const int c; };
typedef long L;

static int id(int x) { return x; }
static struct s mk(int x) { struct s r = {x, x + 1, x + 2}; return r; }

int main(void)
{
    struct s x = {1, 2, 3};
    L big = 1L << 40;
    {
        struct s { int b, a; } y = {5, 6};
        int L = 7;
        int *p = &(__typeof__(x)){3, 4, 5}.a;
        __typeof__(&x) px = &x, qx = (id(1), &x);
        __typeof__(x) z = mk(id(10));
        __typeof__(big) w = big + id(L);
        struct s yy = y;
        printf("%d %d %d %d %d %d %ld %d\n", *p, px->a, qx->b, z.a, z.c, yy.a, w, L);
    }
    return 0;
}

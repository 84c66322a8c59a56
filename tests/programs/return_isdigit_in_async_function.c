/* checks: return isdigit(c); in an async function (isdigit is a macro in glibc; the return is the user's) */
#include <ctype.h>
#include <stdio.h>
#include <rip.h>

static int is_digit_later(int c)
{
    rip_yield();
    return isdigit(c);
}

static void root(void *arg)
{
    int a, b;
    (void)arg;
    a = is_digit_later('7');
    b = is_digit_later('x');
    printf("%d %d\n", a != 0, b != 0);
}

int main(void) { return rip_run(root, NULL); }

/* checks: async functions declared through a function typedef or a typeof
   (typedef int ft(int); RIP_ASYNC ft twice; extern __typeof__(twice) thrice;):
   their constructors' prototypes are spelled from the function's type */
#include <stdio.h>
#include <rip.h>

typedef int ft(int);
typedef int pair_ft(int, const char *);

RIP_ASYNC ft twice;
extern __typeof__(twice) thrice;
static pair_ft show;

int twice(int x) { rip_yield(); return 2 * x; }
int thrice(int x) { return 3 * twice(x) / 2; }

static int show(int n, const char *what)
{
    rip_yield();
    printf("%s %d\n", what, n);
    return n;
}

static void root(void *arg)
{
    ft later;
    (void)arg;
    show(twice(3) + thrice(4), "sum");
    show(later(5), "later");
}

int later(int x) { rip_yield(); return x + thrice(1); }

int main(void) { return rip_run(root, NULL); }

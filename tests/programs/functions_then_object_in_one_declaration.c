/* checks: one declaration that declares async functions and then objects (int f(int), g(int), a;):
   the constructors' prototypes follow the whole declaration; a static one loses only its async
   functions' declarators; in a block, the objects stay declared and live across suspensions */
#include <stdio.h>
#include <rip.h>

int twice(int), thrice(int), total;
static int inc(int), dec(int), step = 2;
static int plain(int), shift = 1, later(int);
static int first(int), offset = 10;

static int inc(int x) { rip_yield(); return x + step; }
static int dec(int x) { return x - 1; }
static int plain(int x) { return x + shift; }
static int later(int x) { rip_yield(); return x * 10; }
static int first(int x) { rip_yield(); return x + offset; }
int twice(int x) { rip_yield(); return 2 * x; }
int thrice(int x) { rip_yield(); return 3 * x; }

static void root(void *arg)
{
    int before = 1, half(int), after = 5;
    (void)arg;
    total = twice(before) + thrice(after);
    rip_yield();
    printf("%d %d %d %d %d\n", total, inc(before), dec(after), half(after), before + after);
    printf("%d %d %d\n", plain(before), later(after), first(before));
}

int half(int x) { rip_yield(); return x / 2; }

int main(void) { return rip_run(root, NULL); }

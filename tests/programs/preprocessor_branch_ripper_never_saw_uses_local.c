/* checks: code in #if branches that only the compiler takes (__OPTIMIZE__ at -O2 and not __clang__ for gcc, the other way round for ripper's parser) still means the local, not the global of the same name */
#include <stdio.h>
#include <rip.h>

int counter = 100;

static int global_counter(void) { return counter; }

static void root(void *arg)
{
    int counter = (int)(long)arg;
    rip_yield();
#ifdef __OPTIMIZE__
    counter += 1;
#else
    counter += 1;
#endif
#ifdef __clang__
    counter += 10;
#else
    counter += 10;
#endif
    rip_yield();
    printf("local %d global %d\n", counter, global_counter());
}

int main(void) { return rip_run(root, NULL); }

/* checks: attributes come from the declaration's attributes, never from its initializer's text: `int n __attribute__((unused)) = cleanup_count();` is no cleanup attribute (main was refused, left plain: test_all_async_reads_attributes_not_initializers), and `int m __attribute__((unused)) = aligned(3);` kept across a call asks for no alignment (its frame field came out `__attribute__((aligned(3)))`, which gcc rejects); a real `aligned(8)` and `_Alignas(16)` are kept (issue 20) */
/* cflags: -Wall -Wextra -Werror */
#include <stdio.h>
#include <stdint.h>

static int calls;
static int cleanup_count(void) { return ++calls; }
static int aligned(int x) { calls += x; return x * 10; }

static int use_aligned(void)
{
    int m __attribute__((unused)) = aligned(3);
    char c __attribute__((aligned(8))) = (char)aligned(1);
    _Alignas(16) short s = (short)aligned(4);
    int k = aligned(2);
    printf("%d %d %d %d %d\n", m, c, s, k, calls);
    return (int)((uintptr_t)&c % 8) + (int)((uintptr_t)&s % 16);
}

int main(void)
{
    int n __attribute__((unused)) = cleanup_count();
    int misaligned = use_aligned();
    printf("%d %d %d\n", n, misaligned, calls);
    return 0;
}

/* error: asks for an alignment above 16 */
#include <stdio.h>
#include <stdint.h>
#include <rip.h>
static void root(void *arg)
{
    _Alignas(64) char buf[64];
    (void)arg;
    rip_yield();
    printf("%d %zu\n", (int)((uintptr_t)buf % 64), _Alignof(buf));
}
int main(void) { return rip_run(root, NULL); }

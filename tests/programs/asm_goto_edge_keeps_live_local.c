/* checks: the labels of an asm goto are control-flow edges: a local read only after the label survives the suspension before the asm */
#include <stdio.h>
#include <rip.h>

static void root(void *arg)
{
    int code = (int)(long)arg + 5;   /* read only after the asm's label */
    rip_yield();
#if defined(__x86_64__) || defined(__i386__)
    __asm__ goto ("jmp %l[out]" : : : : out);
#else
    goto out;
#endif
    puts("not reached");
    return;
out:
    printf("jumped with code %d\n", code);
}

int main(void) { return rip_run(root, NULL); }

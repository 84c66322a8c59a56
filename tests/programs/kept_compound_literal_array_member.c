/* checks: a compound literal whose address is kept across a suspension lives in the frame (compound_literal_array_member) */
/* threads: sorted */
#include <stdio.h>
#include <string.h>
#include <rip.h>

static void scribble(void *arg)
{
    volatile char junk[4096];
    (void)arg;
    memset((char *)junk, 0x5a, sizeof junk);
    printf("scribbled %d\n", junk[100]);
}

static void root(void *arg)
{
    int *primes;
    (void)arg;
    primes = (struct { int v[4]; }){ { 2, 3, 5, 7 } }.v;
    rip_spawn(scribble, NULL);
    rip_yield();
    printf("primes %d %d %d %d\n", primes[0], primes[1], primes[2], primes[3]);
}

int main(void) { return rip_run(root, NULL); }

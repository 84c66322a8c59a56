/* checks: <emmintrin.h> included and an SSE2 vector local used across a suspension */
#include <emmintrin.h>
#include <stdio.h>
#include <rip.h>

static void root(void *arg)
{
    __m128i a = _mm_set_epi32(4, 3, 2, 1), b = _mm_set1_epi32(10);
    int out[4];
    (void)arg;
    rip_yield();
    _mm_storeu_si128((__m128i *)out, _mm_add_epi32(a, b));
    printf("%d %d %d %d\n", out[0], out[1], out[2], out[3]);
}

int main(void) { return rip_run(root, NULL); }

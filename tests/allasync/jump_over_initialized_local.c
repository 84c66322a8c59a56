/* checks: a loop body whose first declaration has an initializer and is followed by a call (zlib's trees.c gen_codes: `int len = tree[n].Len; ... bi_reverse(next_code[len]++, len)`) builds warning-free under -Wjump-misses-init -Werror, as the plain build does */
/* known bug: `len`, not live across the call, stays a C local of the resume function with its initializer, and the dispatch switch's `goto rip_resume_1` jumps forward over it: "jump skips variable initialization" (29 times in zlib, 155 in nine of Lua's files, 375 in cJSON, stb_image, tiny-regex-c and kilo together) */
/* cflags: -Wjump-misses-init -Werror */
#include <stdio.h>

static unsigned reverse(unsigned code, int len)
{
    unsigned res = 0;
    do {
        res |= code & 1;
        code >>= 1;
        res <<= 1;
    } while (--len > 0);
    return res >> 1;
}

static void gen(unsigned short *codes, const int *lens, int n)
{
    unsigned short next[4] = {0, 1, 2, 3};
    int i;
    for (i = 0; i < n; i++) {
        int len = lens[i];
        if (len == 0)
            continue;
        codes[i] = (unsigned short)reverse(next[len]++, len);
    }
}

int main(void)
{
    unsigned short codes[5];
    const int lens[5] = {1, 2, 0, 3, 2};
    int i;
    gen(codes, lens, 5);
    for (i = 0; i < 5; i++)
        printf("%u ", codes[i]);
    printf("\n");
    return 0;
}

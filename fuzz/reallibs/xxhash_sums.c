/* xxhash_sums.c -- fuzz/real_libs.py's xxHash driver: XXH32, XXH64, XXH3
   (64 and 128 bits, with seeds and with a custom secret) of every prefix
   length 0..300 of a buffer and of the files named by argv, one-shot and
   streamed in irregular pieces (the two must agree), and the canonical
   forms. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define XXH_STATIC_LINKING_ONLY
#include "xxhash.h"
#include "slurp.h"

static unsigned char secret[XXH3_SECRET_SIZE_MIN + 53];

static void sums(const char *name, const unsigned char *p, size_t len)
{
    unsigned long long seed = len * 0x9E3779B97F4A7C15ULL;
    XXH128_hash_t h128 = XXH3_128bits_withSeed(p, len, seed);
    XXH128_hash_t s128 = XXH3_128bits_withSecret(p, len, secret, sizeof secret);
    XXH32_state_t *s32 = XXH32_createState();
    XXH64_state_t *s64 = XXH64_createState();
    XXH3_state_t *s3 = XXH3_createState(), *s3b = XXH3_createState();
    XXH128_canonical_t canon;
    size_t pos, step = 1;
    unsigned i;
    XXH32_reset(s32, (unsigned)seed);
    XXH64_reset(s64, seed);
    XXH3_64bits_reset_withSecret(s3, secret, sizeof secret);
    XXH3_128bits_reset_withSeed(s3b, seed);
    for (pos = 0; pos < len; pos += step, step = step * 3 % 1021 + 1) {
        size_t n = len - pos < step ? len - pos : step;
        XXH32_update(s32, p + pos, n);
        XXH64_update(s64, p + pos, n);
        XXH3_64bits_update(s3, p + pos, n);
        XXH3_128bits_update(s3b, p + pos, n);
    }
    printf("%s %zu: %08x %016llx %016llx %016llx %016llx:%016llx %016llx:%016llx",
           name, len, (unsigned)XXH32(p, len, (unsigned)seed),
           (unsigned long long)XXH64(p, len, seed),
           (unsigned long long)XXH3_64bits(p, len),
           (unsigned long long)XXH3_64bits_withSeed(p, len, seed),
           (unsigned long long)h128.high64, (unsigned long long)h128.low64,
           (unsigned long long)s128.high64, (unsigned long long)s128.low64);
    printf(" streamed %s", XXH32_digest(s32) == XXH32(p, len, (unsigned)seed)
           && XXH64_digest(s64) == XXH64(p, len, seed)
           && XXH3_64bits_digest(s3) == XXH3_64bits_withSecret(p, len, secret, sizeof secret)
           && XXH128_isEqual(XXH3_128bits_digest(s3b), h128) ? "ok" : "BAD");
    XXH128_canonicalFromHash(&canon, h128);
    printf(" canonical ");
    for (i = 0; i < sizeof canon.digest; i++)
        printf("%02x", canon.digest[i]);
    printf(" %s\n", XXH128_isEqual(XXH128_hashFromCanonical(&canon), h128) ? "ok" : "BAD");
    XXH32_freeState(s32);
    XXH64_freeState(s64);
    XXH3_freeState(s3);
    XXH3_freeState(s3b);
}

int main(int argc, char **argv)
{
    unsigned char buf[4096];
    unsigned x = 12345;
    size_t i;
    int a;
    printf("xxhash %u\n", XXH_versionNumber());
    for (i = 0; i < sizeof buf; i++)
        buf[i] = (unsigned char)((x = x * 1103515245u + 12345u) >> 16);
    for (i = 0; i < sizeof secret; i++)
        secret[i] = (unsigned char)(i * 31 + 7);
    XXH3_generateSecret_fromSeed(secret, 77);   /* the first XXH3_SECRET_DEFAULT_SIZE bytes */
    for (i = 0; i <= 300; i++)
        sums("prefix", buf, i);
    for (i = 301; i < sizeof buf; i = i * 5 / 3)
        sums("prefix", buf + (i & 7), i);    /* misaligned too */
    for (a = 1; a < argc; a++) {
        size_t len;
        char *data = slurp(argv[a], &len, 0);
        if (!data)
            return 2;
        sums(strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a],
             (const unsigned char *)data, len);
        free(data);
    }
    return 0;
}

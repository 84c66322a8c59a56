/* http_parser_fuzz.c -- libFuzzer target for examples/http_parser.h.
 *
 * Beyond "no crash" (ASan and UBSan are on), each input is parsed the way
 * httpd parses it, and these must hold:
 *   - fed whole, or grown piece by piece with the `seen` hint (pieces cut
 *     at points derived from the input, and one byte at a time for short
 *     inputs), the first answer that is not HTTP_PARTIAL is the same:
 *     status, method, target, version, headers, head length;
 *   - every piece is parsed from a buffer of exactly its length, so a read
 *     past `len` is an ASan error, and every field points inside the head;
 *   - a complete head ends with a blank line, has a token method, a target
 *     without blanks or controls, trimmed header values without controls,
 *     at most HTTP_MAX_HEADERS headers, and parses the same cut to its own
 *     length (nothing after the head matters);
 *   - pipelined heads after the first are checked the same way.
 *
 *     clang -g -O1 -fsanitize=fuzzer,address,undefined -Iexamples \
 *         fuzz/http_parser_fuzz.c -o http_parser_fuzz
 *     ./http_parser_fuzz -dict=fuzz/http.dict CORPUS_DIR fuzz/corpus/http
 *
 * `make fuzz-http SECONDS=600` does this. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http_parser.h"

/* An always-on assert: names the broken invariant, then aborts (libFuzzer
 * saves the input as a crash). */
#define CHECK(cond)                                                             \
    do {                                                                        \
        if (!(cond)) {                                                          \
            fprintf(stderr, "http_parser_fuzz: %s:%d: invariant broken: %s\n",  \
                    __FILE__, __LINE__, #cond);                                 \
            abort();                                                            \
        }                                                                       \
    } while (0)

/* A parse result with its fields as offsets into the input, comparable
 * across buffers. */
typedef struct {
    int ret;                        /* http_parse_request's return */
    size_t method, method_len;      /* offsets and lengths (ret > 0 only) */
    size_t target, target_len;
    int minor;
    size_t nheaders;
    size_t name[HTTP_MAX_HEADERS], name_len[HTTP_MAX_HEADERS];
    size_t value[HTTP_MAX_HEADERS], value_len[HTTP_MAX_HEADERS];
} result;

/* Offset of [p, p+n) in buf[0..len), which it must lie inside. */
static size_t offset_in(const char *buf, size_t len, const char *p, size_t n) {
    CHECK(p >= buf && p <= buf + len);
    CHECK(n <= len - (size_t)(p - buf));
    return (size_t)(p - buf);
}

/* Parse buf[0..len) with `seen` from a buffer of exactly len bytes, check
 * what a complete head must satisfy, and describe it as offsets. */
static result parse(const char *data, size_t len, size_t seen) {
    char *buf = malloc(len ? len : 1);
    CHECK(buf != NULL);
    memcpy(buf, data, len);
    http_request req;
    memset(&req, 0xa5, sizeof req); /* stale garbage must never show through */
    result r;
    memset(&r, 0, sizeof r);
    r.ret = http_parse_request(buf, len, seen, &req);
    CHECK(r.ret > 0 || r.ret == HTTP_PARTIAL || r.ret == HTTP_BAD || r.ret == HTTP_VERSION ||
          r.ret == HTTP_TOO_MANY);
    if (r.ret > 0) {
        size_t head = (size_t)r.ret;
        CHECK(head <= len && head >= 2 && buf[head - 1] == '\n');
        CHECK(buf[head - 2] == '\n' ||
              (head >= 3 && buf[head - 2] == '\r' && buf[head - 3] == '\n'));
        r.method = offset_in(buf, head, req.method, req.method_len);
        r.method_len = req.method_len;
        CHECK(r.method_len > 0);
        for (size_t i = 0; i < r.method_len; i++)
            CHECK(http_tchar((unsigned char)req.method[i]));
        r.target = offset_in(buf, head, req.target, req.target_len);
        r.target_len = req.target_len;
        CHECK(r.target_len > 0 && r.target > r.method + r.method_len);
        for (size_t i = 0; i < r.target_len; i++)
            CHECK((unsigned char)req.target[i] > ' ' && req.target[i] != 0x7f);
        CHECK(req.minor == 0 || req.minor == 1);
        r.minor = req.minor;
        CHECK(req.nheaders <= HTTP_MAX_HEADERS);
        r.nheaders = req.nheaders;
        for (size_t h = 0; h < req.nheaders; h++) {
            const http_header *hd = &req.headers[h];
            r.name[h] = offset_in(buf, head, hd->name, hd->name_len);
            r.name_len[h] = hd->name_len;
            r.value[h] = offset_in(buf, head, hd->value, hd->value_len);
            r.value_len[h] = hd->value_len;
            CHECK(hd->name_len > 0 && r.name[h] > r.target);
            CHECK(r.value[h] > r.name[h] + r.name_len[h]);
            CHECK(hd->name[hd->name_len] == ':');
            for (size_t i = 0; i < hd->name_len; i++)
                CHECK(http_tchar((unsigned char)hd->name[i]));
            for (size_t i = 0; i < hd->value_len; i++)
                CHECK(((unsigned char)hd->value[i] >= ' ' || hd->value[i] == '\t') &&
                      hd->value[i] != 0x7f);
            if (hd->value_len) {
                CHECK(hd->value[0] != ' ' && hd->value[0] != '\t');
                CHECK(hd->value[hd->value_len - 1] != ' ' && hd->value[hd->value_len - 1] != '\t');
            }
            if (h > 0)
                CHECK(r.name[h] > r.value[h - 1]);
            /* The lookups httpd makes find a header of that name, or none. */
            char name[64];
            size_t n = hd->name_len;
            if (n < sizeof name) {
                memcpy(name, hd->name, n);
                name[n] = '\0';
                const http_header *found = http_find_header(&req, name);
                CHECK(found && found <= hd && found->name_len == n &&
                      strncasecmp(found->name, name, n) == 0);
                (void)http_has_token(found, "close");
            }
        }
        (void)http_has_token(http_find_header(&req, "Connection"), "keep-alive");
        (void)http_has_token(NULL, "close");
    }
    free(buf);
    return r;
}

static int same(const result *a, const result *b) {
    if (a->ret != b->ret || a->method != b->method || a->method_len != b->method_len ||
        a->target != b->target || a->target_len != b->target_len || a->minor != b->minor ||
        a->nheaders != b->nheaders)
        return 0;
    for (size_t h = 0; h < a->nheaders; h++)
        if (a->name[h] != b->name[h] || a->name_len[h] != b->name_len[h] ||
            a->value[h] != b->value[h] || a->value_len[h] != b->value_len[h])
            return 0;
    return 1;
}

/* A small PRNG seeded from the input: split points that change with it. */
static uint64_t next_rand(uint64_t *s) {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Feed data[0..len) in growing prefixes, as httpd's reads deliver it;
 * the first answer that is not HTTP_PARTIAL (or the last) must be `whole`. */
static void check_pieces(const char *data, size_t len, const result *whole, uint64_t seed,
                         int byte_by_byte) {
    size_t have = 0, seen = 0;
    result r;
    do {
        size_t step = byte_by_byte ? 1 : 1 + (size_t)(next_rand(&seed) % 24);
        if (!byte_by_byte && next_rand(&seed) % 8 == 0)
            step += (size_t)(next_rand(&seed) % 512);
        have = have + step < len ? have + step : len;
        r = parse(data, have, seen);
        seen = have;
        if (r.ret != HTTP_PARTIAL && have < len) {
            CHECK(same(&r, whole));
            return;
        }
    } while (have < len);
    CHECK(same(&r, whole));
}

/* Check one head at the start of data[0..len): its length, or <= 0. */
static int check_head(const char *data, size_t len, uint64_t seed) {
    result whole = parse(data, len, 0);
    check_pieces(data, len, &whole, seed, 0);
    if (len <= 256)
        check_pieces(data, len, &whole, seed, 1);
    if (whole.ret > 0) {            /* nothing after the head matters */
        result cut = parse(data, (size_t)whole.ret, 0);
        CHECK(same(&cut, &whole));
        if ((size_t)whole.ret < len) {
            result shorter = parse(data, (size_t)whole.ret - 1, 0);
            CHECK(shorter.ret == HTTP_PARTIAL);
        }
    }
    return whole.ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint64_t seed = 0x9e3779b97f4a7c15u;
    for (size_t i = 0; i < size; i++)
        seed = (seed ^ data[i]) * 0x100000001b3u;
    seed |= 1;
    size_t off = 0;
    for (int heads = 0; heads < 16 && off < size; heads++) {   /* pipelined requests */
        int n = check_head((const char *)data + off, size - off, seed + (uint64_t)heads);
        if (n <= 0)
            break;
        off += (size_t)n;
    }
    return 0;
}

/* http_parser_test.c -- examples/http_parser.h against a table of heads.
 *
 * Each case is parsed whole, then grown piece by piece as reads deliver it:
 * cut once at every byte boundary, and one byte at a time with the `seen`
 * hint.  Every prefix is copied to a buffer of exactly its length (ASan
 * sees any read past it); a prefix shorter than the head is HTTP_PARTIAL,
 * and the first answer that is not is the whole one.  Built with
 * sanitizers by tests/test_http_parser.py; prints one line per failure and
 * exits 1 if any. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http_parser.h"

/* One case: the head, what parsing it returns, and for a complete head
 * its fields; headers as "Name: value" ("" ends the list). */
struct test_case {
    const char *name;
    const char *raw;
    size_t len;                     /* bytes of raw (it may hold NULs) */
    int want;                       /* http_parse_request's return */
    const char *method, *target;
    int minor;
    const char *headers[8];
};

#define RAW(s) s, sizeof s - 1
#define BIG_VALUE "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

static const struct test_case cases[] = {
    {"simple", RAW("GET / HTTP/1.1\r\nHost: t\r\n\r\n"), 27, "GET", "/", 1, {"Host: t"}},
    {"http10 no headers", RAW("HEAD /a/b.css HTTP/1.0\r\n\r\n"), 26, "HEAD", "/a/b.css", 0, {""}},
    {"bare LF", RAW("GET /x HTTP/1.1\nHost: t\nA: b\n\n"), 30, "GET", "/x", 1, {"Host: t", "A: b"}},
    {"LF then CRLF ends it", RAW("GET / HTTP/1.1\nHost: t\n\r\n"), 25, "GET", "/", 1, {"Host: t"}},
    {"blank lines before", RAW("\r\n\n\r\nGET / HTTP/1.1\r\nHost: t\r\n\r\n"), 32, "GET", "/", 1,
     {"Host: t"}},
    {"only the first of two", RAW("GET /1 HTTP/1.1\r\n\r\nGET /2 HTTP/1.1\r\n\r\n"), 19, "GET", "/1",
     1, {""}},
    {"body after the head", RAW("POST /f HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"), 39, "POST",
     "/f", 1, {"Content-Length: 3"}},
    {"blanks around values trimmed", RAW("GET / HTTP/1.1\r\nA:b\r\nB: \t x y \t\r\nC:\r\nD:   \r\n\r\n"),
     46, "GET", "/", 1, {"A: b", "B: x y", "C: ", "D: "}},
    {"colon in value", RAW("GET / HTTP/1.1\r\nHost: a:80\r\n\r\n"), 30, "GET", "/", 1,
     {"Host: a:80"}},
    {"token characters in names", RAW("GET / HTTP/1.1\r\nX-!#$%&'*+.^_`|~9: v\r\n\r\n"), 40, "GET",
     "/", 1, {"X-!#$%&'*+.^_`|~9: v"}},
    {"high bytes in target and value", RAW("GET /\xc3\xa9 HTTP/1.1\r\nX: \xff\x80\r\n\r\n"), 27,
     "GET", "/\xc3\xa9", 1, {"X: \xff\x80"}},
    {"absolute form", RAW("OPTIONS http://a/b?c HTTP/1.1\r\n\r\n"), 33, "OPTIONS", "http://a/b?c",
     1, {""}},
    {"long value", RAW("GET / HTTP/1.1\r\nX: " BIG_VALUE BIG_VALUE "\r\n\r\n"), 151, "GET", "/", 1,
     {"X: " BIG_VALUE BIG_VALUE}},

    {"empty", RAW(""), HTTP_PARTIAL, 0, 0, 0, {""}},
    {"request line only", RAW("GET / HTTP/1.1\r\n"), HTTP_PARTIAL, 0, 0, 0, {""}},
    {"no blank line yet", RAW("GET / HTTP/1.1\r\nHost: t\r\n\r"), HTTP_PARTIAL, 0, 0, 0, {""}},
    {"blank lines only", RAW("\r\n\r\n\n\n"), HTTP_PARTIAL, 0, 0, 0, {""}},
    {"lone CR is no line end", RAW("GET / HTTP/1.1\r\r\r\r"), HTTP_PARTIAL, 0, 0, 0, {""}},

    {"no version", RAW("GET /\r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"no target", RAW("GET  HTTP/1.1\r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"two spaces", RAW("GET  / HTTP/1.1\r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"leading space", RAW(" GET / HTTP/1.1\r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"trailing space", RAW("GET / HTTP/1.1 \r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"tab separator", RAW("GET\t/ HTTP/1.1\r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"method not a token", RAW("G(T / HTTP/1.1\r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"control in target", RAW("GET /a\x01 HTTP/1.1\r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"DEL in target", RAW("GET /a\x7f HTTP/1.1\r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"lowercase version", RAW("GET / http/1.1\r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"version too long", RAW("GET / HTTP/1.10\r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"version not digits", RAW("GET / HTTP/a.b\r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"lone CR in request line", RAW("GET / HTTP/1.1\rX\r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"header without colon", RAW("GET / HTTP/1.1\r\nHost t\r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"empty header name", RAW("GET / HTTP/1.1\r\n: v\r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"space before colon", RAW("GET / HTTP/1.1\r\nHost : t\r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"obs-fold", RAW("GET / HTTP/1.1\r\nA: b\r\n c\r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"obs-fold with tab", RAW("GET / HTTP/1.1\r\nA: b\r\n\tc\r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"NUL in value", RAW("GET / HTTP/1.1\r\nA: b\0c\r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"NUL in name", RAW("GET / HTTP/1.1\r\nA\0: b\r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"DEL in value", RAW("GET / HTTP/1.1\r\nA: b\x7f\r\n\r\n"), HTTP_BAD, 0, 0, 0, {""}},
    {"garbage", RAW("\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\n\n"), HTTP_BAD, 0, 0, 0, {""}},

    {"HTTP/2.0", RAW("GET / HTTP/2.0\r\n\r\n"), HTTP_VERSION, 0, 0, 0, {""}},
    {"HTTP/0.9", RAW("GET / HTTP/0.9\r\n\r\n"), HTTP_VERSION, 0, 0, 0, {""}},
    {"HTTP/1.2", RAW("GET / HTTP/1.2\r\n\r\n"), HTTP_VERSION, 0, 0, 0, {""}},
    {"bad header after a bad version", RAW("GET / HTTP/3.0\r\nbad\r\n\r\n"), HTTP_VERSION, 0, 0, 0,
     {""}},
};

/* 64 headers are fine, 65 are HTTP_TOO_MANY: built at run time. */
static char many_ok[4096], many_bad[4096];

static int failures;

#define FAIL(c, ...)                                                                \
    do {                                                                            \
        printf("FAIL %s: ", (c)->name);                                             \
        printf(__VA_ARGS__);                                                        \
        printf("\n");                                                               \
        failures++;                                                                 \
    } while (0)

static int field_is(const char *p, size_t n, const char *want) {
    return p && n == strlen(want) && memcmp(p, want, n) == 0;
}

/* Parse raw[0..len) from a buffer of exactly that size; check the fields
 * of a complete head against the case.  Returns the return value. */
static int parse_checked(const struct test_case *c, size_t len, size_t seen, const char *how) {
    char *buf = malloc(len ? len : 1);
    memcpy(buf, c->raw, len);
    http_request req;
    memset(&req, 0x5a, sizeof req);
    int r = http_parse_request(buf, len, seen, &req);
    if (r > 0 && r == c->want) {
        if (!field_is(req.method, req.method_len, c->method))
            FAIL(c, "%s: method '%.*s'", how, (int)req.method_len, req.method);
        if (!field_is(req.target, req.target_len, c->target))
            FAIL(c, "%s: target '%.*s'", how, (int)req.target_len, req.target);
        if (req.minor != c->minor)
            FAIL(c, "%s: minor %d", how, req.minor);
        size_t want_headers = 0;
        while (want_headers < 8 && c->headers[want_headers] && c->headers[want_headers][0])
            want_headers++;
        if (c->headers[0] == NULL)  /* the 64-header case */
            want_headers = HTTP_MAX_HEADERS;
        if (req.nheaders != want_headers)
            FAIL(c, "%s: %zu headers, want %zu", how, req.nheaders, want_headers);
        for (size_t i = 0; i < want_headers && i < req.nheaders && c->headers[0]; i++) {
            const http_header *h = &req.headers[i];
            const char *w = c->headers[i], *colon = strchr(w, ':');
            const char *v = colon[1] == ' ' ? colon + 2 : colon + 1;
            if (h->name_len != (size_t)(colon - w) || memcmp(h->name, w, h->name_len) != 0)
                FAIL(c, "%s: header %zu name '%.*s'", how, i, (int)h->name_len, h->name);
            if (!field_is(h->value, h->value_len, v))
                FAIL(c, "%s: header %zu value '%.*s'", how, i, (int)h->value_len, h->value);
        }
    }
    free(buf);
    return r;
}

static void check(const struct test_case *c) {
    int r = parse_checked(c, c->len, 0, "whole");
    if (r != c->want) {
        FAIL(c, "whole: returned %d, want %d", r, c->want);
        return;
    }
    /* Cut once at every byte: the prefix, then the whole with `seen`. */
    for (size_t cut = 0; cut < c->len; cut++) {
        int p = parse_checked(c, cut, 0, "prefix");
        if (c->want > 0 && cut < (size_t)c->want ? p != HTTP_PARTIAL
                                                 : p != HTTP_PARTIAL && p != c->want)
            FAIL(c, "prefix of %zu bytes returned %d", cut, p);
        if (p == HTTP_PARTIAL && (r = parse_checked(c, c->len, cut, "after a cut")) != c->want)
            FAIL(c, "cut at %zu: returned %d, want %d", cut, r, c->want);
    }
    /* One byte at a time, as httpd's reads could deliver it. */
    r = HTTP_PARTIAL;
    size_t have = 0;
    while (r == HTTP_PARTIAL && have < c->len) {
        have++;
        r = parse_checked(c, have, have - 1, "byte by byte");
    }
    if (r != c->want)
        FAIL(c, "byte by byte: returned %d after %zu bytes, want %d", r, have, c->want);
}

static struct test_case many(const char *name, char *buf, int count, int want) {
    size_t n = (size_t)sprintf(buf, "GET / HTTP/1.1\r\n");
    for (int i = 0; i < count; i++)
        n += (size_t)sprintf(buf + n, "H%d: %d\r\n", i, i);
    n += (size_t)sprintf(buf + n, "\r\n");
    struct test_case c = {name, buf, n, want > 0 ? (int)n : want, "GET", "/", 1, {NULL}};
    return c;
}

int main(void) {
    size_t ncases = sizeof cases / sizeof *cases;
    for (size_t i = 0; i < ncases; i++)
        check(&cases[i]);
    struct test_case ok = many("64 headers", many_ok, HTTP_MAX_HEADERS, 1);
    struct test_case bad = many("65 headers", many_bad, HTTP_MAX_HEADERS + 1, HTTP_TOO_MANY);
    check(&ok);
    check(&bad);
    printf("%zu cases, %d failures\n", ncases + 2, failures);
    return failures ? 1 : 0;
}

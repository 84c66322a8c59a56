/* pico_parse.c -- fuzz/real_libs.py's picohttpparser driver.  The file named
   by argv[1] holds records "<kind> <length>\n<length bytes>\n", kind one of
   request, response, headers, chunked; each message is parsed whole, then
   again fed one growing prefix at a time (with last_len, as a server reading
   a socket does), and everything picohttpparser returns is printed. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "picohttpparser.h"

#define MAX_HEADERS 16

static void print_span(const char *what, const char *p, size_t n)
{
    printf(" %s=[%.*s]", what, (int)n, p ? p : "");
}

static void print_headers(const struct phr_header *h, size_t n)
{
    size_t i;
    printf(" headers=%zu", n);
    for (i = 0; i < n; i++) {
        if (h[i].name)
            printf("\n    [%.*s]", (int)h[i].name_len, h[i].name);
        else
            printf("\n    (continued)");
        printf(" = [%.*s]", (int)h[i].value_len, h[i].value);
    }
}

/* One parse of buf[0..len); prints the result, returns picohttpparser's. */
static int parse(const char *kind, const char *buf, size_t len, size_t last_len, int quiet)
{
    struct phr_header headers[MAX_HEADERS];
    size_t num_headers = MAX_HEADERS;
    const char *method = NULL, *path = NULL, *msg = NULL;
    size_t method_len = 0, path_len = 0, msg_len = 0;
    int minor = -1, status = -1, r;
    if (!strcmp(kind, "request"))
        r = phr_parse_request(buf, len, &method, &method_len, &path, &path_len, &minor,
                              headers, &num_headers, last_len);
    else if (!strcmp(kind, "response"))
        r = phr_parse_response(buf, len, &minor, &status, &msg, &msg_len, headers,
                               &num_headers, last_len);
    else
        r = phr_parse_headers(buf, len, headers, &num_headers, last_len);
    if (quiet && r == -2)
        return r;
    printf("  %s len=%zu -> %d", kind, len, r);
    if (r > 0) {
        if (method)
            print_span("method", method, method_len);
        if (path)
            print_span("path", path, path_len);
        if (msg)
            print_span("msg", msg, msg_len);
        printf(" minor=%d status=%d", minor, status);
        print_headers(headers, num_headers);
    }
    printf("\n");
    return r;
}

static void chunked(const char *data, size_t len)
{
    static const size_t steps[] = {1, 2, 3, 7, 64, 100000};
    size_t s;
    for (s = 0; s < sizeof steps / sizeof steps[0]; s++) {
        struct phr_chunked_decoder dec;
        char *buf = malloc(len + 1), *out = malloc(len + 1);
        size_t fed = 0, outlen = 0;
        long r = -2;
        memset(&dec, 0, sizeof dec);
        dec.consume_trailer = (char)(s & 1);
        while (fed < len && r == -2) {
            size_t n = len - fed < steps[s] ? len - fed : steps[s];
            size_t size = n;
            memcpy(buf, data + fed, n);
            fed += n;
            r = (long)phr_decode_chunked(&dec, buf, &size);
            if (r != -1) {
                memcpy(out + outlen, buf, size);
                outlen += size;
            }
        }
        printf("  chunked step=%zu trailer=%d -> %ld in_data=%d decoded=%zu [%.*s]\n",
               steps[s], dec.consume_trailer, r, phr_decode_chunked_is_in_data(&dec),
               outlen, (int)(outlen < 200 ? outlen : 200), out);
        free(buf);
        free(out);
    }
}

int main(int argc, char **argv)
{
    FILE *f;
    char kind[32];
    size_t len, records = 0;
    if (argc != 2 || !(f = fopen(argv[1], "rb"))) {
        fprintf(stderr, "usage: pico_parse FILE\n");
        return 2;
    }
    while (fscanf(f, "%31s %zu", kind, &len) == 2) {
        char *msg = malloc(len + 1);
        size_t prefix, last = 0;
        fgetc(f);
        if (fread(msg, 1, len, f) != len)
            return 3;
        fgetc(f);
        printf("record %zu: %s\n", records++, kind);
        if (!strcmp(kind, "chunked")) {
            chunked(msg, len);
        } else {
            parse(kind, msg, len, 0, 0);
            /* as bytes arrive: every prefix, each parse told how much the
               previous one saw */
            for (prefix = 1; prefix <= len; prefix++) {
                char *copy = malloc(prefix);    /* exactly prefix bytes, for ASan */
                int r;
                memcpy(copy, msg, prefix);
                r = parse(kind, copy, prefix, last, 1);
                free(copy);
                if (r != -2)
                    break;
                last = prefix;
            }
        }
        free(msg);
    }
    printf("%zu records\n", records);
    return 0;
}

/* http_parser.h -- an incremental, zero-copy HTTP/1.x request-head parser.
 *
 * http_parse_request() looks at the bytes received so far; it never needs
 * the whole request in one read.  It returns
 *     > 0             the head is complete: that many bytes are the head
 *                     (request line, headers, blank line); `req` points
 *                     into `buf` (nothing is copied or allocated)
 *     HTTP_PARTIAL    the head is not complete yet: read more, call again
 *     HTTP_BAD        malformed: answer 400
 *     HTTP_VERSION    well-formed, but not HTTP/1.0 or HTTP/1.1: answer 505
 *     HTTP_TOO_MANY   more than HTTP_MAX_HEADERS headers: answer 431
 * `seen` is how many of these bytes the previous call saw (0 at first), so
 * that each byte is scanned for the end of the head only once.  Bare LF
 * line ends are accepted as well as CRLF, as RFC 9112 allows.
 *
 * Header-only, so that a fuzz target can include it as the server does. */
#ifndef HTTP_PARSER_H
#define HTTP_PARSER_H

#include <stddef.h>
#include <string.h>
#include <strings.h>

#define HTTP_PARTIAL (-2)
#define HTTP_BAD (-1)
#define HTTP_VERSION (-3)
#define HTTP_TOO_MANY (-4)
#define HTTP_MAX_HEADERS 64

typedef struct {
    const char *name;               /* header name (not NUL-terminated) */
    size_t name_len;                /* its bytes */
    const char *value;              /* value, surrounding blanks trimmed */
    size_t value_len;               /* its bytes */
} http_header;

typedef struct {
    const char *method;             /* e.g. "GET" */
    size_t method_len;              /* its bytes */
    const char *target;             /* request target as sent, e.g. "/a%20b?x=1" */
    size_t target_len;              /* its bytes */
    int minor;                      /* HTTP/1.<minor>: 0 or 1 */
    http_header headers[HTTP_MAX_HEADERS];
    size_t nheaders;                /* headers used */
} http_request;

/* RFC 9110 token characters (method, header names). */
static inline int http_tchar(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c && strchr("!#$%&'*+-.^_`|~", c));
}

/* Where the head that starts at `from` ends (just past its blank line) in
 * buf[0..len), or 0; bytes before `scan` were looked at already. */
static inline size_t http_head_end(const char *buf, size_t len, size_t from, size_t scan) {
    size_t i = scan > from + 3 ? scan - 3 : from;
    for (; i < len; i++) {
        if (buf[i] != '\n')
            continue;
        if (i + 1 < len && buf[i + 1] == '\n')
            return i + 2;
        if (i + 2 < len && buf[i + 1] == '\r' && buf[i + 2] == '\n')
            return i + 3;
    }
    return 0;
}

/* One line of buf[*pos..end): its start and length without CR LF, or
 * NULL if no line ends before `end`. */
static inline const char *http_line(const char *buf, size_t end, size_t *pos, size_t *len) {
    const char *start = buf + *pos;
    const char *nl = *pos < end ? memchr(start, '\n', end - *pos) : NULL;
    if (!nl)
        return NULL;
    size_t n = (size_t)(nl - start);
    *pos += n + 1;
    if (n && start[n - 1] == '\r')
        n--;
    *len = n;
    return start;
}

static inline int http_parse_request(const char *buf, size_t len, size_t seen,
                                     http_request *req) {
    size_t pos = 0, n;
    while (pos + 1 < len && (buf[pos] == '\r' || buf[pos] == '\n'))
        pos++;                      /* RFC 9112: ignore empty lines before a request */
    size_t end = http_head_end(buf, len, pos, seen);
    if (!end)
        return HTTP_PARTIAL;

    /* Request line: method SP target SP HTTP/1.x */
    const char *line = http_line(buf, end, &pos, &n);
    if (!line)
        return HTTP_BAD;
    const char *sp1 = memchr(line, ' ', n);
    if (!sp1 || sp1 == line)
        return HTTP_BAD;
    req->method = line;
    req->method_len = (size_t)(sp1 - line);
    for (size_t i = 0; i < req->method_len; i++)
        if (!http_tchar((unsigned char)line[i]))
            return HTTP_BAD;
    const char *target = sp1 + 1;
    const char *sp2 = memchr(target, ' ', n - (size_t)(target - line));
    if (!sp2 || sp2 == target)
        return HTTP_BAD;
    req->target = target;
    req->target_len = (size_t)(sp2 - target);
    for (size_t i = 0; i < req->target_len; i++)
        if ((unsigned char)target[i] <= ' ' || target[i] == 0x7f)
            return HTTP_BAD;
    const char *version = sp2 + 1;
    size_t vlen = n - (size_t)(version - line);
    if (vlen != 8 || memcmp(version, "HTTP/", 5) != 0 || version[6] != '.' ||
        version[5] < '0' || version[5] > '9' || version[7] < '0' || version[7] > '9')
        return HTTP_BAD;
    if (version[5] != '1' || version[7] > '1')
        return HTTP_VERSION;
    req->minor = version[7] - '0';

    /* Header fields: name ":" OWS value OWS, until the blank line. */
    req->nheaders = 0;
    for (;;) {
        line = http_line(buf, end, &pos, &n);
        if (!line)
            return HTTP_BAD;
        if (n == 0)
            break;
        if (line[0] == ' ' || line[0] == '\t')
            return HTTP_BAD;        /* obsolete line folding */
        const char *colon = memchr(line, ':', n);
        if (!colon || colon == line)
            return HTTP_BAD;
        for (const char *p = line; p < colon; p++)
            if (!http_tchar((unsigned char)*p))
                return HTTP_BAD;    /* no blank before the colon either */
        const char *v = colon + 1, *vend = line + n;
        while (v < vend && (*v == ' ' || *v == '\t'))
            v++;
        while (vend > v && (vend[-1] == ' ' || vend[-1] == '\t'))
            vend--;
        for (const char *p = v; p < vend; p++)
            if (((unsigned char)*p < ' ' && *p != '\t') || *p == 0x7f)
                return HTTP_BAD;
        if (req->nheaders == HTTP_MAX_HEADERS)
            return HTTP_TOO_MANY;
        http_header *h = &req->headers[req->nheaders++];
        h->name = line;
        h->name_len = (size_t)(colon - line);
        h->value = v;
        h->value_len = (size_t)(vend - v);
    }
    return (int)end;
}

/* The value of header `name` (case-insensitive), or NULL. */
static inline const http_header *http_find_header(const http_request *req, const char *name) {
    size_t len = strlen(name);
    for (size_t i = 0; i < req->nheaders; i++)
        if (req->headers[i].name_len == len && strncasecmp(req->headers[i].name, name, len) == 0)
            return &req->headers[i];
    return NULL;
}

/* Does a comma-separated header value hold `token` (case-insensitive)? */
static inline int http_has_token(const http_header *h, const char *token) {
    size_t tlen = strlen(token);
    const char *p = h ? h->value : NULL, *end = h ? h->value + h->value_len : NULL;
    while (p && p < end) {
        while (p < end && (*p == ' ' || *p == '\t' || *p == ','))
            p++;
        const char *q = p;
        while (q < end && *q != ',')
            q++;
        const char *e = q;
        while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        if ((size_t)(e - p) == tlen && strncasecmp(p, token, tlen) == 0)
            return 1;
        p = q;
    }
    return 0;
}

#endif /* HTTP_PARSER_H */

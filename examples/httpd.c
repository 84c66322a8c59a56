/* httpd.c -- a static-file HTTP/1.1 server in plain blocking style.
 *
 *   httpd --root DIR [--port P] [--addr A] [--workers N | --prefork N]
 *         [--timeout MS] [--file-cache-ms MS]
 *
 * One task per connection: read a request head, answer it, repeat
 * (keep-alive and pipelining).  GET and HEAD; files stream in chunks;
 * nothing outside --root is ever opened (the kernel resolves paths beneath
 * the root: openat2 RESOLVE_BENEATH).  A client that sends its head or
 * takes its response slower than --timeout (default 10 s) is dropped.
 * Files of up to 16 KiB are served from memory for --file-cache-ms after
 * they are read (default 100 ms; 0: never).
 * --workers N runs N schedulers on N threads, each with its own
 * SO_REUSEPORT listener; --prefork N forks N processes sharing one.
 * At its connection cap (the fd limit less a small reserve) a new client
 * takes the place of a connection doing nothing: the oldest idle
 * keep-alive one, else the answer stalled longest (its client has taken
 * none of it for STALL_MS), else the head that has sent least for longest.
 * A client that does not read holds no file open while it stalls.  A
 * connection is accepted once its first bytes arrive (TCP_DEFER_ACCEPT):
 * connections that say nothing stay in the kernel and take no slot.
 * Prints "listening on PORT (at most N connections)" once it accepts. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <poll.h>
#include <pthread.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include "rip.h"
#include "http_parser.h"

#define HEAD_MAX 8192               /* request head limit: 431 beyond (414 if the request line is) */
#define CHUNK (64 * 1024)           /* files stream in pieces this big */
#define TURN (4 * CHUNK)            /* an answer lets the other tasks run after each TURN it
                                       sends (a fast client's 64 MiB would hold the
                                       scheduler for as long as it takes) */
#define BODY_MAX (1024 * 1024)      /* request bodies (discarded) beyond: 413 */
#define FD_RESERVE_MIN 8            /* fds kept beyond connections: stdio, root, listener, epoll... */
#define FD_RESERVE_SHARE 32         /* ... and 1/32 of the limit (at most 32 more) for files */
#define FD_WAIT_MS 10               /* out of fds: try again this much later */
#define LINGER_MS 1000              /* a closing connection drains its client at most this long */
#define QUIET_MS 500                /* a connection is shed only after this long quiet */
#define STALL_MS 1000               /* ... an answer only after its client took none of it this long */

static struct {
    int root;                       /* O_PATH fd of --root */
    char root_path[PATH_MAX];       /* its real path, for the realpath fallback */
    int timeout_ms;                 /* --timeout */
    int listener;                   /* worker 0's (or the shared) listening socket */
    struct sockaddr_in addr;        /* where it listens */
    int reuseport;                  /* each worker opens its own listener */
    int max_conns;                  /* connections at once: RLIMIT_NOFILE less the reserve */
    int file_cache_ms;              /* --file-cache-ms: how long a small file is served from memory */
} cfg = { .timeout_ms = 10000, .file_cache_ms = 100 };

static int open_conns;              /* connections now, over all workers (atomic) */

struct request;
struct live_list;

enum conn_state {
    CONN_HEAD,                      /* waiting for (the rest of) a request head */
    CONN_IDLE,                      /* keep-alive, between requests, nothing received */
    CONN_SENDING,                   /* answering: shed only when stalled (STALL_MS) */
    CONN_BUSY,                      /* closing: never shed */
};

/* A connection: its socket and the bytes received but not yet answered.
 * An idle connection holds no buffer (reads land in `scratch` first). */
struct conn {
    struct live_list *list;         /* its worker's list of open connections */
    struct conn *prev, *next;       /* the other open connections of that list */
    enum conn_state state;          /* what it waits for; guarded by list->mu */
    int64_t since;                  /* rip_now_ms() when that state began; guarded by list->mu */
    size_t got;                     /* bytes of the head received so far; guarded by list->mu */
    int64_t last;                   /* rip_now_ms() of its last activity (bytes, a piece of an answer sent, the accept); guarded by list->mu */
    int shed;                       /* shut down to make room: closing; guarded by list->mu */
    int fd;                         /* the client's socket */
    int reset;                      /* an answer was given up on (the client left, was too slow
                                       or was shed): close with a reset, so that the kernel
                                       does not keep trying to deliver the rest */
    struct request *r;              /* the request being read or answered; NULL when idle */
    char *buf;                      /* HEAD_MAX bytes after *r, while bytes are pending */
    size_t have;                    /* bytes in buf */
    size_t seen;                    /* of them, already scanned for the head's end */
};

/* What a request asks for, copied out of the parser's view. */
struct request {
    int head_len;                   /* bytes of the head in conn.buf */
    int status;                     /* 0, or the error status to answer */
    int head_only;                  /* HEAD */
    int keep_alive;                 /* the connection stays open after */
    int minor;                      /* HTTP/1.<minor> */
    long body_len;                  /* Content-Length to discard */
    char path[PATH_MAX];            /* decoded, normalized, relative to root ("." = root) */
};

static __thread char scratch[HEAD_MAX]; /* per scheduler thread: an idle read's landing place */

/* ---- shedding at the cap ------------------------------------------------ */

/* Every open connection, for an acceptor to choose one to shed: a list per
 * worker, so that workers do not contend for one lock on every request,
 * each with a mutex, since on the threads backend each connection is a
 * thread, and an acceptor at the cap may shed another worker's connection
 * (shutdown(2) is safe from anywhere; the owner then sees end of file and
 * closes). */
#define MAX_WORKERS 1024            /* --workers at most */
struct live_list {
    pthread_mutex_t mu;             /* guards the list and its conns' state fields */
    struct conn *first;             /* open connections, newest first */
    int shedding;                   /* shed but not yet closed */
} __attribute__((aligned(64)));     /* a cache line each: workers share none */
static struct live_list live[MAX_WORKERS];
static int live_lists;              /* lists in use: one per worker */

static void conn_open(struct conn *c) {
    struct live_list *l = c->list = &live[rip_worker_id()];
    pthread_mutex_lock(&l->mu);
    c->state = CONN_HEAD;
    c->since = c->last = rip_now_ms();
    c->prev = NULL;
    if ((c->next = l->first))
        c->next->prev = c;
    l->first = c;
    pthread_mutex_unlock(&l->mu);
}

/* Before the socket is closed: the acceptor must never shut a number down
 * once it may name another connection. */
static void conn_closing(struct conn *c) {
    struct live_list *l = c->list;
    pthread_mutex_lock(&l->mu);
    if (c->prev)
        c->prev->next = c->next;
    else
        l->first = c->next;
    if (c->next)
        c->next->prev = c->prev;
    l->shedding -= c->shed;
    pthread_mutex_unlock(&l->mu);
}

static void conn_set(struct conn *c, enum conn_state state, size_t got) {
    pthread_mutex_lock(&c->list->mu);
    c->state = state;
    c->since = c->last = rip_now_ms();
    c->got = got;
    pthread_mutex_unlock(&c->list->mu);
}

/* n more bytes of a head arrived (an idle connection's begin one). */
static void conn_got(struct conn *c, size_t n) {
    pthread_mutex_lock(&c->list->mu);
    c->last = rip_now_ms();
    if (c->state == CONN_IDLE) {
        c->state = CONN_HEAD;
        c->since = c->last;
    }
    c->got += n;
    pthread_mutex_unlock(&c->list->mu);
}

/* A piece of the answer went out. */
static void conn_sent(struct conn *c) {
    pthread_mutex_lock(&c->list->mu);
    c->last = rip_now_ms();
    pthread_mutex_unlock(&c->list->mu);
}

/* Bytes wait in fd that its task has not read yet (it has not run since
 * they came): the connection is not doing nothing. */
static int unread(int fd) {
    int n = 0;
    return ioctl(fd, FIONREAD, &n) == 0 && n > 0;
}

/* How long (ms) the client of fd has taken none of the answer: its send
 * buffer is full (so its task waits to write) and no byte went out since;
 * 0 if it is moving or the kernel does not say. */
static int64_t answer_stalled_ms(int fd) {
    struct pollfd p = { .fd = fd, .events = POLLOUT };
    struct tcp_info info;
    socklen_t len = sizeof info;
    if (poll(&p, 1, 0) != 0 || getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len) != 0 ||
        len < offsetof(struct tcp_info, tcpi_last_data_sent) + sizeof info.tcpi_last_data_sent)
        return 0;
    return info.tcpi_last_data_sent;
}

/* Shut down the connection doing least, of every worker's: the oldest
 * idle one, else the answer whose client has taken none of it for longest
 * (at least STALL_MS), else the head that has sent least for longest (ms
 * waited per byte received).  Its task reads end of file (or fails to
 * write) and closes it.  1, or 0 if every one is busy. */
static int shed_one(void) {
    int64_t now = rip_now_ms(), best = -1;
    struct conn *victim = NULL;
    for (int i = 0; i < live_lists; i++)
        pthread_mutex_lock(&live[i].mu);
    for (int i = 0; i < live_lists; i++) {
        for (struct conn *c = live[i].first; c; c = c->next) {
            if (c->shed || c->state == CONN_BUSY || now - c->last < QUIET_MS)
                continue;           /* busy, or active just now (a client between requests,
                                       a task about to parse what came) */
            int64_t stall;
            if (c->state == CONN_SENDING) {
                if (now - c->last < STALL_MS || INT64_MAX / 4 + (now - c->last) < best)
                    continue;       /* a piece of its answer went out just now, or an idle
                                       connection or a longer stall is the one to go */
                int64_t stalled = answer_stalled_ms(c->fd);
                if (stalled < STALL_MS)
                    continue;       /* its client is taking the answer */
                stall = INT64_MAX / 4 + (stalled < now - c->last ? stalled : now - c->last);
            } else {
                stall = c->state == CONN_IDLE ? INT64_MAX / 2 + (now - c->since)
                                              : (now - c->since) / (int64_t)(c->got + 1);
                if (stall < best || unread(c->fd))
                    continue;       /* ... or its task has not read what came yet */
            }
            if (stall >= best) {    /* >=: of equals, the oldest (newest first) */
                best = stall;
                victim = c;
            }
        }
    }
    if (victim) {
        victim->shed = 1;
        victim->list->shedding++;
        shutdown(victim->fd, SHUT_RDWR);
    }
    for (int i = live_lists - 1; i >= 0; i--)
        pthread_mutex_unlock(&live[i].mu);
    return victim != NULL;
}

static int shedding(void) {
    int n = 0;
    for (int i = 0; i < live_lists; i++) {
        pthread_mutex_lock(&live[i].mu);
        n += live[i].shedding;
        pthread_mutex_unlock(&live[i].mu);
    }
    return n;
}

/* A client waits in lfd's backlog (poll with no timeout: never blocks). */
static int client_waiting(int lfd) {
    struct pollfd p = { .fd = lfd, .events = POLLIN };
    return poll(&p, 1, 0) == 1;
}

/* ---- requests (plain C: nothing here blocks) -------------------------- */

static int hexval(int c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
         : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
}

/* Percent-decode the target's path and resolve "." and ".." lexically into
 * out ("a/b", or "." for the root).  0, or an HTTP status. */
static int decode_path(const char *t, size_t len, char *out, size_t cap) {
    const char *end = t + len, *q = memchr(t, '?', len);
    if (q)
        end = q;
    if (len > 7 && strncasecmp(t, "http://", 7) == 0) {  /* absolute form: skip the authority */
        t = memchr(t + 7, '/', (size_t)(end - t - 7));
        if (!t)
            return 400;
    }
    if (t >= end || *t != '/')
        return 400;
    size_t n = 0, seg = 0;          /* out[0..n); seg = start of the current segment */
    for (const char *p = t; p <= end; p++) {
        int c = p < end ? (unsigned char)*p : '/';
        if (c == '%') {
            int hi = p + 2 < end ? hexval(p[1]) : -1, lo = p + 2 < end ? hexval(p[2]) : -1;
            if (hi < 0 || lo < 0)
                return 400;
            c = hi * 16 + lo;
            p += 2;
            if (c == 0)
                return 400;
            if (c == '/') {         /* an encoded slash names no file here */
                return 404;
            }
        } else if (c == '/') {
            size_t sl = n - seg;    /* the segment just ended */
            if (sl == 0 || (sl == 1 && out[seg] == '.')) {
                n = seg;            /* empty or ".": drop */
            } else if (sl == 2 && out[seg] == '.' && out[seg + 1] == '.') {
                if (seg == 0)
                    return 400;     /* above the root */
                n = seg - 1;        /* drop "..", then the segment before it */
                while (n > 0 && out[n - 1] != '/')
                    n--;
            } else {
                if (n + 1 >= cap)
                    return 414;
                out[n++] = '/';
            }
            seg = n;
            continue;
        }
        if (n + 2 >= cap)
            return 414;
        out[n++] = (char)c;
    }
    if (n > 0 && out[n - 1] == '/')
        n--;
    if (n == 0)
        out[n++] = '.';
    out[n] = '\0';
    return 0;
}

/* A request line ends in buf[0..len) (after the empty lines that may
 * come first): a head over HEAD_MAX is then 431, else 414 (RFC 9112 3). */
static int line_ended(const char *buf, size_t len) {
    size_t i = 0;
    while (i < len && (buf[i] == '\r' || buf[i] == '\n'))
        i++;
    return memchr(buf + i, '\n', len - i) != NULL;
}

/* RFC 3986 reg-name and IP-literal characters (unreserved, sub-delims,
 * '%' of an escape, and ':' '[' ']' of an IPv6 literal). */
static int host_char(unsigned char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           (c && strchr("-._~!$&'()*+,;=%:[]", c));
}

/* RFC 9112 3.2: one Host header at most, required on HTTP/1.1, not empty
 * there, and a valid uri-host [":" port]: "example.com:8080",
 * "[::1]:80", "10.0.0.1"; not "a b", "a/b", "a:b:c" or "a:x".  Its value
 * is not otherwise used (one site per server). */
static int host_ok(const http_request *req) {
    const http_header *host = NULL;
    for (size_t i = 0; i < req->nheaders; i++) {
        const http_header *h = &req->headers[i];
        if (h->name_len == 4 && strncasecmp(h->name, "Host", 4) == 0) {
            if (host)
                return 0;           /* two of them */
            host = h;
        }
    }
    if (!host)
        return req->minor == 0;
    const char *v = host->value, *end = v + host->value_len;
    if (v == end)
        return req->minor == 0;
    const char *colon = end;        /* the port's colon: after an IP literal's ']' */
    if (*v == '[') {
        const char *close = memchr(v, ']', (size_t)(end - v));
        if (!close || close == v + 1 || (close + 1 < end && close[1] != ':'))
            return 0;
        for (const char *p = v + 1; p < close; p++)
            if (!host_char((unsigned char)*p) || *p == '[' || *p == '%')
                return 0;
        colon = close + 1;
    } else {
        const char *c = memchr(v, ':', (size_t)(end - v));
        colon = c ? c : end;
        if (colon == v)
            return 0;           /* no host before the port */
        for (const char *p = v; p < colon; p++) {
            if (!host_char((unsigned char)*p) || *p == '[' || *p == ']' || *p == ':')
                return 0;
            if (*p == '%' && (colon - p < 3 || hexval(p[1]) < 0 || hexval(p[2]) < 0))
                return 0;
        }
    }
    for (const char *p = colon < end ? colon + 1 : end; p < end; p++)
        if (*p < '0' || *p > '9')
            return 0;           /* the port: digits (none is allowed) */
    return 1;
}

/* Parse the head in c->buf into r.  Returns HTTP_PARTIAL, or the head's
 * length with r->status 0 or the status to answer. */
static int parse(struct conn *c, struct request *r) {
    http_request req;
    int n = http_parse_request(c->buf, c->have, c->seen, &req);
    c->seen = c->have;
    if (n == HTTP_PARTIAL && c->have < HEAD_MAX)
        return HTTP_PARTIAL;
    memset(r, 0, offsetof(struct request, path));
    r->path[0] = '\0';              /* an error answer has none: respond reads it all the same */
    r->keep_alive = 1;
    if (n < 0) {                    /* broken or too big: answer, then close */
        r->status = n == HTTP_PARTIAL ? (line_ended(c->buf, c->have) ? 431 : 414)
                  : n == HTTP_TOO_MANY ? 431 : n == HTTP_VERSION ? 505 : 400;
        r->keep_alive = 0;
        r->minor = 1;
        r->head_len = (int)c->have;
        return (int)c->have;
    }
    r->head_len = n;
    r->minor = req.minor;
    const http_header *conn = http_find_header(&req, "Connection");
    r->keep_alive = req.minor == 1 ? !http_has_token(conn, "close")
                                   : http_has_token(conn, "keep-alive");
    const http_header *cl = http_find_header(&req, "Content-Length");
    for (size_t i = 0; cl && i < req.nheaders; i++) {   /* RFC 9112 6.3: differing lengths */
        const http_header *h = &req.headers[i];
        if (h != cl && h->name_len == 14 && strncasecmp(h->name, "Content-Length", 14) == 0 &&
            (h->value_len != cl->value_len || memcmp(h->value, cl->value, h->value_len)))
            return r->status = 400, r->keep_alive = 0, n;
    }
    if (http_find_header(&req, "Transfer-Encoding")) {
        r->status = 501;            /* no request bodies in chunks here */
        r->keep_alive = 0;
        return n;
    }
    if (cl) {
        char *end;
        char num[24];
        if (cl->value_len == 0 || cl->value_len >= sizeof num)
            return r->status = 400, r->keep_alive = 0, n;
        memcpy(num, cl->value, cl->value_len);
        num[cl->value_len] = '\0';
        r->body_len = strtol(num, &end, 10);
        if (*end || r->body_len < 0 || num[0] < '0' || num[0] > '9')
            return r->status = 400, r->keep_alive = 0, n;
        if (r->body_len > BODY_MAX)
            return r->status = 413, r->keep_alive = 0, n;
    }
    if (!host_ok(&req))
        return r->status = 400, n;
    if (req.method_len == 3 && memcmp(req.method, "GET", 3) == 0) {
        r->head_only = 0;
    } else if (req.method_len == 4 && memcmp(req.method, "HEAD", 4) == 0) {
        r->head_only = 1;
    } else {
        static const char *const known[] = { "POST", "PUT", "DELETE", "OPTIONS", "PATCH",
                                             "TRACE", "CONNECT" };
        r->status = 501;
        for (size_t i = 0; i < sizeof known / sizeof *known; i++)
            if (req.method_len == strlen(known[i]) && memcmp(req.method, known[i], req.method_len) == 0)
                r->status = 405;
        return n;
    }
    r->status = decode_path(req.target, req.target_len, r->path, sizeof r->path);
    return n;
}

static const char *reason(int status) {
    switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 413: return "Content Too Large";
    case 414: return "URI Too Long";
    case 431: return "Request Header Fields Too Large";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    }
    return "Internal Server Error";
}

static const char *content_type(const char *path) {
    static const char *const types[][2] = {
        { "html", "text/html; charset=utf-8" }, { "htm", "text/html; charset=utf-8" },
        { "css", "text/css" }, { "js", "text/javascript" }, { "json", "application/json" },
        { "txt", "text/plain; charset=utf-8" }, { "xml", "application/xml" },
        { "png", "image/png" }, { "jpg", "image/jpeg" }, { "jpeg", "image/jpeg" },
        { "gif", "image/gif" }, { "svg", "image/svg+xml" }, { "ico", "image/x-icon" },
        { "webp", "image/webp" }, { "pdf", "application/pdf" }, { "wasm", "application/wasm" },
        { "woff2", "font/woff2" }, { "mp4", "video/mp4" },
    };
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');
    if (dot && (!slash || dot > slash))
        for (size_t i = 0; i < sizeof types / sizeof *types; i++)
            if (strcasecmp(dot + 1, types[i][0]) == 0)
                return types[i][1];
    return "application/octet-stream";
}

/* Open root-relative `path` read-only, never leaving the root. */
static int open_beneath(const char *path) {
    static int no_openat2;
    if (!no_openat2) {
        struct open_how how = { .flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK, /* a FIFO must not block */
                                .resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS };
        long fd = syscall(SYS_openat2, cfg.root, path, &how, sizeof how);
        if (fd >= 0 || (errno != ENOSYS && errno != EPERM))
            return (int)fd;
        no_openat2 = 1;             /* an old kernel: check the real path instead */
    }
    char full[2 * PATH_MAX], real[PATH_MAX];
    snprintf(full, sizeof full, "%s/%s", cfg.root_path, path);
    if (!realpath(full, real))
        return -1;
    size_t rl = strlen(cfg.root_path);
    if (strncmp(real, cfg.root_path, rl) != 0 || (real[rl] != '/' && real[rl] != '\0')) {
        errno = EXDEV;
        return -1;
    }
    return open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
}

/* The file for r->path: an fd and its stat (*st), or -1 with the status to answer. */
static int open_file(struct request *r, struct stat *st_out) {
    int fd = open_beneath(r->path);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        size_t n = strlen(r->path);
        if (n + sizeof "/index.html" > sizeof r->path)
            return r->status = 404, -1;
        strcpy(r->path + n, "/index.html");
        fd = open_beneath(r->path);
        if (fd >= 0 && fstat(fd, &st) == -1) {
            close(fd);
            fd = -1;
        }
    }
    if (fd < 0) {
        r->status = errno == EACCES ? 403 : errno == EMFILE || errno == ENFILE ? 503 : 404;
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        r->status = 403;
        return -1;
    }
    *st_out = st;
    return fd;
}

/* Append string s at *p, never at or past end. */
static void put(char **p, const char *end, const char *s) {
    while (*s && *p < end)
        *(*p)++ = *s++;
}

/* A response head into out (cap bytes, NUL-terminated): its length.  By
 * hand, not snprintf, which took a third of the server's instructions. */
static int format_head(char *out, size_t cap, int status, const char *type, long long len,
                       int keep_alive, int minor) {
    char digits[24], *d = digits + sizeof digits;
    unsigned long long v = len > 0 ? (unsigned long long)len : 0;
    *--d = '\0';
    do
        *--d = (char)('0' + v % 10);
    while (v /= 10);
    char code[4] = { (char)('0' + status / 100 % 10), (char)('0' + status / 10 % 10),
                     (char)('0' + status % 10), '\0' };
    char *p = out;
    const char *end = out + cap - 1;
    put(&p, end, "HTTP/1.1 ");
    put(&p, end, code);
    put(&p, end, " ");
    put(&p, end, reason(status));
    put(&p, end, "\r\nServer: ripper-httpd\r\nContent-Type: ");
    put(&p, end, type);
    put(&p, end, "\r\nContent-Length: ");
    put(&p, end, d);
    put(&p, end, "\r\n");
    put(&p, end, !keep_alive ? "Connection: close\r\n"
                 : minor == 0 ? "Connection: keep-alive\r\n" : "");
    put(&p, end, status == 405 ? "Allow: GET, HEAD\r\n" : "");
    put(&p, end, "\r\n");
    *p = '\0';
    return (int)(p - out);
}

/* ---- request buffers ---------------------------------------------------- */

/* A request and its HEAD_MAX bytes of head: 12 KiB, too big for malloc's
 * fast bins, and taken and given back on every keep-alive request.  Each
 * worker keeps up to POOLED of them (the threads backend has no worker
 * thread to keep them for, and uses malloc). */
#define POOLED 32
#define REQUEST_BYTES (sizeof(struct request) + HEAD_MAX)
#ifdef RIP_BACKEND_THREADS
static struct request *request_new(void) { return malloc(REQUEST_BYTES); }
static void request_free(struct request *r) { free(r); }
#else
static struct request_pool {
    struct request *free[POOLED];   /* buffers to hand out again */
    int n;                          /* how many */
} pools[MAX_WORKERS];

static struct request *request_new(void) {
    struct request_pool *p = &pools[rip_worker_id()];
    return p->n ? p->free[--p->n] : malloc(REQUEST_BYTES);
}

static void request_free(struct request *r) {
    struct request_pool *p = &pools[rip_worker_id()];
    if (r && p->n < POOLED)
        p->free[p->n++] = r;
    else
        free(r);
}
#endif

/* ---- connections (blocking style: these are the async functions) ------ */

/* Write all of buf, giving the client --timeout for it.  If it fails,
 * what the kernel still holds of the answer is dropped at close. */
static int send_all(struct conn *c, const char *buf, size_t len) {
    rip_set_deadline(rip_now_ms() + cfg.timeout_ms);
    if (rip_write(c->fd, buf, len) == (ssize_t)len)
        return 0;
    c->reset = 1;
    return -1;
}

static int send_error(struct conn *c, struct request *r) {
    char msg[512];
    char body[128];
    int blen = snprintf(body, sizeof body, "%d %s\n", r->status, reason(r->status));
    int hlen = format_head(msg, sizeof msg - sizeof body, r->status, "text/plain; charset=utf-8",
                           blen, r->keep_alive, r->minor);
    if (!r->head_only) {
        memcpy(msg + hlen, body, (size_t)blen);
        hlen += blen;
    }
    return send_all(c, msg, (size_t)hlen);
}

/* ---- the small-file cache ------------------------------------------------ */

/* A file of at most SMALL_FILE bytes is kept in memory for --file-cache-ms
 * after it is read (100 ms by default; 0: never), so that a busy server
 * answers it with no open, fstat, pread and close: a change on disk shows
 * within that time.  One cache per worker, direct-mapped on the path; the
 * threads backend has no per-worker thread to keep one for, so it reads
 * every time. */
#define SMALL_FILE 16384            /* bytes: larger files are read for every request */
#define FILE_CACHE_SLOTS 64         /* entries per worker */

#define HEAD_ROOM 512               /* a response head fits in this */

/* A cached file's whole 200 answer to an HTTP/1.1 keep-alive request, the
 * commonest: sent as it is, with no copy.  A task sending it holds a
 * reference, since the cache may replace the entry while the task waits
 * on the socket.  Only its worker's tasks see it: no lock. */
struct answer {
    long refs;                      /* the cache entry's, plus one per task sending it */
    size_t head;                    /* bytes of head; the file's bytes follow */
    size_t len;                     /* bytes of head and file */
    char bytes[];                   /* the answer */
};

static void answer_drop(struct answer *a) {
    if (a && --a->refs == 0)
        free(a);
}

struct cached_file {
    char *path;                     /* the request path it answers (malloc'd); NULL: free */
    struct answer *answer;          /* the file's bytes, after a 1.1 keep-alive head */
    size_t size;                    /* how many bytes the file has */
    const char *type;               /* its Content-Type */
    int64_t until;                  /* rip_now_ms() from which it is read again */
};
#ifdef RIP_BACKEND_THREADS
static struct cached_file *cache_slot(const char *path, size_t len) {
    (void)path, (void)len;
    return NULL;
}
#else
static struct cached_file *file_caches[MAX_WORKERS]; /* each worker's slots, made on first use */

static struct cached_file *cache_slot(const char *path, size_t len) {
    if (cfg.file_cache_ms == 0)
        return NULL;
    struct cached_file **slots = &file_caches[rip_worker_id()];
    if (!*slots && !(*slots = calloc(FILE_CACHE_SLOTS, sizeof **slots)))
        return NULL;
    uint32_t h = 2166136261u;       /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)path[i]) * 16777619u;
    return &(*slots)[h % FILE_CACHE_SLOTS];
}
#endif

/* The fresh cached copy of r->path, or NULL. */
static const struct cached_file *cache_find(const struct request *r) {
    size_t len = strlen(r->path);
    const struct cached_file *e = cache_slot(r->path, len);
    if (!e || !e->path || strcmp(e->path, r->path) != 0 || rip_now_ms() >= e->until)
        return NULL;
    return e;
}

/* Keep `size` bytes of the file that answers request path `path` (the
 * first `len` bytes of it: open_file may have appended /index.html). */
static void cache_keep(const char *path, size_t len, const char *data, size_t size,
                       const char *type) {
    struct cached_file *e = cache_slot(path, len);
    if (!e)
        return;
    char head[HEAD_ROOM];
    size_t hlen = (size_t)format_head(head, sizeof head, 200, type, (long long)size, 1, 1);
    char *p = malloc(len + 1);
    struct answer *a = malloc(sizeof *a + hlen + size);
    if (!p || !a) {
        free(p);
        free(a);
        return;
    }
    memcpy(p, path, len);
    p[len] = '\0';
    *a = (struct answer){ .refs = 1, .head = hlen, .len = hlen + size };
    memcpy(a->bytes, head, hlen);
    memcpy(a->bytes + hlen, data, size);
    free(e->path);
    answer_drop(e->answer);
    *e = (struct cached_file){ p, a, size, type, rip_now_ms() + cfg.file_cache_ms };
}

/* A buffer holding the head of a 200 answer of `size` bytes of `type`
 * (its length in *hlen), with `room` bytes after it for the body; NULL
 * if out of memory. */
static char *response_start(const struct request *r, const char *type, long long size,
                            size_t room, int *hlen) {
    char *buf = malloc(HEAD_ROOM + room);
    if (buf)
        *hlen = format_head(buf, HEAD_ROOM, 200, type, size, r->keep_alive, r->minor);
    return buf;
}

/* Answer r from the cache: as respond() does. */
static int respond_cached(struct conn *c, struct request *r, const struct cached_file *e) {
    struct answer *a = e->answer;
    if (r->keep_alive && r->minor == 1) {   /* the cached answer is this one's */
        a->refs++;
        int ok = send_all(c, a->bytes, a->len) == 0;
        answer_drop(a);
        return ok ? 0 : -1;
    }
    int hlen = 0;
    char *buf = response_start(r, e->type, (long long)e->size, e->size, &hlen);
    if (!buf)
        return -1;
    memcpy(buf + hlen, a->bytes + a->head, e->size); /* before any wait: e may be replaced after */
    int ok = send_all(c, buf, (size_t)hlen + e->size) == 0;
    free(buf);
    return ok ? !r->keep_alive : -1;
}

/* open_file, and if no fd is free, wait for one (others will give
 * theirs back) up to --timeout: then r->status is 503. */
static int open_waiting(struct request *r, struct stat *st) {
    int file = open_file(r, st);
    for (int64_t until = rip_now_ms() + cfg.timeout_ms; file < 0 && r->status == 503 &&
         rip_now_ms() < until; ) {
        rip_sleep_ms(FD_WAIT_MS);
        r->status = 0;
        file = open_file(r, st);
    }
    return file;
}

/* The file an answer was being read from, opened again (it was closed
 * while the client was slow): -1 if it is no longer the same file, same
 * size and same modification time, since the answer cannot go on then. */
static int reopen(struct request *r, const struct stat *was) {
    struct stat st;
    int file = open_waiting(r, &st);
    if (file >= 0 && (st.st_dev != was->st_dev || st.st_ino != was->st_ino ||
                      st.st_size != was->st_size || st.st_mtim.tv_sec != was->st_mtim.tv_sec ||
                      st.st_mtim.tv_nsec != was->st_mtim.tv_nsec)) {
        close(file);
        file = -1;
    }
    return file;
}

/* Send a piece of an answer read from *file.  If the client does not
 * take it all at once, close *file (-1) before waiting: a client that
 * does not read must not hold one of the few fds kept for files. */
static int send_piece(struct conn *c, int *file, const char *buf, size_t len) {
    ssize_t n = *file >= 0 ? send(c->fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL) : 0;
    if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
        return c->reset = 1, -1;
    if (n < (ssize_t)len) {
        if (*file >= 0)
            close(*file);
        *file = -1;
        if (send_all(c, buf + (n > 0 ? n : 0), len - (size_t)(n > 0 ? n : 0)) != 0)
            return -1;
    }
    conn_sent(c);
    return 0;
}

/* Answer one parsed request: 0 to keep the connection, 1 to close it once
 * answered, -1 to close it now (the client left or was too slow). */
static int respond(struct conn *c, struct request *r) {
    const struct cached_file *hit = r->status || r->head_only ? NULL : cache_find(r);
    if (hit)
        return respond_cached(c, r, hit);
    size_t asked = strlen(r->path);  /* open_file may append /index.html */
    struct stat st;
    int file = r->status ? -1 : open_waiting(r, &st);
    if (file < 0)
        return send_error(c, r) == 0 ? !r->keep_alive : -1;
    off_t size = st.st_size;
    const char *type = content_type(r->path);
    size_t first = r->head_only ? 0 : size < CHUNK ? (size_t)size : CHUNK;
    int hlen = 0;
    char *buf = response_start(r, type, (long long)size, first, &hlen);
    int ok = buf != NULL;
    off_t sent = 0;
    if (ok) {
        ssize_t n = first ? pread(file, buf + hlen, first, 0) : 0;
        if (n == (ssize_t)first && !r->head_only && size <= SMALL_FILE)
            cache_keep(r->path, asked, buf + hlen, (size_t)size, type);
        if (r->head_only || (off_t)first == size) {
            close(file);            /* all of it is in buf */
            file = -1;
        }
        ok = n == (ssize_t)first && send_piece(c, &file, buf, (size_t)hlen + first) == 0;
        sent = (off_t)first;
    }
    while (ok && !r->head_only && sent < size) {    /* a big file: the rest in chunks */
        if (file < 0 && (file = reopen(r, &st)) < 0) {
            ok = 0;
            break;
        }
        size_t want = size - sent < CHUNK ? (size_t)(size - sent) : CHUNK;
        ssize_t n = pread(file, buf, want, sent);
        ok = n > 0 && send_piece(c, &file, buf, (size_t)n) == 0;
        sent += n > 0 ? n : 0;
        if (ok && sent % TURN < CHUNK)
            rip_yield();
    }
    free(buf);
    if (file >= 0)
        close(file);
    return ok ? !r->keep_alive : -1;
}

/* Read until c->buf holds a complete head and parse it into c->r: 0, or
 * -1 when the client left or was too slow. */
static int read_head(struct conn *c) {
    rip_set_deadline(rip_now_ms() + cfg.timeout_ms);
    while (!c->have || parse(c, c->r) == HTTP_PARTIAL) {
        ssize_t got;
        if (!c->have) {             /* idle: no buffer until bytes arrive */
            got = rip_read(c->fd, scratch, sizeof scratch);
            if (got > 0) {
                if (!(c->r = request_new()))
                    return -1;
                c->buf = (char *)(c->r + 1);
                memcpy(c->buf, scratch, (size_t)got);
            }
        } else {
            got = rip_read(c->fd, c->buf + c->have, HEAD_MAX - c->have);
        }
        if (got <= 0)
            return -1;              /* closed, reset, timed out or shed */
        c->have += (size_t)got;
        conn_got(c, (size_t)got);
    }
    conn_set(c, CONN_SENDING, c->have);
    return 0;
}

/* Drop the answered request's head and body from the buffer: what is left
 * is the next pipelined request.  -1 if the client left mid-body. */
static int consume(struct conn *c) {
    size_t drop = (size_t)c->r->head_len;
    long body = c->r->body_len;
    while (body > 0 && c->have - drop < (size_t)body) {  /* a body we don't serve */
        body -= (long)(c->have - drop);
        c->have = drop = 0;
        ssize_t got = rip_read(c->fd, c->buf, HEAD_MAX);
        if (got <= 0)
            return -1;
        c->have = (size_t)got;
    }
    drop += (size_t)body;
    memmove(c->buf, c->buf + drop, c->have - drop);
    c->have -= drop;
    c->seen = 0;
    if (c->have == 0) {             /* idle again: give the buffer back */
        request_free(c->r);
        c->r = NULL;
        c->buf = NULL;
    }
    conn_set(c, c->have ? CONN_HEAD : CONN_IDLE, c->have);  /* a pipelined head, or none */
    return 0;
}

/* Before closing a connection whose client may still be sending (a
 * request body left unread after an error, more pipelined requests after a
 * "Connection: close"): closing with bytes unread would send an RST that
 * can destroy the answer still in flight.  So stop sending and drop what
 * arrives until the client closes or LINGER_MS pass. */
static void linger(int fd) {
    shutdown(fd, SHUT_WR);
    rip_set_deadline(rip_now_ms() + (cfg.timeout_ms < LINGER_MS ? cfg.timeout_ms : LINGER_MS));
    while (rip_read(fd, scratch, sizeof scratch) > 0)
        ;
}

static void connection(void *arg) {
    struct conn c = { .fd = (int)(intptr_t)arg };
    int one = 1, state;
    setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    conn_open(&c);
    while ((state = read_head(&c)) == 0 && (state = respond(&c, c.r)) == 0 &&
           (state = consume(&c)) == 0)
        ;
    request_free(c.r);
    if (state > 0) {                /* answered, to be closed: busy, never shed */
        conn_set(&c, CONN_BUSY, 0);
        linger(c.fd);
    }
    conn_closing(&c);
    if (c.reset) {
        struct linger now = { .l_onoff = 1, .l_linger = 0 };
        setsockopt(c.fd, SOL_SOCKET, SO_LINGER, &now, sizeof now);
    }
    rip_close(c.fd);
    __atomic_sub_fetch(&open_conns, 1, __ATOMIC_RELAXED);
}

/* ---- listening ---------------------------------------------------------- */

static int listen_on(const struct sockaddr_in *addr, int reuseport) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
    if (fd < 0)
        return -1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    /* A client is accepted once its first bytes come (or after about
     * --timeout): connections that say nothing stay in the kernel and take
     * neither an fd nor a place in the accept queue ahead of real clients. */
    int defer_s = (cfg.timeout_ms + 999) / 1000;
    setsockopt(fd, IPPROTO_TCP, TCP_DEFER_ACCEPT, &defer_s, sizeof defer_s);
    if ((reuseport && setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) < 0) ||
        bind(fd, (const struct sockaddr *)addr, sizeof *addr) < 0 || listen(fd, 4096) < 0) {
        int err = errno;
        close(fd);
        errno = err;
        return -1;
    }
    return fd;
}

/* Each worker's first task: accept forever, a task per connection. */
static void acceptor(void *arg) {
    int lfd = cfg.listener;
    (void)arg;
    if (cfg.reuseport && rip_worker_id() > 0 && (lfd = listen_on(&cfg.addr, 1)) < 0) {
        fprintf(stderr, "httpd: worker %d: listen: %s\n", rip_worker_id(), strerror(errno));
        exit(1);
    }
    for (;;) {
        int open = __atomic_load_n(&open_conns, __ATOMIC_RELAXED);
        if (open >= cfg.max_conns) {
            /* Full: new clients wait in the backlog, unless one can take
             * the place of a connection doing nothing. */
            if (open - shedding() < cfg.max_conns || (client_waiting(lfd) && shed_one()))
                rip_sleep_ms(1);    /* a shed connection is closing */
            else
                rip_sleep_ms(FD_WAIT_MS);
            continue;
        }
        int fd = rip_accept(lfd, NULL, NULL);
        if (fd >= 0) {
            __atomic_add_fetch(&open_conns, 1, __ATOMIC_RELAXED);
            rip_spawn(connection, (void *)(intptr_t)fd);
        } else if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM) {
            rip_sleep_ms(50);       /* out of fds: connections wait in the backlog */
        } else if (errno != EINTR && errno != ECONNABORTED && errno != EPROTO) {
            fprintf(stderr, "httpd: accept: %s\n", strerror(errno));
            rip_sleep_ms(50);
        }
    }
}

/* ---- main --------------------------------------------------------------- */

static void usage(void) {
    fputs("usage: httpd --root DIR [--port P] [--addr A] [--workers N | --prefork N] "
          "[--timeout MS] [--file-cache-ms MS]\n", stderr);
    exit(2);
}

static long number(const char *s, long lo, long hi) {
    char *end;
    long v = s ? strtol(s, &end, 10) : 0;
    if (!s || *end || v < lo || v > hi)
        usage();
    return v;
}

/* A --prefork child: serve until the parent goes. */
static pid_t start_child(void) {
    pid_t parent = getpid(), pid = fork();
    if (pid != 0)
        return pid;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(0);                   /* the parent went before prctl */
    _exit(rip_run(acceptor, NULL) ? 1 : 0);
}

/* --prefork: n children accept on the shared listener; one that dies is replaced. */
static int prefork(int n) {
    for (int i = 0; i < n; i++) {
        if (start_child() < 0) {
            perror("httpd: fork");
            return 1;
        }
    }
    for (;;) {
        int status;
        pid_t pid = wait(&status);
        if (pid < 0)
            return errno == ECHILD ? 0 : 1;
        fprintf(stderr, "httpd: worker process %d ended; starting another\n", (int)pid);
        sleep(1);
        start_child();
    }
}

int main(int argc, char **argv) {
    const char *root = NULL, *addr = "0.0.0.0";
    long port = 8080, workers = 0, procs = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--root") && v) root = argv[++i];
        else if (!strcmp(a, "--port")) port = number(v, 0, 65535), i++;
        else if (!strcmp(a, "--addr") && v) addr = argv[++i];
        else if (!strcmp(a, "--workers")) workers = number(v, 1, MAX_WORKERS), i++;
        else if (!strcmp(a, "--prefork")) procs = number(v, 1, 1024), i++;
        else if (!strcmp(a, "--timeout")) cfg.timeout_ms = (int)number(v, 1, 86400000), i++;
        else if (!strcmp(a, "--file-cache-ms")) cfg.file_cache_ms = (int)number(v, 0, 86400000), i++;
        else usage();
    }
    if (!root || (workers && procs))
        usage();
    live_lists = workers > 1 ? (int)workers : 1;
    for (int i = 0; i < live_lists; i++)
        pthread_mutex_init(&live[i].mu, NULL);
    signal(SIGPIPE, SIG_IGN);
    struct rlimit nofile;
    getrlimit(RLIMIT_NOFILE, &nofile);
    rlim_t share = nofile.rlim_cur / FD_RESERVE_SHARE;
    rlim_t reserve = FD_RESERVE_MIN + (share < 32 ? share : 32)
                   + 3 * (rlim_t)workers;   /* each worker: epoll, listener, wakeup */
    cfg.max_conns = nofile.rlim_cur > reserve + INT_MAX ? INT_MAX
                  : nofile.rlim_cur > reserve + 1 ? (int)(nofile.rlim_cur - reserve) : 1;
    if ((cfg.root = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0 ||
        !realpath(root, cfg.root_path)) {
        fprintf(stderr, "httpd: %s: %s\n", root, strerror(errno));
        return 1;
    }
    cfg.addr.sin_family = AF_INET;
    cfg.addr.sin_port = htons((uint16_t)port);
    if (inet_pton(AF_INET, addr, &cfg.addr.sin_addr) != 1) {
        fprintf(stderr, "httpd: %s: not an IPv4 address\n", addr);
        return 2;
    }
    cfg.reuseport = workers > 1;
    if ((cfg.listener = listen_on(&cfg.addr, cfg.reuseport)) < 0) {
        fprintf(stderr, "httpd: %s:%ld: %s\n", addr, port, strerror(errno));
        return 1;
    }
    socklen_t len = sizeof cfg.addr;        /* port 0: the others bind the one chosen */
    getsockname(cfg.listener, (struct sockaddr *)&cfg.addr, &len);
    printf("listening on %d (at most %d connections)\n", ntohs(cfg.addr.sin_port),
           cfg.max_conns);
    fflush(stdout);
    if (procs)
        return prefork((int)procs);
    return (workers > 1 ? rip_run_workers((int)workers, acceptor, NULL)
                        : rip_run(acceptor, NULL)) ? 1 : 0;
}

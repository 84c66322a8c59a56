/* kvd.c -- a line-oriented key-value server in plain POSIX: a thread per
 * connection, stdio on its socket, one table behind a mutex.
 *
 *   kvd [--port P] [--addr A]
 *
 * One command per line (at most LINE_MAX_BYTES, newline included):
 *   SET key value   OK               (the value is the rest of the line)
 *   GET key         VALUE value, or NOT_FOUND
 *   DEL key         DELETED, or NOT_FOUND
 *   INCR key        the new number (a missing key counts as 0), or ERR not a number
 *   WAIT key        VALUE value once the key exists (a condition variable)
 *   STATS           KEYS n CLIENTS m
 *   QUIT            BYE, and the connection closes
 * Anything else is ERR unknown command; a longer line, ERR line too long.
 * Prints "listening on PORT" once it accepts.
 *
 * Nothing here knows of ripper: it is the kind of program `--posix` (issue
 * 22) is for, written as people write them, and today it is built plainly
 * (cc -pthread). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define LINE_MAX_BYTES 1024         /* a command line, newline included */
#define BUCKETS 4096                /* hash table buckets (chained) */

/* A key and its value, in its bucket's chain. */
struct entry {
    struct entry *next;             /* the next entry of the same bucket */
    char *key;                      /* malloc'd, no spaces */
    char *value;                    /* malloc'd, the rest of a SET line */
};

static struct {
    pthread_mutex_t mu;             /* guards everything below */
    pthread_cond_t changed;         /* broadcast when a key is set (WAIT) */
    struct entry *buckets[BUCKETS]; /* the chains */
    long keys;                      /* entries in the table */
    long clients;                   /* connections open now */
} table = { PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, {0}, 0, 0 };

static struct entry **slot(const char *key) {
    unsigned long h = 5381;
    for (const char *p = key; *p; p++)
        h = h * 33 + (unsigned char)*p;
    struct entry **e = &table.buckets[h % BUCKETS];
    while (*e && strcmp((*e)->key, key) != 0)
        e = &(*e)->next;
    return e;
}

/* Set key to value (the caller holds the mutex): 0, or -1 out of memory. */
static int set_locked(const char *key, const char *value) {
    struct entry **e = slot(key);
    char *copy = strdup(value);
    if (!copy)
        return -1;
    if (*e) {
        free((*e)->value);
        (*e)->value = copy;
    } else {
        struct entry *n = malloc(sizeof *n);
        if (!n || !(n->key = strdup(key))) {
            free(n);
            free(copy);
            return -1;
        }
        n->value = copy;
        n->next = NULL;
        *e = n;
        table.keys++;
    }
    pthread_cond_broadcast(&table.changed);
    return 0;
}

/* Answer one command line (no newline) on out: 0, or 1 to close. */
static int command(char *line, FILE *out) {
    char *save = NULL, *verb = strtok_r(line, " ", &save), *key = strtok_r(NULL, " ", &save);
    char *rest = save && *save ? save : NULL;   /* SET's value: the rest, spaces and all */
    if (verb && !strcmp(verb, "QUIT")) {
        fputs("BYE\n", out);
        return 1;
    }
    if (verb && !strcmp(verb, "STATS")) {
        pthread_mutex_lock(&table.mu);
        fprintf(out, "KEYS %ld CLIENTS %ld\n", table.keys, table.clients);
        pthread_mutex_unlock(&table.mu);
        return 0;
    }
    if (!verb || !key) {
        fputs(verb ? "ERR missing key\n" : "ERR unknown command\n", out);
        return 0;
    }
    pthread_mutex_lock(&table.mu);
    if (!strcmp(verb, "SET") && rest) {
        fputs(set_locked(key, rest) == 0 ? "OK\n" : "ERR out of memory\n", out);
    } else if (!strcmp(verb, "GET")) {
        struct entry *e = *slot(key);
        if (e)
            fprintf(out, "VALUE %s\n", e->value);
        else
            fputs("NOT_FOUND\n", out);
    } else if (!strcmp(verb, "DEL")) {
        struct entry **e = slot(key), *gone = *e;
        if (gone) {
            *e = gone->next;
            free(gone->key);
            free(gone->value);
            free(gone);
            table.keys--;
        }
        fputs(gone ? "DELETED\n" : "NOT_FOUND\n", out);
    } else if (!strcmp(verb, "INCR")) {
        struct entry *e = *slot(key);
        char *end, number[32];
        long long n = e ? strtoll(e->value, &end, 10) : 0;
        if (e && (*end || !*e->value)) {
            fputs("ERR not a number\n", out);
        } else {
            snprintf(number, sizeof number, "%lld", n + 1);
            fputs(set_locked(key, number) == 0 ? number : "ERR out of memory", out);
            fputc('\n', out);
        }
    } else if (!strcmp(verb, "WAIT")) {
        struct entry *e;
        while (!(e = *slot(key)))
            pthread_cond_wait(&table.changed, &table.mu);
        fprintf(out, "VALUE %s\n", e->value);
    } else {
        fputs(!strcmp(verb, "SET") ? "ERR missing value\n" : "ERR unknown command\n", out);
    }
    pthread_mutex_unlock(&table.mu);
    return 0;
}

/* A connection's thread: read lines, answer each, until QUIT or the end. */
static void *client(void *arg) {
    int fd = (int)(long)arg, wfd = dup(fd);
    FILE *in = fdopen(fd, "r"), *out = wfd >= 0 ? fdopen(wfd, "w") : NULL;
    char line[LINE_MAX_BYTES];
    if (!in || !out) {
        if (in) fclose(in); else close(fd);
        if (out) fclose(out); else if (wfd >= 0) close(wfd);
        return NULL;
    }
    pthread_mutex_lock(&table.mu);
    table.clients++;
    pthread_mutex_unlock(&table.mu);
    int done = 0;
    while (!done && fgets(line, sizeof line, in)) {
        size_t n = strlen(line);
        if (n && line[n - 1] == '\n') {
            line[--n] = '\0';
            if (n && line[n - 1] == '\r')
                line[--n] = '\0';
            done = command(line, out);
        } else if (n == sizeof line - 1) {      /* too long: skip to its end */
            int c;
            while ((c = fgetc(in)) != EOF && c != '\n')
                ;
            fputs("ERR line too long\n", out);
        } else {
            break;                              /* the client left mid-line */
        }
        if (fflush(out) != 0)
            break;                              /* the client is gone */
    }
    pthread_mutex_lock(&table.mu);
    table.clients--;
    pthread_mutex_unlock(&table.mu);
    fclose(out);
    fclose(in);
    return NULL;
}

int main(int argc, char **argv) {
    struct sockaddr_in addr = { .sin_family = AF_INET, .sin_port = htons(7070),
                                .sin_addr.s_addr = htonl(INADDR_ANY) };
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--port") && i + 1 < argc)
            addr.sin_port = htons((unsigned short)atoi(argv[++i]));
        else if (!strcmp(argv[i], "--addr") && i + 1 < argc && inet_pton(AF_INET, argv[i + 1], &addr.sin_addr) == 1)
            i++;
        else {
            fputs("usage: kvd [--port P] [--addr A]\n", stderr);
            return 2;
        }
    }
    signal(SIGPIPE, SIG_IGN);       /* a write to a client gone fails with EPIPE instead */
    int lfd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;
    socklen_t len = sizeof addr;
    if (lfd < 0 || setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
        bind(lfd, (struct sockaddr *)&addr, sizeof addr) < 0 || listen(lfd, 1024) < 0 ||
        getsockname(lfd, (struct sockaddr *)&addr, &len) < 0) {
        perror("kvd: listen");
        return 1;
    }
    printf("listening on %d\n", ntohs(addr.sin_port));
    fflush(stdout);
    pthread_attr_t detached;
    pthread_attr_init(&detached);
    pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED);
    for (;;) {
        int fd = accept(lfd, NULL, NULL);
        pthread_t t;
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
                usleep(10000);      /* out of fds or memory: the client waits in the backlog */
            else if (errno != EINTR && errno != ECONNABORTED)
                perror("kvd: accept");
            continue;
        }
        int err = pthread_create(&t, &detached, client, (void *)(long)fd);
        if (err) {
            fprintf(stderr, "kvd: pthread_create: %s\n", strerror(err));
            close(fd);
        }
    }
}

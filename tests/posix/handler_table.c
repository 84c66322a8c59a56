/* A table of handlers called through plain function pointers, as a
 * config-file reader writes one (tinyproxy's conf.c): each handler logs
 * through log_line, which write()s and so is async under --posix.  The
 * handlers stay plain (a plain pointer calls them), and call log_line's
 * plain form; main and a thread call it by name, its ripped form, while
 * the other task waits in read().  Both forms share log_line's static
 * counter.  A qsort comparator reaches it too. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int pipe_fds[2];

static void log_line(const char *what, int value) {
    static int count;               /* one counter for both forms */
    char line[96];
    int n = snprintf(line, sizeof line, "%d: %s = %d\n", ++count, what, value);
    if (write(1, line, (size_t)n) != n)
        exit(3);
}

static int port, workers;

static int handle_port(const char *arg) {
    port = atoi(arg);
    log_line("port", port);
    return port > 0 ? 0 : -1;
}

static int handle_workers(const char *arg) {
    workers = atoi(arg);
    log_line("workers", workers);
    return 0;
}

static const struct {
    const char *name;
    int (*handle)(const char *arg);
} handlers[] = {
    {"port", handle_port},
    {"workers", handle_workers},
};

static int by_value(const void *a, const void *b) {
    static int said;                /* once: how often qsort compares is its own (ASan's checks more) */
    int x = *(const int *)a, y = *(const int *)b;
    if (!said++)
        log_line("comparator ran, values below", 10);
    return (x > y) - (x < y);
}

static void *reader(void *arg) {
    char c;
    (void)arg;
    ssize_t n = read(pipe_fds[0], &c, 1);      /* main writes after its handlers */
    log_line("reader got", n == 1 ? c : -1);
    return NULL;
}

int main(void) {
    static const char *config[][2] = {{"port", "8080"}, {"workers", "4"}, {"port", "-1"}};
    pthread_t t;
    if (pipe(pipe_fds) || pthread_create(&t, NULL, reader, NULL))
        return 1;
    for (size_t i = 0; i < sizeof config / sizeof config[0]; i++)
        for (size_t h = 0; h < sizeof handlers / sizeof handlers[0]; h++)
            if (strcmp(handlers[h].name, config[i][0]) == 0 &&
                    handlers[h].handle(config[i][1]) != 0)
                log_line("bad value for line", (int)i + 1);
    int values[] = {9, 7, 3};
    qsort(values, 3, sizeof values[0], by_value);
    log_line("smallest", values[0]);
    if (write(pipe_fds[1], "x", 1) != 1 || pthread_join(t, NULL))
        return 2;
    log_line("done", port + workers);
    return 0;
}

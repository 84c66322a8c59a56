/* stdio on pipes in plain code run by a task: command handlers called
 * through a table of plain pointers read their request with fgets,
 * getline and fscanf (a number split across two writes) and answer with
 * fprintf, on pipes that other threads feed and drain late.  On rip the
 * handlers stay plain (a plain pointer calls them) and so do the
 * functions they call, so their stdio cannot suspend: the run-time catch
 * waits for the pipe while the other tasks run (the feeding thread among
 * them), where glibc's fgets would block the one thread every task runs
 * on for good. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static FILE *requests, *answers;    /* read end of one pipe, write end of another */
static int request_fd, answer_fd;

/* Async under --posix beyond its stdio: it write()s (nothing, to a pipe
 * with room: no wait). */
static int next_request(char *line, int size) {
    if (write(answer_fd, "", 0) < 0)
        return 0;
    return fgets(line, size, requests) != NULL;
}

static int handle_echo(void) {
    char line[64];
    if (!next_request(line, sizeof line))
        return -1;
    return fprintf(answers, "echo: %s", line) < 0 ? -1 : fflush(answers);
}

static int handle_count(void) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, requests);
    int r = n < 0 ? -1 : fprintf(answers, "count: %zd bytes\n", n);
    free(line);
    return r < 0 ? -1 : fflush(answers);
}

static int handle_sum(void) {
    int a, b;
    if (fscanf(requests, "%d %d%*c", &a, &b) != 2)   /* a number split across two writes */
        return -1;
    return fprintf(answers, "sum: %d\n", a + b) < 0 ? -1 : fflush(answers);
}

static int (*const handlers[])(void) = { handle_echo, handle_count, handle_sum, handle_echo };

static void *feeder(void *arg) {
    static const char *const lines[] = { "hello ", "there\n", "twelve bytes\n", "4", "0 2\n",
                                         "bye\n" };
    int fd = *(int *)arg;
    for (size_t i = 0; i < sizeof lines / sizeof *lines; i++) {
        usleep(20000);              /* the handler waits first: a line in two writes */
        if (write(fd, lines[i], strlen(lines[i])) < 0)
            exit(3);
    }
    close(fd);
    return NULL;
}

static void *drainer(void *arg) {
    FILE *in = fdopen(*(int *)arg, "r");
    char line[64];
    while (in && fgets(line, sizeof line, in))
        printf("drained %s", line);
    fflush(stdout);
    if (in)
        fclose(in);
    return NULL;
}

int main(void) {
    int to_handler[2], from_handler[2];
    pthread_t feed, drain;
    if (pipe(to_handler) || pipe(from_handler))
        return 1;
    request_fd = to_handler[0];
    answer_fd = from_handler[1];
    requests = fdopen(request_fd, "r");
    answers = fdopen(answer_fd, "w");
    if (!requests || !answers)
        return 1;
    pthread_create(&feed, NULL, feeder, &to_handler[1]);
    pthread_create(&drain, NULL, drainer, &from_handler[0]);
    for (size_t i = 0; i < sizeof handlers / sizeof *handlers; i++)
        if (handlers[i]() != 0)
            return 2;
    fclose(answers);
    pthread_join(feed, NULL);
    pthread_join(drain, NULL);
    printf("handlers done\n");
    fclose(requests);
    return 0;
}

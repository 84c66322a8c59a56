/* server.c -- answers each line of input.  Nothing here calls a blocking
 * function itself (its answers go to a buffer main.c prints: stdio would
 * suspend under --posix): serve and next_request wait only through
 * read_line, which io.c defines (async two files away from main.c). */
#include <stdio.h>
#include <string.h>
#include "io.h"
#include "server.h"

static unsigned total;
char served[4096];
static size_t used;

/* Plain: calls nothing that waits, in this file or another. */
unsigned checksum(const char *text) {
    unsigned sum = 0;
    while (*text)
        sum = sum * 31 + (unsigned char)*text++;
    return sum;
}

static ssize_t next_request(int fd, char *buf, size_t cap) {
    return read_line(fd, buf, cap);
}

int serve(int fd) {
    char line[64];
    int count = 0;
    while (next_request(fd, line, sizeof line) > 0) {
        count++;
        total += checksum(line);
        used += (size_t)snprintf(served + used, sizeof served - used, "%d: %s (%zu bytes)\n",
                                 count, line, strlen(line));
        if (used >= sizeof served)
            used = sizeof served - 1;
    }
    snprintf(served + used, sizeof served - used, "checksum %u\n", total);
    return count;
}

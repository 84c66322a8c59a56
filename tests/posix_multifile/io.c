/* io.c -- reads a line a byte at a time with read(2): under --posix the
 * read suspends the task, so read_byte and read_line are async here. */
#include <errno.h>
#include <unistd.h>
#include "io.h"

static ssize_t read_byte(int fd, char *c) {
    ssize_t n;
    do
        n = read(fd, c, 1);
    while (n < 0 && errno == EINTR);
    return n;
}

/* The line without its newline, NUL-terminated; its length, 0 at the end
 * of input (an empty line is "" and 1), -1 on an error. */
ssize_t read_line(int fd, char *buf, size_t cap) {
    size_t len = 0;
    char c;
    ssize_t n;
    while ((n = read_byte(fd, &c)) == 1 && c != '\n')
        if (len + 1 < cap)
            buf[len++] = c;
    buf[len] = '\0';
    if (n < 0)
        return -1;
    return n == 0 && len == 0 ? 0 : (ssize_t)len + 1;
}

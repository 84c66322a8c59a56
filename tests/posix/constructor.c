/* A constructor and a destructor that call write(): the C library runs
 * them before and after main, outside any task, so under --posix they
 * stay plain (their calls the library's) instead of being refused, and
 * so does what they call; main's own calls of the same function (async:
 * it reads a pipe) take its ripped form. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static int fds[2];

static int take(void) {
    char c;
    if (read(fds[0], &c, 1) != 1)
        return -1;
    return c;
}

static void say(const char *what, int value) {
    char line[64];
    int n = snprintf(line, sizeof line, "%s %d\n", what, value);
    if (write(1, line, (size_t)n) != n)
        _exit(3);
}

__attribute__((constructor)) static void before_main(void) {
    if (pipe(fds) != 0 || write(fds[1], "abc", 3) != 3)
        _exit(2);
    say("constructor took", take());
}

__attribute__((destructor)) static void after_main(void) {
    say("destructor took", take());
}

int main(void) {
    say("main took", take());
    fflush(stdout);
    return 0;
}

/* posix_stdio.c -- the cost of stdio in POSIX mode when nothing waits:
 * "write" prints 2,000,000 short lines with printf to stdout, else it
 * counts the lines fgets reads from stdin.  Plain, glibc's calls; ripcc
 * --posix, the runtime's (core/stdio.c), which the buffer serves the same.
 *     ripcc --posix --backend=rip -O2 bench/posix_stdio.c -o st
 *     /usr/bin/time ./st write > /dev/null;  ./st write | /usr/bin/time ./st */
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    char line[256];
    long n = 0, bytes = 0;
    if (argc > 1 && !strcmp(argv[1], "write")) {
        for (int i = 0; i < 2000000; i++)
            printf("line %d of the output\n", i);
        return 0;
    }
    while (fgets(line, sizeof line, stdin)) {
        n++;
        bytes += (long)strlen(line);
    }
    fprintf(stderr, "%ld lines %ld bytes\n", n, bytes);
    return 0;
}

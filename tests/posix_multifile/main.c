/* main.c -- a plain POSIX program of three files: main calls serve
 * (server.c), which reads lines with read_line (io.c), which calls read. */
#include <stdio.h>
#include "server.h"

#ifdef TICKER
void start_ticker(void);    /* ticker.c: a second task (tests only) */
#endif

int main(void) {
#ifdef TICKER
    start_ticker();
#endif
    printf("hello %u\n", checksum("hello"));
    fflush(stdout);
    int lines = serve(0);
    fputs(served, stdout);
    printf("served %d lines\n", lines);
    return lines == 0;
}

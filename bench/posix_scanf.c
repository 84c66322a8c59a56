/* posix_scanf.c -- the cost of fscanf in POSIX mode: 200,000 numbers,
 * one a line, read with fscanf("%d") from a pipe a forked child fills;
 * it prints the reader's own CPU time (the child's apart).  Plain,
 * glibc's fscanf; ripcc --posix, the runtime's (core/stdio.c: glibc's
 * vfscanf over a proxy of the bytes taken, one attempt when they suffice).
 *     ripcc --posix --backend=rip -O2 bench/posix_scanf.c -o sc && ./sc */
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NUMBERS 200000

int main(void) {
    int p[2];
    if (pipe(p) != 0)
        return 1;
    fflush(stdout);
    if (fork() == 0) {
        close(p[0]);
        FILE *out = fdopen(p[1], "w");
        for (int i = 0; i < NUMBERS; i++)
            fprintf(out, "%d\n", i);
        fclose(out);
        _exit(0);
    }
    close(p[1]);
    FILE *in = fdopen(p[0], "r");
    long sum = 0;
    int x;
    struct timespec a, b;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
    while (fscanf(in, "%d", &x) == 1)
        sum += x;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
    wait(NULL);
    printf("sum %ld, %.3f CPU seconds\n", sum,
           (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9);
    return 0;
}

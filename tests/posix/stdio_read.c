/* stdio_read.c -- stdio input on a socket and on stdin made a pipe, as
 * plain POSIX: a peer process sends lines in pieces with delays; fgets
 * (whole lines, lines cut by a small buffer), fgetc and ungetc, getline
 * growing its buffer, getdelim, fread (short and past the buffer), EOF in
 * the middle of a line, feof/ferror/clearerr, a regular file (straight to
 * glibc), and getchar/fgets on stdin.
 * The output must be the same built plainly and ripped (tests/test_posix.py). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static void put(int fd, const char *s, int ms) {
    if (ms)
        usleep(ms * 1000);
    if (write(fd, s, strlen(s)) != (ssize_t)strlen(s))
        _exit(2);
}

/* The peer: lines in pieces, a long line in one write, a tail with no newline, EOF. */
static void peer(int fd) {
    static char longline[1001];
    put(fd, "hel", 30);
    put(fd, "lo\nwor", 30);
    put(fd, "ld\n", 30);
    put(fd, "cut into pieces\n", 30);
    put(fd, "xyz\n", 30);
    memset(longline, 'L', 999);
    longline[999] = '\n';
    put(fd, longline, 30);
    memset(longline, 'M', 149);     /* between the first buffer (120) and twice it */
    longline[149] = '\n';
    longline[150] = '\0';
    put(fd, longline, 30);
    put(fd, "a;b;", 30);
    put(fd, "c\n", 30);
    put(fd, "0123456789ABCDEF", 30);
    static char block[10000];
    for (int i = 0; i < (int)sizeof block - 1; i++)
        block[i] = (char)('a' + i % 26);
    put(fd, block, 30);
    put(fd, "tail without newline", 30);
    _exit(0);
}

static void show(const char *what, const char *s) {
    printf("%s: %s", what, s ? s : "(null)\n");
    if (s && (!*s || s[strlen(s) - 1] != '\n'))
        printf("|\n");
}

int main(void) {
    int sv[2];
    char buf[64];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
        return 1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(sv[0]);
        peer(sv[1]);
    }
    close(sv[1]);
    FILE *in = fdopen(sv[0], "r");
    show("fgets", fgets(buf, sizeof buf, in));
    show("fgets", fgets(buf, sizeof buf, in));
    show("fgets 6", fgets(buf, 6, in));
    show("fgets 6", fgets(buf, 6, in));
    show("fgets 6", fgets(buf, 6, in));
    show("fgets 1", fgets(buf, 1, in));
    int c = fgetc(in);
    printf("fgetc: %d\n", c);
    printf("ungetc: %c\n", ungetc('Q', in));
    printf("getc after ungetc: %c\n", getc(in));
    printf("getc: %c\n", getc(in));
    show("fgets", fgets(buf, sizeof buf, in));

    char *line = NULL;
    size_t cap = 0;
    ssize_t n = getline(&line, &cap, in);
    printf("getline: %zd, cap %zu, last %d\n", n, cap, n > 0 ? line[n - 1] : -1);
    free(line);
    line = NULL;
    cap = 0;
    n = getline(&line, &cap, in);
    printf("getline: %zd, cap %zu, first %c\n", n, cap, n > 0 ? line[0] : '-');
    n = getdelim(&line, &cap, ';', in);
    printf("getdelim: %zd '%s' cap %zu\n", n, line, cap);
    n = getdelim(&line, &cap, ';', in);
    printf("getdelim: %zd '%s' cap %zu\n", n, line, cap);
    show("fgets", fgets(buf, sizeof buf, in));

    char small[7] = "";
    size_t got = fread(small, 2, 3, in);
    printf("fread 2x3: %zu '%.6s'\n", got, small);
    got = fread(small, 1, 6, in);
    printf("fread 1x6: %zu '%.6s'\n", got, small);
    got = fread(small, 1, 4, in);
    printf("fread 1x4: %zu '%.4s'\n", got, small);
    char *big = malloc(9999);
    got = fread(big, 1, 9999, in);
    int ok = 1;
    for (size_t i = 0; i < got; i++)
        ok &= big[i] == (char)('a' + i % 26);
    printf("fread big: %zu, bytes right: %d\n", got, ok);
    free(big);

    show("fgets at EOF mid-line", fgets(buf, sizeof buf, in));
    printf("feof %d ferror %d\n", feof(in), ferror(in));
    show("fgets after EOF", fgets(buf, sizeof buf, in));
    printf("fgetc after EOF: %d\n", fgetc(in));
    clearerr(in);
    printf("after clearerr: feof %d ferror %d\n", feof(in), ferror(in));
    c = fgetc(in);
    printf("fgetc: %d, feof %d\n", c, feof(in));
    n = getline(&line, &cap, in);
    printf("getline at EOF: %zd\n", n);
    free(line);
    printf("fclose: %d\n", fclose(in));

    int status;
    waitpid(pid, &status, 0);
    printf("peer: %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);

    /* a regular file goes straight to glibc: the same results */
    FILE *t = tmpfile();
    printf("tmpfile fprintf: %d\n", fprintf(t, "first line\nsecond %d\n", 2));
    char *filler = malloc(10000);
    memset(filler, 'f', 10000);
    printf("tmpfile fwrite: %zu\n", fwrite(filler, 1, 10000, t));
    rewind(t);
    show("tmpfile fgets", fgets(buf, sizeof buf, t));
    line = NULL;
    cap = 0;
    n = getline(&line, &cap, t);
    printf("tmpfile getline: %zd '%s' cap %zu\n", n, line, cap);
    free(line);
    got = fread(filler, 1, 9999, t);
    c = fgetc(t);
    printf("tmpfile fread: %zu, fgetc %d\n", got, c);
    c = fgetc(t);
    printf("tmpfile fgetc at EOF: %d, feof %d\n", c, feof(t));
    printf("tmpfile fclose: %d\n", fclose(t));
    free(filler);

    /* stdin a pipe: getchar, fgets on stdin */
    int p[2];
    if (pipe(p) != 0 || dup2(p[0], 0) != 0)
        return 1;
    close(p[0]);
    fflush(stdout);
    pid = fork();
    if (pid == 0) {
        put(p[1], "4", 20);
        put(p[1], "2 words\nsecond", 20);
        put(p[1], " line\n", 20);
        _exit(0);
    }
    close(p[1]);
    int first = getchar();
    printf("getchar: %c\n", first);
    show("fgets stdin", fgets(buf, sizeof buf, stdin));
    show("fgets stdin", fgets(buf, sizeof buf, stdin));
    show("fgets stdin at EOF", fgets(buf, sizeof buf, stdin));
    printf("feof(stdin) %d\n", feof(stdin));
    waitpid(pid, &status, 0);
    return 0;
}

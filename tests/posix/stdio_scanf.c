/* stdio_scanf.c -- the scanf family on a pipe and on stdin made a pipe,
 * as plain POSIX: a writer thread sends the input in pieces with delays
 * (a number split across two writes, a word across three), and the
 * reader mixes fscanf with fgets, getc and ungetc on the same stream:
 * each sees what glibc's scanf left (its pushed-back byte included);
 * matching failures, %n, %[, %c, %ms, positional %n$, a number too big
 * (ERANGE), vfscanf, EOF in the middle of a conversion and before the
 * first, a word and spaces past the stream's buffer, scanf on stdin,
 * sscanf.
 * The output must be the same built plainly and ripped (tests/test_posix.py). */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *pieces[] = {
    "12", "34 5", "6\n",            /* 1234 and 56, both split */
    "  hel", "lo wo", "rld\n",      /* words across writes */
    "x7", "\n",                     /* a matching failure at 'x' */
    "abc:de", "f;42 tail of the line\n",
    "99999999999999999999 ", "3\n", /* ERANGE, then 3 */
    "-0x1", "f ", "077 ", "1.5e", "3 zz\n",
    "1 2 3", " 4\n",
    "ab%", "7 8\n",                 /* %[^%], %%, %*d */
    "mal", "loc", "ed 5", "1\n",     /* %ms grown across writes */
    "last 17",                      /* EOF after 17: ends the conversion */
    NULL
};

static void *writer(void *arg) {
    int fd = *(int *)arg;
    for (int i = 0; pieces[i]; i++) {
        usleep(20000);
        if (write(fd, pieces[i], strlen(pieces[i])) != (ssize_t)strlen(pieces[i]))
            _exit(2);
    }
    close(fd);
    return NULL;
}

/* Past the stream's buffer (4,096 bytes on a pipe): a word of 10,000
 * bytes in three writes, then 9,000 spaces before a number. */
static void *big_writer(void *arg) {
    int fd = *(int *)arg;
    static char text[20000];
    size_t n = 0;
    for (int i = 0; i < 10000; i++)
        text[n++] = (char)('a' + i % 26);
    n += (size_t)sprintf(text + n, " 5");
    memset(text + n, ' ', 9000);
    n += 9000;
    n += (size_t)sprintf(text + n, "77;rest\n");
    size_t cut[] = { 0, 3000, 9999, 10500, 19000, n };
    for (int i = 0; i < 5; i++) {
        usleep(20000);
        if (write(fd, text + cut[i], cut[i + 1] - cut[i]) != (ssize_t)(cut[i + 1] - cut[i]))
            _exit(2);
    }
    close(fd);
    return NULL;
}

static int vread(FILE *in, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vfscanf(in, fmt, ap);
    va_end(ap);
    return n;
}

int main(void) {
    int fds[2];
    if (pipe(fds) != 0)
        return 1;
    pthread_t t;
    pthread_create(&t, NULL, writer, &fds[1]);
    FILE *in = fdopen(fds[0], "r");
    int a = -1, b = -1, c = -1, n = -1;
    char w1[16] = "", w2[16] = "", line[64];

    int r = fscanf(in, "%d %d", &a, &b);
    printf("fscanf %%d %%d: %d -> %d %d\n", r, a, b);
    printf("getc after: %d\n", getc(in));           /* the newline glibc pushed back */
    r = fscanf(in, "%15s %15s%n", w1, w2, &n);
    printf("fscanf %%s %%s%%n: %d -> '%s' '%s' n=%d\n", r, w1, w2, n);
    a = -1;
    r = fscanf(in, "%d", &a);
    printf("fscanf %%d on newline then x: %d a=%d\n", r, a);
    printf("getc after failure: %c\n", getc(in));   /* the x, left in the stream */
    ungetc('4', in);                                /* not the x: glibc's backup area */
    r = fscanf(in, "%d", &a);
    printf("fscanf %%d after ungetc('4'): %d a=%d\n", r, a);
    r = fscanf(in, " %[a-z]:%c%c", w1, &w2[0], &w2[1]);
    w2[2] = '\0';
    printf("fscanf %%[ %%c: %d -> '%s' '%s'\n", r, w1, w2);
    r = fscanf(in, "f;%2$d%1$n", &n, &a);
    printf("fscanf positional: %d a=%d n=%d\n", r, a, n);
    printf("fgets after: %s", fgets(line, sizeof line, in));
    errno = 0;
    long big = 0;
    r = fscanf(in, "%ld %d", &big, &a);
    printf("fscanf too big: %d big=%ld a=%d errno=%s\n", r, big, a, errno == ERANGE ? "ERANGE" : "other");
    int h = 0, o = 0;
    double d = 0;
    r = fscanf(in, "%i %i %lf", &h, &o, &d);
    printf("fscanf %%i %%i %%lf: %d -> %d %d %g\n", r, h, o, d);
    c = getc(in);
    ungetc(c, in);
    printf("getc then ungetc: %c\n", c);
    r = fscanf(in, "%15s", w1);
    printf("fscanf after ungetc: %d '%s'\n", r, w1);
    r = vread(in, "%d %d %d %d", &a, &b, &c, &n);
    printf("vfscanf: %d -> %d %d %d %d\n", r, a, b, c, n);
    r = fscanf(in, " %15[^%]%%%*d%d", w1, &a);
    printf("fscanf %%[^%%]%%%%%%*d%%d: %d -> '%s' %d\n", r, w1, a);
    char *ms = NULL;
    r = fscanf(in, "%ms %d", &ms, &a);
    printf("fscanf %%ms: %d -> '%s' %d\n", r, ms ? ms : "(null)", a);
    free(ms);
    r = fscanf(in, "%15s %d", w1, &a);
    printf("fscanf to EOF: %d '%s' %d feof=%d\n", r, w1, a, feof(in) != 0);
    r = fscanf(in, "%d", &a);
    printf("fscanf at EOF: %d feof=%d\n", r, feof(in) != 0);
    clearerr(in);
    r = fscanf(in, "%d", &a);
    printf("fscanf after clearerr: %d\n", r);
    pthread_join(t, NULL);
    fclose(in);

    /* scanf on stdin made a pipe */
    if (pipe(fds) != 0)
        return 1;
    fflush(stdout);
    dup2(fds[0], 0);
    close(fds[0]);
    pthread_create(&t, NULL, writer, &fds[1]);
    r = scanf("%d%d", &a, &b);
    printf("scanf: %d -> %d %d\n", r, a, b);
    printf("getchar after: %d\n", getchar());
    r = scanf("%*s %15s", w1);
    printf("scanf %%*s %%s: %d '%s'\n", r, w1);
    pthread_join(t, NULL);

    /* past the buffer */
    if (pipe(fds) != 0)
        return 1;
    pthread_create(&t, NULL, big_writer, &fds[1]);
    in = fdopen(fds[0], "r");
    static char word[10001];
    r = fscanf(in, "%10000s %d%d", word, &a, &b);
    printf("big: %d -> %zu bytes, %c...%c, %d %d\n", r, strlen(word), word[0], word[9999], a, b);
    printf("fgets after big: %s", fgets(line, sizeof line, in));
    pthread_join(t, NULL);
    fclose(in);

    r = sscanf("8 9", "%d %d", &a, &b);
    printf("sscanf: %d -> %d %d\n", r, a, b);
    return 0;
}

/* stdio_scanf_shared.c -- two threads fscanf pairs from one pipe while
 * a writer sends "1 2 3 4 ..." a few bytes at a time: glibc's lock keeps
 * each call's conversions together, so every pair read is two
 * consecutive numbers (as tasks: the stream is held by the call that
 * waits on it); the pairs are printed sorted.  A regular file and an
 * fmemopen stream go straight to glibc.
 * The output must be the same built plainly and ripped (tests/test_posix.py). */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PAIRS 6

static FILE *in;
static int got[PAIRS][2];
static int count;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void *reader(void *arg) {
    (void)arg;
    for (int i = 0; i < PAIRS / 2; i++) {
        int a = -1, b = -1;
        if (fscanf(in, "%d %d", &a, &b) != 2)
            break;
        pthread_mutex_lock(&lock);
        got[count][0] = a;
        got[count][1] = b;
        count++;
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

static void *writer(void *arg) {
    int fd = *(int *)arg;
    const char *text = "1 2 3 4 5 6 7 8 9 10 11 12\n";
    for (size_t i = 0; i < strlen(text); i += 3) {
        usleep(10000);
        size_t n = strlen(text) - i < 3 ? strlen(text) - i : 3;
        if (write(fd, text + i, n) != (ssize_t)n)
            _exit(2);
    }
    close(fd);
    return NULL;
}

static int by_first(const void *x, const void *y) {
    return ((const int *)x)[0] - ((const int *)y)[0];
}

int main(void) {
    int fds[2];
    if (pipe(fds) != 0)
        return 1;
    in = fdopen(fds[0], "r");
    pthread_t w, r1, r2;
    pthread_create(&w, NULL, writer, &fds[1]);
    pthread_create(&r1, NULL, reader, NULL);
    pthread_create(&r2, NULL, reader, NULL);
    pthread_join(r1, NULL);
    pthread_join(r2, NULL);
    pthread_join(w, NULL);
    qsort(got, (size_t)count, sizeof got[0], by_first);
    for (int i = 0; i < count; i++)
        printf("pair %d %d\n", got[i][0], got[i][1]);
    fclose(in);

    char path[] = "/tmp/stdio_scanf_XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0 || write(fd, "3.25 word 7", 11) != 11)
        return 1;
    FILE *file = fdopen(fd, "r");
    rewind(file);
    double d = 0;
    char word[8] = "";
    int n = 0;
    int r = fscanf(file, "%lf %7s %d", &d, word, &n);
    printf("regular file: %d -> %g %s %d, ", r, d, word, n);
    r = fscanf(file, "%d", &n);
    printf("then %d feof=%d\n", r, feof(file) != 0);
    fclose(file);
    unlink(path);
    char text[] = "40 41x";
    FILE *mem = fmemopen(text, strlen(text), "r");
    r = fscanf(mem, "%d %d", &n, &fd);
    printf("fmemopen: %d -> %d %d, next %c\n", r, n, fd, getc(mem));
    fclose(mem);
    return 0;
}

/* stdio_write.c -- stdio output on sockets, as plain POSIX: what reaches
 * the peer when (fully buffered: at a full buffer, whole blocks of a big
 * write, fflush; line-buffered: through the last newline; unbuffered: at
 * once), fwrite's, fputs', fputc's, puts' and fprintf's results, a 1 MiB
 * fwrite that fills the socket while a slow peer reads, a variadic helper
 * calling vfprintf, fflush(NULL), dprintf, and fflush on a socket whose peer closed: EPIPE (with
 * SIGPIPE ignored), the error flag, clearerr.  The output must be the same
 * built plainly and ripped (tests/test_posix.py). */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#define BIG (1 << 20)

/* What the peer end holds now (read without waiting), as a count. */
static long arrived(int fd) {
    static char sink[1 << 16];
    long total = 0;
    ssize_t n;
    while ((n = recv(fd, sink, sizeof sink, MSG_DONTWAIT)) > 0)
        total += n;
    return total;
}

/* The same, as text. */
static void arrived_text(const char *what, int fd) {
    char b[256];
    ssize_t n = recv(fd, b, sizeof b - 1, MSG_DONTWAIT);
    b[n > 0 ? n : 0] = '\0';
    printf("%s: '%s'\n", what, b);
}

static int say(FILE *f, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = vfprintf(f, fmt, ap);
    va_end(ap);
    return n;
}

int main(void) {
    int sv[2];
    signal(SIGPIPE, SIG_IGN);
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
        return 1;
    FILE *out = fdopen(sv[1], "w");

    /* fully buffered (a socket's default) */
    printf("fprintf: %d\n", fprintf(out, "%s %d\n", "small", 42));
    printf("arrived: %ld\n", arrived(sv[0]));
    printf("fputs: %d\n", fputs("more", out));
    printf("fputc: %d\n", fputc('!', out));
    printf("putc: %d\n", putc('\n', out));
    char *chunk = malloc(5000);
    memset(chunk, 'x', 5000);
    printf("fwrite 5000: %zu\n", fwrite(chunk, 1, 5000, out));
    printf("arrived: %ld\n", arrived(sv[0]));
    printf("fwrite 3x1000: %zu\n", fwrite(chunk, 3, 1000, out));
    printf("arrived: %ld\n", arrived(sv[0]));
    printf("fwrite 0: %zu\n", fwrite(chunk, 0, 10, out));
    printf("fflush: %d\n", fflush(out));
    printf("arrived: %ld\n", arrived(sv[0]));
    printf("say: %d\n", say(out, "[%05d|%-4s|%c]", 7, "ab", 'z'));
    fflush(out);
    arrived_text("said", sv[0]);
    free(chunk);

    /* fflush(NULL): every stream's pending bytes */
    int sv2[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv2) != 0)
        return 1;
    FILE *other = fdopen(sv2[1], "w");
    fputs("one", out);
    fputs("two", other);
    arrived_text("before fflush(NULL)", sv[0]);
    printf("fflush(NULL): %d\n", fflush(NULL));
    arrived_text("after", sv[0]);
    arrived_text("after (other)", sv2[0]);
    fclose(other);
    close(sv2[0]);

    /* line-buffered: through the last newline */
    setvbuf(out, NULL, _IOLBF, 0);
    printf("fprintf: %d\n", fprintf(out, "line1\nline2\npart"));
    arrived_text("line-buffered", sv[0]);
    fputs(" and more", out);
    arrived_text("no newline yet", sv[0]);
    fputc('\n', out);
    arrived_text("newline", sv[0]);

    /* unbuffered: at once */
    setvbuf(out, NULL, _IONBF, 0);
    fputs("now", out);
    arrived_text("unbuffered", sv[0]);
    fprintf(out, "%d-%d", 1, 2);
    arrived_text("unbuffered", sv[0]);

    /* a big write to a slow reader: every byte, in order */
    setvbuf(out, NULL, _IOFBF, BUFSIZ);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        fclose(out);
        unsigned long sum = 0, total = 0;
        char b[4096];
        ssize_t n;
        usleep(100000);
        while ((n = read(sv[0], b, sizeof b)) > 0) {
            for (ssize_t i = 0; i < n; i++)
                sum = sum * 31 + (unsigned char)b[i];
            total += (unsigned long)n;
            if (total % (256 << 10) < 4096)
                usleep(20000);
        }
        printf("peer: %lu bytes, sum %lu\n", total, sum);
        fflush(stdout);
        _exit(0);
    }
    close(sv[0]);
    char *big = malloc(BIG);
    for (int i = 0; i < BIG; i++)
        big[i] = (char)(i * 7 + i / 1000);
    printf("fwrite 1 MiB: %zu\n", fwrite(big, 1, BIG, out));
    printf("puts to it: %d\n", fputs("end\n", out) >= 0);
    printf("fclose: %d\n", fclose(out));
    fflush(stdout);
    int status;
    waitpid(pid, &status, 0);
    unsigned long sum = 0;
    for (int i = 0; i < BIG; i++)
        sum = sum * 31 + (unsigned char)big[i];
    for (const char *e = "end\n"; *e; e++)
        sum = sum * 31 + (unsigned char)*e;
    printf("expected: %d bytes, sum %lu\n", BIG + 4, sum);
    free(big);

    /* the peer closed: EPIPE at the flush */
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
        return 1;
    out = fdopen(sv[1], "w");
    close(sv[0]);
    printf("fprintf: %d\n", fprintf(out, "lost\n"));
    errno = 0;
    int r = fflush(out);
    int e = errno;
    printf("fflush: %d, EPIPE: %d, ferror: %d\n", r, e == EPIPE, ferror(out) != 0);
    clearerr(out);
    printf("after clearerr: %d\n", ferror(out));
    r = fputs("gone too", out);
    printf("fputs (buffered): %d, ferror %d\n", r, ferror(out));
    errno = 0;
    r = fclose(out);
    e = errno;
    printf("fclose: %d, EPIPE: %d\n", r, e == EPIPE);

    /* dprintf: straight to the fd, every byte; -1 and EPIPE once the peer left */
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
        return 1;
    printf("dprintf: %d\n", dprintf(sv[1], "%s=%d;", "x", 5));
    arrived_text("dprintf", sv[0]);
    close(sv[0]);
    errno = 0;
    r = dprintf(sv[1], "lost");
    e = errno;
    printf("dprintf to a closed peer: %d, EPIPE: %d\n", r, e == EPIPE);
    close(sv[1]);

    /* puts, putchar and printf go to stdout, a pipe here */
    printf("puts: %d\n", puts("from puts"));
    printf("putchar: %d\n", putchar('P'));
    putchar('\n');
    return 0;
}

/* popen.c -- popen and pclose as plain POSIX: a "r" stream read with
 * fgets and fread, a "w" stream written (a small text, and 200 KiB, more
 * than a pipe holds, so the writes wait for the child), pclose's status
 * (an exit code, a signal), the signal mask the command inherits,
 * popen's EINVAL, and a thread that keeps
 * running while the main one waits for a slow child's line, and while
 * pclose waits for a child that closed its output but has not exited.  The output
 * must be the same built plainly and ripped (tests/test_posix.py). */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ticker.h"

static void status(const char *what, int st) {
    if (st == -1)
        printf("%s: -1 %s\n", what, strerrorname_np(errno));
    else if (WIFEXITED(st))
        printf("%s: exited %d\n", what, WEXITSTATUS(st));
    else if (WIFSIGNALED(st))
        printf("%s: signal %s\n", what, sigabbrev_np(WTERMSIG(st)));
    else
        printf("%s: ?\n", what);
}

static void reading(void) {
    char line[64];
    FILE *fp = popen("echo hello; echo world", "r");
    printf("popen(r): %d\n", fp != NULL);
    while (fgets(line, sizeof line, fp))
        printf("line: %s", line);
    printf("feof %d ferror %d\n", feof(fp), ferror(fp));
    status("pclose(echo)", pclose(fp));
    fp = popen("printf abcdef; exit 3", "r");
    size_t n = fread(line, 1, sizeof line, fp);
    printf("fread: %zu %.*s\n", n, (int)n, line);
    status("pclose(exit 3)", pclose(fp));
    fp = popen("kill -TERM $$", "r");
    printf("fgetc at once: %d\n", fgetc(fp));
    status("pclose(killed)", pclose(fp));
    sigset_t usr1, old;                 /* the command inherits the caller's signal mask */
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigprocmask(SIG_BLOCK, &usr1, &old);
    fp = popen("exec grep SigBlk /proc/self/status", "r");
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (fgets(line, sizeof line, fp))
        printf("the command's %s", line);
    status("pclose(grep)", pclose(fp));
}

static void writing(void) {
    fflush(stdout);
    FILE *fp = popen("tr a-z A-Z", "w");
    printf("popen(w): %d\n", fp != NULL);
    fflush(stdout);
    printf("fputs: %d\n", fputs("shouted by tr\n", fp) >= 0);
    fflush(stdout);
    status("pclose(tr)", pclose(fp));
    fp = popen("wc -c", "w");
    static char big[200 * 1024];
    memset(big, 'x', sizeof big);
    size_t n = fwrite(big, 1, sizeof big, fp);
    fprintf(fp, "%s", "tail");
    status("pclose(wc)", pclose(fp));
    printf("fwrite: %zu\n", n);
}

static void slow_child(void) {
    pthread_t t;
    pthread_create(&t, NULL, ticker, NULL);
    FILE *fp = popen("sleep 0.3; echo late", "r");
    int before = now();
    char line[32] = "";
    char *got = fgets(line, sizeof line, fp);
    int during = now() - before;
    printf("slow line: %s", got ? line : "NULL\n");
    printf("the other thread ran meanwhile: %d\n", during >= 5);
    status("pclose(slow)", pclose(fp));
    fp = popen("exec >&-; sleep 0.3; exit 2", "r");  /* EOF at once, then the child lingers */
    printf("fgetc of a closed pipe: %d\n", fgetc(fp));
    before = now();
    status("pclose(lingering)", pclose(fp));
    during = now() - before;
    printf("the other thread ran during pclose: %d\n", during >= 5);
    stop = 1;
    pthread_join(t, NULL);
}

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    reading();
    writing();
    slow_child();
    errno = 0;
    FILE *fp = popen("true", "x");
    printf("popen(bad mode): %s %s\n", fp ? "a stream" : "NULL", strerrorname_np(errno));
    return 0;
}

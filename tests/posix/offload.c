/* offload.c -- the calls with no non-blocking form, as plain POSIX:
 * waitpid (WNOHANG, a running child, ECHILD), wait, waitid, system's
 * status and the signal mask its command inherits, getaddrinfo/getnameinfo (numeric: no network), gethostbyname,
 * fsync/fdatasync (EBADF too), flock and fcntl(F_SETLKW) on a lock a
 * child holds for a while, open of a FIFO whose writer comes later,
 * open's ENOENT, pread/pwrite of 320 KiB (past the size that goes to the
 * pool), pread at the end and on a pipe (ESPIPE), read of a large file.
 * The output must be the same built plainly and ripped
 * (tests/test_posix.py). */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define BIG (320 * 1024)

static char dir[64];

/* The call's result, and errno's name when it failed (set after the call:
 * C evaluates printf's arguments in no set order). */
#define SHOW(label, expr) do {                                                \
        errno = 0;                                                            \
        long r_ = (long)(expr);                                               \
        int e_ = errno;                                                       \
        printf("%s: %ld%s%s\n", label, r_, r_ == -1 ? " " : "",               \
               r_ == -1 ? strerrorname_np(e_) : "");                          \
    } while (0)

static const char *path(const char *name) {
    static char buf[4][128];
    static int i;
    i = (i + 1) % 4;
    snprintf(buf[i], sizeof buf[i], "%s/%s", dir, name);
    return buf[i];
}

static pid_t child_exiting(int status, int ms) {
    pid_t pid = fork();
    if (pid == 0) {
        usleep(ms * 1000);
        _exit(status);
    }
    return pid;
}

static void waits(void) {
    int st = -1;
    pid_t pid = child_exiting(3, 50);
    printf("waitpid WNOHANG on a running child: %d\n", (int)waitpid(pid, &st, WNOHANG));
    pid_t got = waitpid(pid, &st, 0);
    printf("waitpid: own pid %d, exited %d, status %d\n", got == pid, WIFEXITED(st), WEXITSTATUS(st));
    SHOW("waitpid of no child", waitpid(pid, &st, 0));
    pid = child_exiting(4, 20);
    got = wait(&st);
    printf("wait: own pid %d, status %d\n", got == pid, WEXITSTATUS(st));
    SHOW("wait with no child", wait(&st));
    pid = child_exiting(5, 30);
    siginfo_t info;
    memset(&info, 0, sizeof info);
    int r = waitid(P_PID, (id_t)pid, &info, WEXITED);
    printf("waitid: %d, own pid %d, code %s, status %d\n", r, info.si_pid == pid,
           info.si_code == CLD_EXITED ? "CLD_EXITED" : "?", info.si_status);
    pid = child_exiting(6, 30);
    got = waitpid(-1, &st, 0);
    printf("waitpid(-1): own pid %d, status %d\n", got == pid, WEXITSTATUS(st));
    pid = fork();
    if (pid == 0) {
        sleep(10);                  /* killed first */
        _exit(0);
    }
    usleep(20000);
    kill(pid, SIGTERM);
    got = waitpid(pid, &st, 0);
    printf("waitpid of a killed child: signalled %d, signal %s\n", WIFSIGNALED(st),
           WTERMSIG(st) == SIGTERM ? "SIGTERM" : "?");
}

static void shell(void) {
    int st = system("exit 7");
    printf("system(exit 7): exited %d, status %d\n", WIFEXITED(st), WEXITSTATUS(st));
    printf("system(NULL): %d\n", system(NULL) != 0);
    fflush(stdout);
    st = system("echo from the shell");
    printf("system(echo): %d\n", WEXITSTATUS(st));
    st = system("exec grep SigBlk /proc/self/status");    /* the command gets the caller's mask */
    printf("system(grep): %d\n", WEXITSTATUS(st));
}

static void names(void) {
    struct addrinfo hints = { .ai_family = AF_INET, .ai_socktype = SOCK_STREAM,
                              .ai_flags = AI_NUMERICHOST | AI_NUMERICSERV }, *res = NULL;
    int r = getaddrinfo("127.0.0.1", "8080", &hints, &res);
    struct sockaddr_in *in = res ? (struct sockaddr_in *)res->ai_addr : NULL;
    printf("getaddrinfo(127.0.0.1, 8080): %d, port %d\n", r, in ? ntohs(in->sin_port) : -1);
    char host[64] = "", serv[16] = "";
    r = getnameinfo(res->ai_addr, res->ai_addrlen, host, sizeof host, serv, sizeof serv,
                    NI_NUMERICHOST | NI_NUMERICSERV);
    printf("getnameinfo: %d %s %s\n", r, host, serv);
    freeaddrinfo(res);
    r = getaddrinfo("127.0.0.1", "no-such-service", &hints, &res);
    printf("getaddrinfo(bad service): %s\n", r == EAI_NONAME ? "EAI_NONAME" : r == EAI_SERVICE ? "EAI_SERVICE" : "?");
    r = getnameinfo(NULL, 0, host, sizeof host, NULL, 0, 0);
    printf("getnameinfo(no address): %s\n", r == EAI_FAMILY ? "EAI_FAMILY" : r ? "an error" : "0");
    struct hostent *h = gethostbyname("127.0.0.1");
    printf("gethostbyname(127.0.0.1): %s\n", h && h->h_addrtype == AF_INET ? "AF_INET" : "?");
    h = gethostbyname2("::1", AF_INET6);
    printf("gethostbyname2(::1, AF_INET6): %s\n", h && h->h_length == 16 ? "16 bytes" : "?");
}

static void files(void) {
    int fd = open(path("data"), O_RDWR | O_CREAT | O_TRUNC, 0600);
    printf("open(O_CREAT): %d\n", fd >= 0);
    SHOW("open(missing)", open(path("missing"), O_RDONLY));
    SHOW("openat(missing)", openat(AT_FDCWD, path("missing"), O_RDONLY));
    char *out = malloc(BIG), *in = malloc(BIG + 100);
    for (int i = 0; i < BIG; i++)
        out[i] = (char)(i * 7 + i / 251);
    printf("pwrite(%d): %zd\n", BIG, pwrite(fd, out, BIG, 0));
    printf("pwrite(10 at 5): %zd\n", pwrite(fd, "0123456789", 10, 5));
    memcpy(out + 5, "0123456789", 10);
    printf("fsync: %d, fdatasync: %d\n", fsync(fd), fdatasync(fd));
    SHOW("fsync(-1)", fsync(-1));
    SHOW("fdatasync(-1)", fdatasync(-1));
    memset(in, 0, BIG);
    SHOW("pread(all)", pread(fd, in, BIG, 0));
    printf("same bytes %d\n", memcmp(in, out, BIG) == 0);
    printf("pread(100 at %d): %zd\n", BIG - 40, pread(fd, in, 100, BIG - 40));
    printf("pread at the end: %zd\n", pread(fd, in, 100, BIG));
    SHOW("pread(-1)", pread(-1, in, 1, 0));
    int p[2];
    pipe(p);
    SHOW("pread on a pipe", pread(p[0], in, 1, 0));
    SHOW("pwrite on a pipe", pwrite(p[1], "x", 1, 0));
    close(p[0]);
    close(p[1]);
    int fd2 = open(path("data"), O_RDONLY);
    memset(in, 0, BIG);
    ssize_t n = read(fd2, in, BIG + 100);
    printf("read of the file: %zd, same bytes %d\n", n, memcmp(in, out, BIG) == 0);
    printf("read at its end: %zd\n", read(fd2, in, 10));
    lseek(fd2, 3, SEEK_SET);
    SHOW("read(7 at 3)", read(fd2, in, 7));
    printf("%.7s\n", in);
    close(fd2);
    int fd3 = open(path("copy"), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    printf("write(%d) to a file: %zd\n", BIG, write(fd3, out, BIG));
    printf("its size: %lld\n", (long long)lseek(fd3, 0, SEEK_END));
    close(fd3);
    close(fd);
    free(out);
    free(in);
}

/* A child takes the lock, says so through a pipe, holds it 100 ms. */
static pid_t child_holding(int use_fcntl, int *said) {
    int p[2];
    pipe(p);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(path("lock"), O_RDWR | O_CREAT, 0600);
        if (use_fcntl) {
            struct flock lk = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
            fcntl(fd, F_SETLKW, &lk);
        } else {
            flock(fd, LOCK_EX);
        }
        write(p[1], "x", 1);
        usleep(100000);
        _exit(0);
    }
    close(p[1]);
    char c;
    *said = read(p[0], &c, 1) == 1;
    close(p[0]);
    return pid;
}

static void locks(void) {
    int said, st;
    pid_t pid = child_holding(0, &said);
    int fd = open(path("lock"), O_RDWR | O_CREAT, 0600);
    SHOW("flock(LOCK_NB) while the child holds it", flock(fd, LOCK_EX | LOCK_NB));
    printf("flock(LOCK_EX) waits for the child: %d\n", flock(fd, LOCK_EX));
    printf("flock(LOCK_UN): %d\n", flock(fd, LOCK_UN));
    waitpid(pid, &st, 0);
    close(fd);
    pid = child_holding(1, &said);
    fd = open(path("lock"), O_RDWR | O_CREAT, 0600);
    struct flock lk = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
    SHOW("fcntl(F_SETLK) while the child holds it", fcntl(fd, F_SETLK, &lk));
    printf("fcntl(F_SETLKW) waits for the child: %d\n", fcntl(fd, F_SETLKW, &lk));
    printf("fcntl(F_GETFL) still plain: %d\n", (fcntl(fd, F_GETFL) & O_ACCMODE) == O_RDWR);
    waitpid(pid, &st, 0);
    SHOW("fcntl(F_SETLKW) on -1", fcntl(-1, F_SETLKW, &lk));
    SHOW("flock(-1)", flock(-1, LOCK_EX));
    SHOW("waitpid(-1, bad options)", waitpid(-1, &st, 0x7000));
    close(fd);
}

static void fifo(void) {
    mkfifo(path("fifo"), 0600);
    pid_t pid = fork();
    if (pid == 0) {
        usleep(50000);
        int w = open(path("fifo"), O_WRONLY);
        write(w, "through the fifo", 16);
        _exit(0);
    }
    int fd = open(path("fifo"), O_RDONLY);
    char buf[32] = "";
    ssize_t n = read(fd, buf, sizeof buf);
    printf("open of a FIFO, then read: %d %zd %.*s\n", fd >= 0, n, (int)(n > 0 ? n : 0), buf);
    close(fd);
    SHOW("open(FIFO, O_WRONLY | O_NONBLOCK) with no reader", open(path("fifo"), O_WRONLY | O_NONBLOCK));
    int st;
    waitpid(pid, &st, 0);
}

int main(void) {
    snprintf(dir, sizeof dir, "/tmp/rip-offload-XXXXXX");
    if (!mkdtemp(dir))
        return 1;
    setvbuf(stdout, NULL, _IONBF, 0);
    waits();
    shell();
    names();
    files();
    locks();
    fifo();
    unlink(path("data"));
    unlink(path("copy"));
    unlink(path("lock"));
    unlink(path("fifo"));
    rmdir(dir);
    return 0;
}

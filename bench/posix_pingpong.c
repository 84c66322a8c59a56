/* posix_pingpong.c -- the cost of a blocking call in POSIX mode: a parent
 * and a forked child pass one byte back and forth N times over a socket
 * pair (argv[1] "socket") or two pipes ("pipe"), with plain read/write.
 * Every round trip waits twice in each process, so it measures the wait
 * and wake path: plain, the kernel's; ripcc --posix, the runtime's.
 *     ripcc --posix --backend=rip -O2 bench/posix_pingpong.c -o pp && ./pp socket 100000 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    int use_pipe = argc > 1 && strcmp(argv[1], "pipe") == 0;
    long n = argc > 2 ? atol(argv[2]) : 100000;
    int to_child[2], to_parent[2];
    if (use_pipe) {
        pipe(to_child);
        pipe(to_parent);
    } else {
        socketpair(AF_UNIX, SOCK_STREAM, 0, to_child);
        to_parent[0] = to_child[0];
        to_parent[1] = to_child[1];
    }
    char c = 'x';
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    fflush(stdout);
    if (fork() == 0) {
        int in = use_pipe ? to_child[0] : to_child[1], out = use_pipe ? to_parent[1] : to_child[1];
        for (long i = 0; i < n; i++)
            if (read(in, &c, 1) != 1 || write(out, &c, 1) != 1)
                _exit(1);
        _exit(0);
    }
    int in = use_pipe ? to_parent[0] : to_child[0], out = use_pipe ? to_child[1] : to_child[0];
    for (long i = 0; i < n; i++)
        if (write(out, &c, 1) != 1 || read(in, &c, 1) != 1)
            return 1;
    int status;
    wait(&status);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("%s: %ld round trips in %.3f s, %.2f us each\n", use_pipe ? "pipe" : "socket", n, s,
           s / (double)n * 1e6);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1;
}

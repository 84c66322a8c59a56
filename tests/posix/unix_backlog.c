/* unix_backlog.c -- connect(2) on a Unix socket whose listener's backlog
 * is full, as plain POSIX: a blocking connect waits until the listener (a
 * slower child) accepts, then succeeds; a non-blocking one says EAGAIN.
 * ripcc --posix runs that blocking connect on the offload pool (no event
 * says the backlog has room).  The output must be the same built plainly
 * and ripped (tests/test_posix.py). */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    snprintf(addr.sun_path + 1, sizeof addr.sun_path - 1, "rip-posix-backlog-%d", (int)getpid());
    socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 +
                                strlen(addr.sun_path + 1));   /* an abstract name: no file */
    int l = socket(AF_UNIX, SOCK_STREAM, 0);
    if (bind(l, (struct sockaddr *)&addr, len) == -1 || listen(l, 1) == -1) {
        perror("listen");
        return 1;
    }
    int filled = 0, c;
    for (;;) {                      /* fill the backlog */
        c = socket(AF_UNIX, SOCK_STREAM, 0);
        fcntl(c, F_SETFL, O_NONBLOCK);
        if (connect(c, (struct sockaddr *)&addr, len) == -1)
            break;
        filled++;
    }
    printf("backlog full after some: %d, then: %s\n", filled > 0,
           errno == EAGAIN ? "EAGAIN" : strerror(errno));
    close(c);
    fflush(stdout);
    if (fork() == 0) {              /* accepts everything, slowly */
        usleep(100000);
        for (int i = 0; i <= filled; i++)
            close(accept(l, NULL, NULL));
        _exit(0);
    }
    c = socket(AF_UNIX, SOCK_STREAM, 0);
    int r = connect(c, (struct sockaddr *)&addr, len);
    printf("blocking connect: %d\n", r);
    int status;
    wait(&status);
    printf("child: %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    return 0;
}

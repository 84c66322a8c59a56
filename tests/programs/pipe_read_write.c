/* checks: rip_read blocks a reader task until a writer task writes into the pipe */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <rip.h>

static int fds[2];

static void writer(void *arg)
{
    const char *msgs[] = {"hello ", "from ", "the writer"};
    (void)arg;
    for (int i = 0; i < 3; i++) {
        ssize_t n;
        rip_sleep_ms(5);
        n = rip_write(fds[1], msgs[i], strlen(msgs[i]));
        if (n < 0)
            printf("write failed\n");
    }
    rip_close(fds[1]);
}

static void root(void *arg)
{
    char buf[64];
    size_t total = 0;
    ssize_t n;
    (void)arg;
    rip_spawn(writer, NULL);
    for (;;) {
        n = rip_read(fds[0], buf + total, sizeof buf - 1 - total);
        if (n <= 0)
            break;
        total += (size_t)n;
    }
    buf[total] = '\0';
    printf("read %zu bytes: %s\n", total, buf);
    printf("last read returned %zd\n", n);
    rip_close(fds[0]);
}

int main(void)
{
    if (pipe(fds) != 0)
        return 1;
    return rip_run(root, NULL);
}

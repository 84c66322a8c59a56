/* checks: an echo task copying lines between two pipes with a while ((n = rip_read(fd, buf, sizeof buf)) > 0) loop and rip_write, talking to a client task that waits for each echo */
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <rip.h>

static int to_echo[2], from_echo[2];

static void echo(void *arg)
{
    char buf[8];                        /* small: long lines take several reads */
    ssize_t n;
    size_t total = 0;
    (void)arg;
    while ((n = rip_read(to_echo[0], buf, sizeof buf)) > 0) {
        total += (size_t)n;
        if (rip_write(from_echo[1], buf, (size_t)n) != n)
            printf("short write\n");
    }
    printf("echo: read returned %zd after %zu bytes\n", n, total);
    rip_close(to_echo[0]);
    rip_close(from_echo[1]);
}

static void client(void *arg)
{
    const char *lines[] = { "hello\n", "a line longer than the echo buffer\n", "\n", "bye\n" };
    char back[64];
    (void)arg;
    rip_spawn(echo, NULL);
    for (int i = 0; i < 4; i++) {
        size_t len = strlen(lines[i]), got = 0;
        rip_write(to_echo[1], lines[i], len);
        while (got < len) {
            ssize_t n = rip_read(from_echo[0], back + got, len - got);
            if (n <= 0)
                break;
            got += (size_t)n;
        }
        back[got] = '\0';
        printf("client got %zu bytes: %s", got, back);
    }
    rip_close(to_echo[1]);
    ssize_t n = rip_read(from_echo[0], back, sizeof back);
    printf("client: end of echo stream, read returned %zd\n", n);
    rip_close(from_echo[0]);
}

int main(void)
{
    if (pipe(to_echo) != 0 || pipe(from_echo) != 0)
        return 1;
    return rip_run(client, NULL);
}

/* checks: workers each accepting on their own SO_REUSEPORT listener of one port serve every connection a client makes to that port */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <sys/socket.h>
#include "rip.h"

#define WORKERS 4
#define CONNS 40

static int listeners[WORKERS];      /* one per worker, all on one port */
static struct sockaddr_in addr;     /* that port on loopback */
static int answered;                /* connections the servers answered */
static int replies;                 /* answers the client got */
static int client_done;             /* the client has made all its connections */

/* Reads one byte and answers with the next one. */
static void serve(void *arg) {
    int fd = (int)(long)arg;
    char c;
    if (rip_read(fd, &c, 1) == 1) {
        c++;
        if (rip_write(fd, &c, 1) == 1)
            __atomic_add_fetch(&answered, 1, __ATOMIC_SEQ_CST);
    }
    rip_close(fd);
}

static void client(void *arg) {
    (void)arg;
    for (int i = 0; i < CONNS; i++) {
        char c = 'a';
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (rip_connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0 &&
            rip_write(fd, &c, 1) == 1 && rip_read(fd, &c, 1) == 1 && c == 'b')
            replies++;
        rip_close(fd);
    }
    __atomic_store_n(&client_done, 1, __ATOMIC_SEQ_CST);
}

/* Accepts until the client is done; a short deadline on each accept
 * lets it look at the flag now and then. */
static void work(void *arg) {
    int id = rip_worker_id();
    (void)arg;
    if (id == 0)
        rip_spawn(client, NULL);
    while (!__atomic_load_n(&client_done, __ATOMIC_SEQ_CST)) {
        rip_set_deadline(rip_now_ms() + 20);
        int fd = rip_accept(listeners[id], NULL, NULL);
        if (fd >= 0)
            rip_spawn(serve, (void *)(long)fd);
        else if (errno != ETIMEDOUT)
            perror("accept");
    }
}

int main(void) {
    int one = 1;
    socklen_t len = sizeof addr;
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    for (int i = 0; i < WORKERS; i++) {     /* the first picks the port */
        listeners[i] = socket(AF_INET, SOCK_STREAM, 0);
        if (setsockopt(listeners[i], SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) ||
            bind(listeners[i], (struct sockaddr *)&addr, sizeof addr) ||
            listen(listeners[i], 64) ||
            getsockname(listeners[i], (struct sockaddr *)&addr, &len)) {
            perror("listen");
            return 1;
        }
    }
    int r = rip_run_workers(WORKERS, work, NULL);
    printf("rip_run_workers returned %d\n", r);
    printf("client: %d replies to %d connections\n", replies, CONNS);
    printf("servers: %d answered\n", answered);
    for (int i = 0; i < WORKERS; i++)
        rip_close(listeners[i]);
    return r;
}

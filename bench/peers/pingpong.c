/* pingpong.c -- two tasks hand a token back and forth over two rendezvous
 * channels (capacity 0): the cost of one switch, beside the peers' same.
 *
 *   pingpong [ROUNDS]   -> "pingpong 2000000 switches in 21.0 ms: 10.5 ns/switch" */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "rip.h"

static long rounds = 1000000;
static rip_chan *ping, *pong;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void echo(void *arg) {
    long token;
    (void)arg;
    while (rip_chan_recv(ping, &token))
        rip_chan_send(pong, &token);
}

static void start(void *arg) {
    (void)arg;
    ping = rip_chan_new(sizeof(long), 0);
    pong = rip_chan_new(sizeof(long), 0);
    rip_spawn(echo, NULL);
    double t0 = now_ms();
    for (long i = 0; i < rounds; i++) {
        rip_chan_send(ping, &i);
        long back;
        rip_chan_recv(pong, &back);
    }
    double ms = now_ms() - t0;
    printf("pingpong %ld switches in %.1f ms: %.1f ns/switch\n", 2 * rounds, ms,
           ms * 1e6 / (2.0 * rounds));
    rip_chan_close(ping);
}

int main(int argc, char **argv) {
    if (argc > 1)
        rounds = atol(argv[1]);
    return rip_run(start, NULL);
}

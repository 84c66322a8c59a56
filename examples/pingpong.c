/* pingpong.c -- two tasks hand a token back and forth, in plain blocking
 * style.  Prints switches per second for a channel hand-off and for a
 * pair of tasks that yield to each other.
 *
 *   pingpong [ROUNDS]        (default 100000 round trips each) */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "rip.h"

static long rounds = 100000;
static rip_chan *ping, *pong;
static rip_wg *done;

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void report(const char *what, long switches, double seconds) {
    printf("%-8s %ld switches in %.3f s: %.0f switches/s, %.1f ns/switch\n",
           what, switches, seconds, switches / seconds, seconds * 1e9 / switches);
}

/* Sends the token on `ping`, waits for it on `pong`. */
static void server(void *arg) {
    long token = 0;
    (void)arg;
    while (token < rounds) {
        rip_chan_recv(ping, &token);
        token++;
        rip_chan_send(pong, &token);
    }
    rip_wg_done(done);
}

static void yielder(void *arg) {
    (void)arg;
    for (long i = 0; i < rounds; i++)
        rip_yield();
    rip_wg_done(done);
}

static void bench(void *arg) {
    long token = 0;
    (void)arg;
    ping = rip_chan_new(sizeof(long), 0);
    pong = rip_chan_new(sizeof(long), 0);
    done = rip_wg_new();

    rip_wg_add(done, 1);
    rip_spawn(server, NULL);
    double t0 = now_s();
    while (token < rounds) {
        rip_chan_send(ping, &token);
        rip_chan_recv(pong, &token);
    }
    rip_wg_wait(done);
    report("channel", 2 * rounds, now_s() - t0);

    rip_wg_add(done, 2);
    t0 = now_s();
    rip_spawn(yielder, NULL);
    rip_spawn(yielder, NULL);
    rip_wg_wait(done);
    report("yield", 2 * rounds, now_s() - t0);

    rip_chan_free(ping);
    rip_chan_free(pong);
    rip_wg_free(done);
}

int main(int argc, char **argv) {
    if (argc > 1 && (rounds = atol(argv[1])) <= 0) {
        fprintf(stderr, "usage: pingpong [ROUNDS]\n");
        return 2;
    }
    return rip_run(bench, NULL) == 0 ? 0 : 1;
}

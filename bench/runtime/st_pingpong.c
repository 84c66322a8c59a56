/* st_pingpong.c -- State Threads (libst-dev): two threads hand a turn
 * back and forth with condition variables.  Prints ns per switch. */
#include <stdio.h>
#include <stdlib.h>
#include <st.h>
#include <time.h>

static st_cond_t cond[2];           /* each player waits on its own */
static int turn;                    /* whose turn it is */
static long rounds;

static void *player(void *arg) {
    int me = (int)(long)arg;
    for (long i = 0; i < rounds; i++) {
        while (turn != me)
            st_cond_wait(cond[me]);
        turn = !me;
        st_cond_signal(cond[!me]);
    }
    return NULL;
}

int main(int argc, char **argv) {
    struct timespec t0, t1;
    rounds = argc > 1 ? atol(argv[1]) : 2000000;
    if (st_init() < 0)
        return 1;
    cond[0] = st_cond_new();
    cond[1] = st_cond_new();
    clock_gettime(CLOCK_MONOTONIC, &t0);
    st_thread_t a = st_thread_create(player, (void *)0L, 1, 64 * 1024);
    st_thread_t b = st_thread_create(player, (void *)1L, 1, 64 * 1024);
    st_thread_join(a, NULL);
    st_thread_join(b, NULL);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("st-cond %.2f ns/switch\n", s * 1e9 / (2.0 * rounds));
    return 0;
}

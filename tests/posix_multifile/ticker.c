/* ticker.c -- tests only: a second task that ticks while main waits in
 * read(2), which shows that the wait suspends only main's task. */
#include <stdio.h>
#include <unistd.h>
#include "rip.h"

static void tick(void *arg) {
    (void)arg;
    for (int i = 0; i < 3; i++) {
        printf("tick %d\n", i);
        fflush(stdout);
        usleep(10000);
    }
}

void start_ticker(void) {
    rip_spawn(tick, NULL);
}

/* checks: async calls in while, do/while and for conditions and increments, re-evaluated each time; continue and break */
#include <stdio.h>
#include "rip.h"

static rip_chan *numbers;

RIP_ASYNC static int below(int i, int n) {
    rip_yield();
    return i < n;
}

RIP_ASYNC static int next(int i) {
    rip_yield();
    return i + 1;
}

static void producer(void *arg) {
    (void)arg;
    for (int i = 1; i <= 5; i++)
        rip_chan_send(numbers, &i);
    rip_chan_close(numbers);
}

static void task(void *arg) {
    int v, sum = 0, i = 0;
    (void)arg;
    numbers = rip_chan_new(sizeof(int), 0);
    rip_spawn(producer, NULL);
    while (rip_chan_recv(numbers, &v)) {
        if (v == 2)
            continue;
        sum += v;
    }
    printf("while: sum of received except 2 = %d\n", sum);
    do {
        i++;
        if (i == 2)
            continue;
        printf("do: i = %d\n", i);
    } while (below(i, 4));
    for (int j = 0; below(j, 6); j = next(j)) {
        if (j == 1)
            continue;
        if (j == 4)
            break;
        printf("for: j = %d\n", j);
    }
    for (i = next(10); i < 13; i++)
        printf("for with async init: i = %d\n", i);
    switch (next(1)) {
    case 2:
        printf("switch on next(1): 2\n");
        break;
    default:
        printf("switch: wrong\n");
    }
    if (below(1, 2))
        printf("if: below(1, 2)\n");
    else if (below(3, 2))
        printf("wrong\n");
    if (below(3, 2))
        printf("wrong\n");
    else if (below(2, 3))
        printf("else if: below(2, 3)\n");
    rip_chan_free(numbers);
}

int main(void) {
    return rip_run(task, NULL);
}

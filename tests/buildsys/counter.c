#include "config.h"
#include "counter.h"

RIP_ASYNC int count_to(int n) {
    int sum = 0;
    for (int i = 0; i < n; i += STEP) {
        rip_yield();
        sum += i;
    }
    return sum;
}

// skynet.cpp -- the skynet benchmark with C++20 coroutines (coro.h): each
// node a task, each leaf sends its number to its parent's channel.
//
//   skynet [LEAVES]   -> "skynet 499999500000 in 123.4 ms, peak RSS 56.7 MiB"
#include <chrono>
#include <cstdio>
#include <sys/resource.h>
#include "coro.h"

static task skynet(channel<long> *parent, long num, long size) {
    if (size == 1) {
        parent->send(num);
        co_return;
    }
    long step = size / 10, sum = 0, part;
    channel<long> results;
    for (long i = 0; i < 10; i++)
        skynet(&results, num + i * step, step);
    for (int i = 0; i < 10; i++) {
        co_await results.recv(&part);
        sum += part;
    }
    parent->send(sum);
}

int main(int argc, char **argv) {
    long leaves = argc > 1 ? std::atol(argv[1]) : 1000000;
    channel<long> result;
    auto t0 = std::chrono::steady_clock::now();
    skynet(&result, 0, leaves);
    run();
    double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    std::printf("skynet %ld in %.1f ms, peak RSS %.1f MiB\n", result.items.front(), ms,
                ru.ru_maxrss / 1024.0);
}

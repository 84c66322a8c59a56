// blocked.cpp -- N C++20 coroutine tasks (coro.h) blocked on one event,
// then released: memory per blocked task, time to spawn and release.
//
//   blocked [N]   -> "blocked 1000000 tasks: 100 bytes/task, spawn 30.0 ns/task, release 20.0 ms"
#include <chrono>
#include <cstdio>
#include <unistd.h>
#include "coro.h"

static event gate;
static long finished;

static long rss_bytes() {
    long pages = 0, resident = 0;
    if (FILE *f = std::fopen("/proc/self/statm", "r")) {
        if (std::fscanf(f, "%ld %ld", &pages, &resident) != 2)
            resident = 0;
        std::fclose(f);
    }
    return resident * sysconf(_SC_PAGESIZE);
}

static task waiter() {
    co_await gate.wait();
    finished++;
}

int main(int argc, char **argv) {
    long n = argc > 1 ? std::atol(argv[1]) : 1000000;
    using clock = std::chrono::steady_clock;
    long before = rss_bytes();
    auto t0 = clock::now();
    for (long i = 0; i < n; i++)
        waiter();
    run();                          // each runs to its wait
    auto t1 = clock::now();
    long after = rss_bytes();
    gate.set();
    run();
    auto t2 = clock::now();
    std::printf("blocked %ld tasks: %.0f bytes/task, spawn %.1f ns/task, release %.1f ms\n", n,
                double(after - before) / n,
                std::chrono::duration<double, std::nano>(t1 - t0).count() / n,
                std::chrono::duration<double, std::milli>(t2 - t1).count());
    return finished == n ? 0 : 1;
}

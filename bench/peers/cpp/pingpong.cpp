// pingpong.cpp -- two C++20 coroutine tasks (coro.h) hand a token back and
// forth over two channels: the cost of one switch.
//
//   pingpong [ROUNDS]   -> "pingpong 2000000 switches in 21.0 ms: 10.5 ns/switch"
#include <chrono>
#include <cstdio>
#include "coro.h"

static channel<long> ping, pong;
static long rounds = 1000000;
static double ms;

static task echo() {
    long token;
    while (co_await ping.recv(&token))
        pong.send(token);
}

static task player() {
    long back;
    auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < rounds; i++) {
        ping.send(i);
        co_await pong.recv(&back);
    }
    ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    ping.close();
}

int main(int argc, char **argv) {
    if (argc > 1)
        rounds = std::atol(argv[1]);
    echo();
    player();
    run();
    std::printf("pingpong %ld switches in %.1f ms: %.1f ns/switch\n", 2 * rounds, ms,
                ms * 1e6 / (2.0 * rounds));
}

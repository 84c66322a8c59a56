// boost_jump.cpp -- boost.context (libboost-context-dev): a bare
// jump_fcontext back and forth between main and one context.  Prints ns
// per jump.
#include <boost/context/detail/fcontext.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace ctx = boost::context::detail;

static void entry(ctx::transfer_t t) {
    for (;;)
        t = ctx::jump_fcontext(t.fctx, nullptr);
}

int main(int argc, char **argv) {
    long n = argc > 1 ? std::atol(argv[1]) : 20000000;
    const std::size_t size = 64 * 1024;
    char *stack = static_cast<char *>(std::malloc(size));
    ctx::transfer_t t = { ctx::make_fcontext(stack + size, size, entry), nullptr };
    auto t0 = std::chrono::steady_clock::now();
    for (long i = 0; i < n; i++)
        t = ctx::jump_fcontext(t.fctx, nullptr);
    auto t1 = std::chrono::steady_clock::now();
    double s = std::chrono::duration<double>(t1 - t0).count();
    std::printf("boost-jump %.2f ns/switch\n", s * 1e9 / (2.0 * n));
    return 0;
}

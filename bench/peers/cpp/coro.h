// coro.h -- what a C++20 user writes over the standard's bare coroutines
// to have tasks: a detached task type queued when called, a FIFO run queue,
// a channel whose receive suspends, an event many tasks wait on.
#pragma once
#include <coroutine>
#include <cstdlib>
#include <deque>
#include <vector>

inline std::deque<std::coroutine_handle<>> ready;   // the run queue, FIFO

struct task {                       // detached: queued at its call, frees itself at its end
    struct promise_type {
        task get_return_object() {
            ready.push_back(std::coroutine_handle<promise_type>::from_promise(*this));
            return {};
        }
        std::suspend_always initial_suspend() noexcept { return {}; }
        std::suspend_never final_suspend() noexcept { return {}; }
        void return_void() {}
        void unhandled_exception() { std::abort(); }
    };
};

inline void run() {                 // until no task is ready
    while (!ready.empty()) {
        auto h = ready.front();
        ready.pop_front();
        h.resume();
    }
}

template <class T> struct channel { // buffered, one waiting receiver at a time
    std::deque<T> items;
    std::coroutine_handle<> waiter;
    bool closed = false;
    void send(T v) {
        items.push_back(v);
        wake();
    }
    void close() {
        closed = true;
        wake();
    }
    void wake() {
        if (waiter) {
            ready.push_back(waiter);
            waiter = nullptr;
        }
    }
    struct recv_awaiter {           // yields false once closed and empty
        channel &c;
        T *out;
        bool await_ready() { return !c.items.empty() || c.closed; }
        void await_suspend(std::coroutine_handle<> h) { c.waiter = h; }
        bool await_resume() {
            if (c.items.empty())
                return false;
            *out = c.items.front();
            c.items.pop_front();
            return true;
        }
    };
    recv_awaiter recv(T *out) { return {*this, out}; }
};

struct event {                      // many wait; set() wakes them all
    std::vector<std::coroutine_handle<>> waiters;
    bool is_set = false;
    void set() {
        is_set = true;
        for (auto h : waiters)
            ready.push_back(h);
        waiters.clear();
    }
    struct awaiter {
        event &e;
        bool await_ready() { return e.is_set; }
        void await_suspend(std::coroutine_handle<> h) { e.waiters.push_back(h); }
        void await_resume() {}
    };
    awaiter wait() { return {*this}; }
};

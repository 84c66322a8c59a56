"""Runtime behaviour that is not a program's output: stacks and limits."""
import os
import re
import signal
import subprocess

import pytest

from conftest import BACKENDS, RIPCC, ROOT, SAN, run

DEEP = b"""#include <stdio.h>
#include <stdlib.h>
#include "rip.h"
static int depth(int n) { volatile char pad[256]; pad[0] = (char)n; return n ? depth(n - 1) + pad[0] - (char)n + 1 : 0; }
static void task(void *arg) { rip_yield(); printf("%d\\n", depth(*(int *)arg)); }
int main(int argc, char **argv) { int n = argc > 1 ? atoi(argv[1]) : 0; return rip_run(task, &n); }
"""


def build_deep(tmp_path, ripcc, backend):
    src = tmp_path / "deep.c"
    src.write_bytes(DEEP)
    return ripcc(str(src), backend)


def test_ucontext_stack_overflow_stops_at_the_guard_page(tmp_path, ripcc):
    exe = build_deep(tmp_path, ripcc, "ucontext")
    env = dict(os.environ, RIP_STACK_SIZE="65536")
    if SAN:     # the guard page's SIGSEGV ends it, not ASan's report of it
        env["ASAN_OPTIONS"] += ":handle_segv=0"
    r = run([exe, "100000"], env=env)
    assert r.returncode == -signal.SIGSEGV


def test_ucontext_stack_size_comes_from_the_environment(tmp_path, ripcc):
    exe = build_deep(tmp_path, ripcc, "ucontext")
    r = run([exe, "1000"], env=dict(os.environ, RIP_STACK_SIZE=str(8 << 20)))
    assert r.returncode == 0 and r.stdout.strip() == b"1000"
    assert run([exe, "100"]).stdout.strip() == b"100"


def test_threads_stack_size_comes_from_the_environment(tmp_path, ripcc):
    exe = build_deep(tmp_path, ripcc, "threads")
    r = run([exe, "20000"], env=dict(os.environ, RIP_STACK_SIZE=str(16 << 20)))
    assert r.returncode == 0 and r.stdout.strip() == b"20000"


def test_rip_tasks_run_plain_calls_on_the_scheduler_stack(tmp_path, ripcc):
    exe = build_deep(tmp_path, ripcc, "rip")
    r = run([exe, "20000"])
    assert r.returncode == 0 and r.stdout.strip() == b"20000"


MISUSE = {
    "wait group count below zero (-1)": b"""
static void task(void *arg) { rip_wg *wg = rip_wg_new(); (void)arg; rip_wg_add(wg, 1); rip_wg_done(wg); rip_wg_done(wg); }
""",
    "rip_chan_free: tasks still wait on the channel": b"""
static rip_chan *c;
static void receiver(void *arg) { int v; (void)arg; rip_chan_recv(c, &v); }
static void task(void *arg) { (void)arg; c = rip_chan_new(sizeof(int), 0); rip_spawn(receiver, NULL); rip_sleep_ms(50); rip_chan_free(c); }
""",
    "rip_wg_free: tasks still wait on the wait group": b"""
static rip_wg *wg;
static void waiter(void *arg) { (void)arg; rip_wg_wait(wg); }
static void task(void *arg) { (void)arg; wg = rip_wg_new(); rip_wg_add(wg, 1); rip_spawn(waiter, NULL); rip_sleep_ms(50); rip_wg_free(wg); }
""",
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("message", sorted(MISUSE))
def test_misuse_aborts_with_a_message(tmp_path, ripcc, backend, message):
    """A wait group counted below zero, or a channel or wait group freed
    while tasks wait on it: a clear message and SIGABRT, never a hang."""
    src = tmp_path / ("misuse%d.c" % sorted(MISUSE).index(message))
    src.write_bytes(b'#include "rip.h"\n' + MISUSE[message] +
                    b"int main(void) { return rip_run(task, 0); }\n")
    r = run([ripcc(str(src), backend)], timeout=20)
    assert r.returncode == -signal.SIGABRT
    assert r.stderr.decode().strip().splitlines()[-1].startswith("rip: " + message)


ANOTHER_WORKERS = {
    "send": "int v = 1; rip_chan_send(c, &v);",
    "recv": "int v; rip_chan_recv(c, &v);",
}


@pytest.mark.parametrize("backend", ("rip", "ucontext"))
@pytest.mark.parametrize("op", sorted(ANOTHER_WORKERS))
def test_a_channel_of_another_worker_aborts_with_a_message(tmp_path, ripcc, backend, op):
    """Workers share nothing: worker 1 using worker 0's channel is stopped
    (in rip by the check inlined into the ripped caller), not a race."""
    src = tmp_path / ("foreign_%s.c" % op)
    src.write_text('#include "rip.h"\nstatic rip_chan *c;\n'
                   "static void task(void *arg) { (void)arg; if (rip_worker_id() == 1) { %s } }\n"
                   "int main(void) { c = rip_chan_new(sizeof(int), 0); "
                   "return rip_run_workers(2, task, 0); }\n" % ANOTHER_WORKERS[op])
    r = run([ripcc(str(src), backend)], timeout=20)
    assert r.returncode == -signal.SIGABRT, r.stderr.decode()
    assert "rip: a channel made by another worker used by worker 1" in r.stderr.decode()


@pytest.mark.skipif(not SAN, reason="AddressSanitizer only (make test SAN=1)")
def test_a_freed_frame_is_poisoned_under_asan(tmp_path, ripcc):
    """The frame pool hides frees from ASan; it poisons the blocks it holds."""
    src = tmp_path / "uaf.c"
    src.write_bytes(b"""#include "rip_frame.h"
int main(void) {
    struct rip__frame *f = rip__frame_alloc(64, 0);
    rip__frame_free(f);
    return f->state;
}
""")
    env = dict(os.environ, ASAN_OPTIONS="halt_on_error=1")     # the report on stderr
    exe = ripcc(str(src), "rip", ["-I", os.path.join(ROOT, "runtime", "src", "rip")])
    r = run([exe], env=env)
    assert r.returncode != 0 and b"use-after-poison" in r.stderr, r.stderr.decode()


OUTSIDE_A_TASK = {
    "rip_yield": "rip_yield();",
    "rip_sleep_ms": "rip_sleep_ms(1);",
    "rip_read": "char b; rip_read(0, &b, 1);",
    "rip_write": 'rip_write(1, "x", 1);',
    "rip_accept": "rip_accept(0, 0, 0);",
    "rip_connect": "struct sockaddr a = {0}; rip_connect(0, &a, sizeof a);",
    "rip_chan_send": "int v = 1; rip_chan_send(rip_chan_new(sizeof v, 0), &v);",
    "rip_chan_recv": "int v; rip_chan_recv(rip_chan_new(sizeof v, 0), &v);",
    "rip_wg_wait": "rip_wg *wg = rip_wg_new(); rip_wg_add(wg, 1); rip_wg_wait(wg);",
    "rip_offload": "rip_offload(nothing, 0);",
}


def outside_a_task_source(tmp_path, call):
    src = tmp_path / ("outside_%s.c" % call)
    src.write_text('#include <sys/socket.h>\n#include "rip.h"\n'
                   "static void *nothing(void *a) { return a; }\n"
                   "int main(void) { (void)nothing; %s return 0; }\n" % OUTSIDE_A_TASK[call])
    return str(src)


@pytest.mark.parametrize("backend", ("ucontext", "threads"))
@pytest.mark.parametrize("call", sorted(OUTSIDE_A_TASK))
def test_a_blocking_call_outside_rip_run_aborts_with_a_message(tmp_path, ripcc, backend, call):
    """Not a segfault (ucontext had no task to park), nor a call that works
    or hangs by luck (threads): the same message and SIGABRT on both."""
    r = run([ripcc(outside_a_task_source(tmp_path, call), backend)], timeout=20,
            stdin=subprocess.DEVNULL)
    assert r.returncode == -signal.SIGABRT, r.stderr.decode()
    assert r.stderr.decode().strip().splitlines()[-1] == (
        "rip: %s called outside rip_run: a blocking call must run in a task "
        "(a function given to rip_run or rip_spawn)" % call)


@pytest.mark.parametrize("call", ["rip_yield", "rip_read"])
def test_a_blocking_call_outside_rip_run_does_not_compile_on_rip(tmp_path, call):
    """On rip the same mistake is found before it runs: main is no task."""
    r = run([RIPCC, "--backend=rip", outside_a_task_source(tmp_path, call),
             "-o", str(tmp_path / "x")])
    assert r.returncode == 1
    assert re.search(r"outside_%s\.c:4:\d+: error: .*main" % call, r.stderr.decode())


@pytest.mark.parametrize("backend", ("rip", "ucontext"))
def test_a_deadlock_behind_a_closed_fd_is_reported(ripcc, backend):
    """A task waits on an fd closed with close(2), the other on a wait
    group that never finishes: the fd wait fails (EBADF), the task then
    blocks for good too, and rip_run says so (before: a hang, no word)."""
    exe = ripcc(os.path.join(ROOT, "tests", "programs",
                             "deadlock_reported_when_the_last_wait_is_on_a_closed_fd.c"), backend)
    r = run([exe], timeout=20)
    assert r.returncode == 3, r.stderr.decode()
    assert r.stderr.decode().strip().splitlines()[-1] == "rip: deadlock: 2 tasks blocked forever"

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


GUARD_HIT = ("rip: a task overflowed its stack of %d bytes: the guard page below it "
             "stopped it (a bigger stack: RIP_STACK_SIZE or rip_set_stack_size)")


def test_ucontext_stack_overflow_stops_at_the_guard_page(tmp_path, ripcc):
    """The SIGSEGV comes from the guard page, which says so: without the
    guard an overflow would run on into whatever lies below the stack."""
    exe = build_deep(tmp_path, ripcc, "ucontext")
    env = dict(os.environ, RIP_STACK_SIZE="65536")
    if SAN:     # the guard page's SIGSEGV ends it, not ASan's report of it
        env["ASAN_OPTIONS"] += ":handle_segv=0"
    r = run([exe, "100000"], env=env)
    assert r.returncode == -signal.SIGSEGV
    assert rip_lines(r) == [GUARD_HIT % 65536]


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


# N tasks wait on a wait group; one more, spawned last, recurses DEPTH deep
# and then lets them all go.
MANY = b"""#include <stdio.h>
#include <stdlib.h>
#include "rip.h"
static rip_wg *all;
static int depth(int n) { volatile char pad[256]; pad[0] = (char)n; return n ? depth(n - 1) + pad[0] - (char)n + 1 : 0; }
static void waiter(void *arg) { (void)arg; rip_wg_wait(all); }
static void deep(void *arg) { printf("%d\\n", depth(*(int *)arg)); rip_wg_done(all); }
static void task(void *arg) {
    int *n = arg;
    for (int i = 0; i < n[0]; i++)
        rip_spawn(waiter, NULL);
    rip_spawn(deep, &n[1]);
}
int main(int argc, char **argv) {
    int n[2] = { argc > 2 ? atoi(argv[1]) : 0, argc > 2 ? atoi(argv[2]) : 0 };
    all = rip_wg_new();
    rip_wg_add(all, 1);
    int r = rip_run(task, n);
    printf("rip_run: %d\\n", r);
    return r;
}
"""


def build_many(tmp_path, ripcc, backend):
    src = tmp_path / "many.c"
    src.write_bytes(MANY)
    return ripcc(str(src), backend)


def rip_lines(r):
    return [line for line in r.stderr.decode().splitlines() if line.startswith("rip: ")]


@pytest.mark.skipif(SAN, reason="ASan reserves more address space than the limit")
def test_ucontext_stacks_past_the_map_limit_keep_their_guard_page(tmp_path, ripcc):
    """30,000 live stacks: past what guard pages of their own mappings
    allow under vm.max_map_count (65,530: the runtime once gave stacks
    past 28,669 none, and an overflow there ran into another task's
    stack).  The last one's overflow still stops at its guard.  Under
    prlimit --as, so the test cannot take the machine's memory."""
    exe = build_many(tmp_path, ripcc, "ucontext")
    env = dict(os.environ, RIP_STACK_SIZE="16384")
    r = run(["prlimit", "--as=%d" % (2 << 30), exe, "30000", "100000"], env=env, timeout=60)
    if r.returncode == -signal.SIGABRT:     # a kernel before 6.13: mprotect's guards hit the limit
        assert rip_lines(r)[-1].startswith("rip: cannot make a task stack's guard page: mprotect")
        return
    assert r.returncode == -signal.SIGSEGV, r.stderr.decode()
    assert rip_lines(r) == [GUARD_HIT % 16384]


@pytest.mark.skipif(SAN, reason="AddressSanitizer interposes mmap and the signals")
def test_ucontext_never_makes_a_stack_without_its_guard_page(tmp_path, ripcc):
    """A kernel without guard regions (madvise says EINVAL) guards stacks
    with mprotect, which costs a mapping each: when the map limit makes
    one fail (the shim's third mprotect), the spawn ends the program with
    a message; it never goes on with an unguarded stack."""
    from test_faults import build as build_shim
    shim, _ = build_shim(str(tmp_path), "ucontext")
    exe = build_many(tmp_path, ripcc, "ucontext")
    no_guard_regions = "madvise:1+:EINVAL"
    env = dict(os.environ, LD_PRELOAD=shim, RIP_FAULT=no_guard_regions, RIP_STACK_SIZE="16384")
    r = run([exe, "10", "100000"], env=env, timeout=20)
    assert r.returncode == -signal.SIGSEGV, r.stderr.decode()
    assert rip_lines(r) == [GUARD_HIT % 16384]     # mprotect's guard holds too
    env["RIP_FAULT"] = no_guard_regions + ",mprotect:3"
    r = run([exe, "10", "10"], env=env, timeout=20)
    assert r.returncode == -signal.SIGABRT, r.stderr.decode()
    assert rip_lines(r) == [
        "rip: cannot make a task stack's guard page: mprotect: Cannot allocate memory "
        "(each guarded stack takes two of the vm.max_map_count = %d mappings on this "
        "kernel; RIP_MAX_TASKS bounds the live tasks)" % int(open("/proc/sys/vm/max_map_count").read())]
    env["RIP_FAULT"] = "madvise:2"                  # the second stack's guard region
    r = run([exe, "10", "10"], env=env, timeout=20)
    assert r.returncode == -signal.SIGABRT, r.stderr.decode()
    assert rip_lines(r) == ["rip: cannot make a task stack's guard page: madvise: "
                            "Cannot allocate memory"]


@pytest.mark.skipif(SAN, reason="ASan reserves more address space than the limit")
def test_ucontext_out_of_address_space_for_stacks_is_a_clear_fatal_message(tmp_path, ripcc):
    """prlimit --as=256M: the stacks of 100,000 tasks do not fit.  The
    spawn that finds no room ends the program with one message and
    SIGABRT, never a stack without its guard."""
    exe = build_many(tmp_path, ripcc, "ucontext")
    r = run(["prlimit", "--as=%d" % (256 << 20), exe, "100000", "10"], timeout=60)
    assert r.returncode == -signal.SIGABRT, r.stderr.decode()
    lines = rip_lines(r)
    assert len(lines) == 1 and lines[0].startswith("rip: out of memory for task stacks: mmap of "), lines


@pytest.mark.parametrize("backend", BACKENDS)
def test_rip_max_tasks_bounds_the_live_tasks(tmp_path, ripcc, backend):
    """RIP_MAX_TASKS=N: N live tasks run (the first counts); a spawn past
    them ends the program with a message and SIGABRT, on every backend."""
    exe = build_many(tmp_path, ripcc, backend)
    env = dict(os.environ, RIP_MAX_TASKS="52")      # the first, 50 waiters, deep
    r = run([exe, "50", "10"], env=env, timeout=30)
    assert (r.returncode, r.stdout) == (0, b"10\nrip_run: 0\n"), r.stderr.decode()
    env["RIP_MAX_TASKS"] = "51"
    r = run([exe, "50", "10"], env=env, timeout=30)
    assert r.returncode == -signal.SIGABRT, r.stderr.decode()
    assert rip_lines(r) == ["rip: rip_spawn: RIP_MAX_TASKS=51 tasks are live on worker 0: "
                            "no more may be spawned"]
    env["RIP_MAX_TASKS"] = "many"
    r = run([exe, "50", "10"], env=env, timeout=30)
    assert r.returncode == -signal.SIGABRT
    assert rip_lines(r) == ["rip: RIP_MAX_TASKS=many: want a number of tasks >= 1"]


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


def used_by_worker_1(src, ripcc, backend, object_decl, make, use):
    """Run a program whose main makes an object (`object_decl`, made by
    `make` on worker 0) that worker 1 then uses (`use`) under two workers."""
    src.write_text('#include "rip.h"\nstatic %s;\n'
                   "static void task(void *arg) { (void)arg; if (rip_worker_id() == 1) { %s } }\n"
                   "int main(void) { %s return rip_run_workers(2, task, 0); }\n"
                   % (object_decl, use, make))
    return run([ripcc(str(src), backend)], timeout=20)


@pytest.mark.parametrize("backend", ("rip", "ucontext"))
@pytest.mark.parametrize("op", sorted(ANOTHER_WORKERS))
def test_a_channel_of_another_worker_aborts_with_a_message(tmp_path, ripcc, backend, op):
    """Workers share nothing: worker 1 using worker 0's channel is stopped
    (in rip by the check inlined into the ripped caller), not a race."""
    r = used_by_worker_1(tmp_path / ("foreign_%s.c" % op), ripcc, backend, "rip_chan *c",
                         "c = rip_chan_new(sizeof(int), 0);", ANOTHER_WORKERS[op])
    assert r.returncode == -signal.SIGABRT, r.stderr.decode()
    assert "rip: a channel made by another worker used by worker 1" in r.stderr.decode()


WG_OF_ANOTHER_WORKER = {
    "add": "rip_wg_add(wg, 1);",
    "done": "rip_wg_done(wg);",
    "wait": "rip_wg_wait(wg);",
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op", sorted(WG_OF_ANOTHER_WORKER))
def test_a_wait_group_of_another_worker_aborts_with_a_message(tmp_path, ripcc, backend, op):
    """A wait group made on worker 0 (main counts as worker 0) and used by
    worker 1: a clear message and SIGABRT on every backend, not a race
    on its count or a waiter woken on the wrong scheduler."""
    r = used_by_worker_1(tmp_path / ("foreign_wg_%s.c" % op), ripcc, backend, "rip_wg *wg",
                         "wg = rip_wg_new(); rip_wg_add(wg, 1);", WG_OF_ANOTHER_WORKER[op])
    assert r.returncode == -signal.SIGABRT, r.stderr.decode()
    assert re.match(r"rip: (a wait group made by another worker|wait group made by worker 0) "
                    r"used by worker 1", r.stderr.decode().strip().splitlines()[-1]), r.stderr


MUTEX_OF_ANOTHER_WORKER = {
    "lock": "rip_mutex_lock(m);",
    "trylock": "rip_mutex_trylock(m);",
    "unlock": "rip_mutex_unlock(m);",
    "cond_wait": "rip_cond_wait(c, m);",
    "cond_signal": "rip_cond_signal(c);",
    "cond_broadcast": "rip_cond_broadcast(c);",
}


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("op", sorted(MUTEX_OF_ANOTHER_WORKER))
def test_a_mutex_or_cond_of_another_worker_aborts_with_a_message(tmp_path, ripcc, backend, op):
    """A mutex and condition variable made on worker 0 and used by worker
    1: the channels' message and SIGABRT on every backend."""
    r = used_by_worker_1(tmp_path / ("foreign_mutex_%s.c" % op), ripcc, backend,
                         "rip_mutex *m; static rip_cond *c",
                         "m = rip_mutex_new(RIP_MUTEX_ERRORCHECK); c = rip_cond_new();",
                         MUTEX_OF_ANOTHER_WORKER[op])
    assert r.returncode == -signal.SIGABRT, r.stderr.decode()
    assert re.match(r"rip: (a (mutex|condition variable) made by another worker|"
                    r"(mutex|condition variable) made by worker 0) used by worker 1",
                    r.stderr.decode().strip().splitlines()[-1]), r.stderr


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_normal_mutex_unlocked_by_a_task_not_holding_it_aborts_with_a_message(
        tmp_path, ripcc, backend):
    """POSIX leaves it undefined; here it is a clear message and SIGABRT."""
    src = tmp_path / "unlock_not_held.c"
    src.write_text('#include "rip.h"\nstatic rip_mutex *m;\n'
                   "static void other(void *arg) { (void)arg; rip_mutex_unlock(m); }\n"
                   "static void task(void *arg) { (void)arg; rip_mutex_lock(m);"
                   " rip_spawn(other, 0); rip_sleep_ms(200); rip_mutex_unlock(m); }\n"
                   "int main(void) { m = rip_mutex_new(RIP_MUTEX_NORMAL);"
                   " return rip_run(task, 0); }\n")
    r = run([ripcc(str(src), backend)], timeout=20)
    assert r.returncode == -signal.SIGABRT, r.stderr.decode()
    assert r.stderr.decode().strip().splitlines()[-1] == \
        "rip: rip_mutex_unlock: the mutex is not held by the calling task"


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
    "rip_poll": "struct pollfd p = { 0, POLLIN, 0 }; rip_poll(&p, 1, -1);",
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


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_deadlock_is_reported_on_stderr_and_rip_run_returns_minus_one(ripcc, backend):
    """A task on a channel nobody sends to and one on a wait group that
    never finishes: rip_run says so, naming how many, and returns -1."""
    exe = ripcc(os.path.join(ROOT, "tests", "programs", "deadlock_reported.c"), backend)
    r = run([exe], timeout=20)
    assert r.returncode == 3, r.stderr.decode()
    assert re.search(r"^rip: deadlock: 2 tasks blocked forever$", r.stderr.decode(), re.M), \
        r.stderr.decode()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_deadlock_on_mutexes_and_a_condition_variable_is_reported(ripcc, backend):
    """Two tasks each hold a mutex and lock the other's, a third waits on
    a condition variable nobody signals, a fourth locks a mutex whose
    holder ended holding it: rip_run counts all four."""
    exe = ripcc(os.path.join(ROOT, "tests", "programs", "mutex_deadlock_reported.c"), backend)
    r = run([exe], timeout=20)
    assert r.returncode == 3, r.stderr.decode()
    assert "rip: deadlock: 4 tasks blocked forever" in r.stderr.decode().splitlines(), \
        r.stderr.decode()     # the dump of the blocked tasks follows


@pytest.mark.parametrize("backend", ("rip", "ucontext"))
def test_a_deadlock_behind_a_closed_fd_is_reported(ripcc, backend):
    """A task waits on an fd closed with close(2), the other on a wait
    group that never finishes: the fd wait fails (EBADF), the task then
    blocks for good too, and rip_run says so (before: a hang, no word)."""
    exe = ripcc(os.path.join(ROOT, "tests", "programs",
                             "deadlock_reported_when_the_last_wait_is_on_a_closed_fd.c"), backend)
    r = run([exe], timeout=20)
    assert r.returncode == 3, r.stderr.decode()
    assert "rip: deadlock: 2 tasks blocked forever" in r.stderr.decode().splitlines(), \
        r.stderr.decode()     # the dump of the blocked tasks follows


SPIKE = r"""/* A spike of 2,000 tasks, each holding 12 KiB from malloc while they all
 * live, one of them keeping a small block for good (it pins glibc's heap
 * above the freed ones).  Once they end and the loop idles, the freed
 * pages go back to the system: RSS returns near where it was (ucontext
 * also gives back the pages of all but 64 of the finished stacks it keeps
 * warm, some 6 MiB here). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "rip.h"

#define TASKS 2000
#define BYTES (12 * 1024)

static void *kept;

static long rss_kib(void) {
    long pages = 0, resident = 0;
    FILE *f = fopen("/proc/self/statm", "r");
    if (!f || fscanf(f, "%ld %ld", &pages, &resident) != 2)
        abort();
    fclose(f);
    return resident * (sysconf(_SC_PAGESIZE) / 1024);
}

static void holder(void *arg) {
    char *buf = malloc(BYTES);
    memset(buf, 1, BYTES);
    if ((long)arg == TASKS - 1)
        kept = malloc(64);
    rip_sleep_ms(50);
    free(buf);
}

static void first(void *arg) {
    (void)arg;
    long before = rss_kib();
    for (long i = 0; i < TASKS; i++)
        rip_spawn(holder, (void *)i);
    rip_sleep_ms(20);
    long peak = rss_kib();
    rip_sleep_ms(1300);             /* the loop gives memory back at most once a second */
    long after = rss_kib();
    printf("spike: %s\n", peak - before > 16 * 1024 ? "grew RSS by more than 16 MiB" : "too small");
    printf("after: %s\n", after - before < 4 * 1024 ? "back within 4 MiB" : "kept");
    free(kept);
}

int main(void) {
    return rip_run(first, NULL) == 0 ? 0 : 1;
}
"""


@pytest.mark.skipif(SAN, reason="AddressSanitizer has its own allocator and quarantine")
@pytest.mark.parametrize("backend", ["rip", "ucontext"])
def test_memory_a_spike_of_tasks_freed_goes_back_to_the_system(tmp_path, ripcc, backend):
    """2,000 tasks each hold 12 KiB of malloc at once, one keeps a small
    block above them for good: when they have ended and the loop idles,
    RSS comes back within 4 MiB of where it was (the loop calls
    malloc_trim, and ucontext gives back its warm stacks' pages past 64;
    before, a server's RSS stayed at its spike's peak)."""
    src = tmp_path / "spike.c"
    src.write_text(SPIKE)
    exe = ripcc(str(src), backend)
    r = run([exe], timeout=30)
    assert (r.returncode, r.stdout.decode()) == (
        0, "spike: grew RSS by more than 16 MiB\nafter: back within 4 MiB\n"), r.stderr.decode()

"""ripcc -fsanitize=...: the program links a runtime built with the same
sanitizers (runtime.py), without RIP_SAN=1.  The plain runtime does not
tell AddressSanitizer about its stack switches: a --posix program on
ucontext then prints "ASan is ignoring requested __asan_handle_no_return
... False positive error reports may follow", and nothing in the program
calls __sanitizer_start_switch_fiber."""
import os

import pytest

from conftest import RIPCC, ROOT, SWAPCONTEXT_NOTE, run
from ripper import runtime

PROGRAM = b"""#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "rip.h"

static rip_chan *ch;

static int deep(int n) {            /* frames on a task's stack across a switch */
    char buf[256];
    memset(buf, n, sizeof buf);
    if (n == 0) { rip_yield(); return buf[7]; }
    return deep(n - 1) + buf[3];
}

static void producer(void *arg) {
    (void)arg;
    for (int i = 1; i <= 50; i++) {
        deep(i % 8);
        rip_chan_send(ch, &i);
    }
    rip_chan_close(ch);
}

static void consumer(void *arg) {
    int v, sum = 0;
    char *heap = malloc(64);
    while (rip_chan_recv(ch, &v)) { heap[v % 64] = 1; sum += v + deep(v % 5); }
    free(heap);
    printf("%s: sum %d\\n", (const char *)arg, sum);
}

static void start(void *arg) {
    (void)arg;
    ch = rip_chan_new(sizeof(int), 0);
    rip_spawn(producer, 0);
    rip_spawn(consumer, "a");
    rip_spawn(consumer, "b");
}

int main(void) { int r = rip_run(start, 0); rip_chan_free(ch); return r; }
"""
PROGRAM_OUT = b"a: sum 725\nb: sum 750\n"

# A POSIX program: threads are tasks, one ends by pthread_exit deep in calls.
POSIX = os.path.join(ROOT, "tests", "posix", "pthread_exit_main.c")

# ASan's options as make SAN=1 sets them; reports to stderr (not conftest's files).
ENV = dict(os.environ, ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:"
           "detect_stack_use_after_return=1", UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1")
ENV.pop("RIP_SAN", None)           # the flags choose the runtime, also under make test SAN=1


def sanitizer_text(stderr):
    """What a sanitizer said on `stderr`, but the note every swapcontext
    prints under ASan."""
    lines = stderr.decode("utf-8", "replace").splitlines()
    return "\n".join(line for line in lines if SWAPCONTEXT_NOTE not in line and (
        "Sanitizer" in line or "ASan" in line or "runtime error" in line or
        "False positive" in line))


def build(tmp_path, source, backend, flags, posix=False):
    exe = str(tmp_path / ("%s-%s" % (os.path.basename(source)[:-2], backend)))
    r = run([RIPCC, "--backend=" + backend] + (["--posix"] if posix else []) +
            ["-g", "-O1"] + flags + [source, "-o", exe], env=ENV, timeout=600)
    assert r.returncode == 0, r.stderr.decode()
    return exe


def undefined_symbols(exe):
    r = run(["nm", "-u", exe])
    assert r.returncode == 0
    return r.stdout.decode()


def test_sanitizers_of_reads_the_flags_as_cc_does():
    assert runtime.sanitizers_of(["-O2", "-fsanitize=undefined,address"]) == \
        ("address", "undefined")
    assert runtime.sanitizers_of(["-fsanitize=address", "-fno-sanitize=address"]) == ()
    assert runtime.sanitizers_of(["-fsanitize=thread,signed-integer-overflow"]) == ("thread",)
    assert runtime.sanitizers_of(["-fsanitize=address", "-fno-sanitize=all"]) == ()
    assert runtime.sanitizers_of(["-fsanitize-recover=address", "-g"]) == ()


@pytest.fixture(scope="module")
def program(tmp_path_factory):
    path = tmp_path_factory.mktemp("san") / "chan.c"
    path.write_bytes(PROGRAM)
    return str(path)


@pytest.mark.parametrize("backend", ["rip", "ucontext"])
def test_a_sanitized_program_runs_clean(program, tmp_path, backend):
    exe = build(tmp_path, program, backend, ["-fsanitize=address,undefined"])
    r = run([exe], env=ENV, timeout=60)
    assert (r.returncode, r.stdout, sanitizer_text(r.stderr)) == (0, PROGRAM_OUT, "")


@pytest.mark.parametrize("backend", ["rip", "ucontext"])
def test_a_sanitized_posix_program_runs_clean(tmp_path, backend):
    exe = build(tmp_path, POSIX, backend, ["-fsanitize=address,undefined"], posix=True)
    plain = run(["cc", "-pthread", POSIX, "-o", str(tmp_path / "plain")])
    assert plain.returncode == 0, plain.stderr.decode()
    r = run([exe], env=ENV, timeout=60)
    assert sanitizer_text(r.stderr) == ""
    assert (r.returncode, r.stdout) == (lambda p: (p.returncode, p.stdout))(
        run([str(tmp_path / "plain")], timeout=60))


def test_a_sanitized_program_links_the_sanitized_runtime(program, tmp_path):
    """The sanitized runtime's own calls are in the program: the ucontext
    switches told to ASan, the rip frame pool's poisoning."""
    assert "__sanitizer_start_switch_fiber" in undefined_symbols(
        build(tmp_path, program, "ucontext", ["-fsanitize=address"]))
    assert "__asan_poison_memory_region" in undefined_symbols(
        build(tmp_path, program, "rip", ["-fsanitize=undefined", "-fsanitize=address"]))
    assert "__asan" not in undefined_symbols(
        build(tmp_path, program, "rip", ["-fsanitize=address", "-fno-sanitize=address"]))


def test_thread_sanitizer_on_threads_and_refused_on_ucontext(program, tmp_path):
    exe = build(tmp_path, program, "threads", ["-fsanitize=thread"])
    assert "__tsan" in undefined_symbols(exe)
    r = run([exe], env=ENV, timeout=60)
    assert (r.returncode, sanitizer_text(r.stderr)) == (0, "")
    # threads: the two consumers share the values in any way, but all of them
    assert sum(int(line.split()[-1]) for line in r.stdout.splitlines()) == 725 + 750
    r = run([RIPCC, "--backend=ucontext", "-fsanitize=thread", program,
             "-o", str(tmp_path / "no")], env=ENV)
    assert r.returncode == 1
    assert b"-fsanitize=thread: the ucontext runtime does not tell ThreadSanitizer" in r.stderr
    assert not os.path.exists(str(tmp_path / "no"))

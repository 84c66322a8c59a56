"""Injected faults: the Nth malloc, mmap, madvise, epoll, eventfd,
pthread_create, read or write of tests/faults/workload.c fails (tests/faults/inject.c, an
LD_PRELOAD shim), for every N the program reaches, on every backend.

Each failure must reach the program as a documented error (the call
returns NULL or -1 with errno, and the workload says which call failed and
exits 1) or end it with a clear fatal message ("rip: ...", SIGABRT): never
a crash, a hang, a lost wake-up (rip_run reporting a deadlock), output
that differs silently, or a leak (a run that ends normally leaves no more
heap blocks unfreed than a run without the fault; the shim counts them;
rip and ucontext only, see outcome()).
Short transfers and EINTR must not show at all.

    python tests/test_faults.py     prints the table of outcomes (the note's)
"""
import collections
import os
import re
import signal
import subprocess
import sys

import pytest
from test_httpd import docroot  # noqa: F401 (a fixture)

sys.path[:0] = [os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                os.path.dirname(os.path.abspath(__file__))]
from conftest import BACKENDS, CFLAGS, RIPCC, ROOT, SAN  # noqa: E402

FAULTS = os.path.join(ROOT, "tests", "faults")
# (call, how): how is the shim's HOW (None: its default errno).
POINTS = [("malloc", None), ("calloc", None), ("realloc", None), ("mmap", None),
          ("madvise", None), ("madvise", "EINVAL"), ("epoll_create1", "EMFILE"), ("epoll_ctl", "ENOMEM"), ("eventfd", "EMFILE"),
          ("pthread_create", None), ("read", "short"), ("read", "eintr"), ("read", "EIO"),
          ("write", "short"), ("write", "eintr"), ("recv", "short"), ("recv", "eintr"),
          ("send", "short"), ("send", "eintr"), ("send", "ENOBUFS")]
INVISIBLE = ("short", "eintr")      # the runtime retries: no trace may show
# (backend, call) that the workload never makes on that backend: its sweep
# injects nothing, so the case is skipped, not passed.  Any other case
# that injects nothing fails: the sweep would prove nothing.
NOT_CALLED = {("rip", "mmap"),                  # frames come from malloc'd slabs below 4 MiB
              ("rip", "madvise"),               # huge-page hints, past 4 MiB of slabs
              ("threads", "epoll_create1"), ("threads", "epoll_ctl"),
              ("threads", "eventfd"),           # threads wait in poll(2), one task a thread
              ("threads", "mmap"), ("threads", "madvise"), # thread stacks: libc's own calls
              ("threads", "realloc")}
MAX_N = 60                          # calls of one kind the sweep tries at most
EXPECTED = (b"channel of 0: sum 5050\nchannel of 4: sum 5050\nslept: 1\noffload: 144\n"
            b"pipe: intact\nsocket: intact\n")


def build(out_dir, backend):
    """(the shim, the workload built for backend)."""
    shim = os.path.join(out_dir, "libinject.so")
    if not os.path.exists(shim):
        subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", shim,
                        os.path.join(FAULTS, "inject.c"), "-ldl"], check=True)
    exe = os.path.join(out_dir, "workload-" + backend)
    if not os.path.exists(exe):
        subprocess.run([RIPCC, "--backend=" + backend] + CFLAGS +
                       [os.path.join(FAULTS, "workload.c"), "-o", exe], check=True)
    return shim, exe


LIVE = re.compile(r"^live: (-?\d+)$", re.M)
CLEAN_LIVE = {}                     # exe: heap blocks a run without faults leaves


def live_blocks(shim, exe, spec):
    """(completed process, its unfreed heap blocks at exit or None)."""
    env = dict(os.environ, LD_PRELOAD=shim, RIP_FAULT=spec)
    r = subprocess.run([exe], env=env, capture_output=True, timeout=20)
    m = LIVE.search(r.stderr.decode(errors="replace"))
    return r, int(m.group(1)) if m else None


def outcome(shim, exe, call, n, how):
    """What the program did with the Nth `call` failing: (verdict, detail),
    verdict 'unreached', 'ok', 'error', 'fatal' or 'BAD'."""
    if exe not in CLEAN_LIVE:
        CLEAN_LIVE[exe] = live_blocks(shim, exe, "")[1]
    spec = "%s:%d%s" % (call, n, ":" + how if how else "")
    try:
        r, live = live_blocks(shim, exe, spec)
    except subprocess.TimeoutExpired:
        return "BAD", "hangs"
    err = r.stderr.decode(errors="replace")
    if "fault: " not in err:
        return "unreached", ""
    # On threads a detached task thread may still be ending (and freeing)
    # when the process exits: its count varies by a block or so, run to run.
    if r.returncode in (0, 1) and not exe.endswith("-threads") and (
            live is None or live > CLEAN_LIVE[exe]):
        return "BAD", "leaves %s heap blocks unfreed, %s without the fault" % (
            live, CLEAN_LIVE[exe])
    rip_lines = [line for line in err.splitlines() if line.startswith("rip: ")]
    if r.returncode == 0:
        return ("ok", "") if r.stdout == EXPECTED else ("BAD", "exit 0, other output")
    if r.returncode == 1:
        failed = [line for line in r.stdout.decode().splitlines() if " failed: " in line]
        return ("error", failed[0]) if failed else ("BAD", "exit 1 without saying why")
    if r.returncode == -signal.SIGABRT and rip_lines:
        return "fatal", rip_lines[0]
    if r.returncode < 0:
        return "BAD", "killed by %s %s" % (signal.Signals(-r.returncode).name,
                                          rip_lines[:1] or err.strip().splitlines()[-1:])
    return "BAD", "exit %d %s" % (r.returncode, (rip_lines or err.strip().splitlines())[-1:])


def sweep(shim, exe, call, how):
    """{n: (verdict, detail)} for every N the program reaches."""
    results = {}
    for n in range(1, MAX_N + 1):
        verdict, detail = outcome(shim, exe, call, n, how)
        if verdict == "unreached":
            break
        results[n] = (verdict, detail)
    return results


@pytest.mark.skipif(SAN, reason="AddressSanitizer interposes malloc itself")
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("call,how", POINTS, ids=["%s-%s" % (c, h or "default") for c, h in POINTS])
def test_a_failing_call_is_an_error_or_a_clear_fatal_message(tmp_path_factory, backend, call, how):
    out = str(tmp_path_factory.getbasetemp() / "faults")
    os.makedirs(out, exist_ok=True)
    shim, exe = build(out, backend)
    results = sweep(shim, exe, call, how)
    if not results:
        assert (backend, call) in NOT_CALLED, "no %s of the workload on %s failed: the " \
            "sweep injected nothing" % (call, backend)
        pytest.skip("the workload makes no %s call on %s: nothing to inject" % (call, backend))
    bad = {n: d for n, (v, d) in results.items() if v == "BAD"}
    assert not bad, "%s failing (%s): %s" % (call, how or "default", bad)
    if how in INVISIBLE:
        assert all(v == "ok" for v, _ in results.values()), results


@pytest.mark.skipif(SAN, reason="AddressSanitizer interposes malloc itself")
def test_the_shim_reaches_the_runtime(tmp_path):
    """The sweep means something only if faults land: an epoll_ctl failing
    must reach the workload on rip as a failed fd call."""
    shim, exe = build(str(tmp_path), "rip")
    verdicts = sweep(shim, exe, "epoll_ctl", "ENOMEM")
    assert any(v == "error" and "rip_read failed" in d for v, d in verdicts.values()), verdicts


HTTPD = os.path.join(ROOT, "examples", "httpd.c")


@pytest.mark.skipif(SAN, reason="AddressSanitizer interposes malloc itself")
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("err", ["EMFILE", "ENFILE", "ENOMEM", "ECONNABORTED", "EPROTO"])
def test_httpd_rides_out_a_failing_accept(tmp_path, docroot, backend, err):  # noqa: F811
    """accept(2) failing once (out of fds, out of memory, a client that
    reset before it was accepted): the server neither dies nor stops
    accepting; the client whose accept failed is served once it is
    accepted, and so is the next."""
    from test_httpd import Server, get
    shim = os.path.join(str(tmp_path), "libinject.so")
    subprocess.run(["cc", "-shared", "-fPIC", "-O2", "-o", shim,
                    os.path.join(FAULTS, "inject.c"), "-ldl"], check=True)
    exe = str(tmp_path / ("httpd-" + backend))
    subprocess.run([RIPCC, "--backend=" + backend] + CFLAGS + [HTTPD, "-o", exe], check=True)
    os.environ["LD_PRELOAD"], os.environ["RIP_FAULT"] = shim, "accept:1:" + err
    try:
        srv = Server(exe, docroot)
    finally:
        del os.environ["LD_PRELOAD"], os.environ["RIP_FAULT"]
    try:
        for _ in range(2):
            assert get(srv, "/index.html")[0] == 200
        assert srv.proc.poll() is None
    finally:
        srv.stop()
    assert b"fault: accept 1" in srv.proc.stderr.read()


def table():
    """The outcomes of every fault point on every backend, as Markdown."""
    import tempfile
    out = tempfile.mkdtemp(prefix="rip-faults-")
    print("| fault | backend | calls | outcomes |")
    print("|---|---|---|---|")
    for call, how in POINTS:
        for backend in BACKENDS:
            shim, exe = build(out, backend)
            results = sweep(shim, exe, call, how)
            kinds = collections.Counter()
            for verdict, detail in results.values():
                kinds["%s%s" % (verdict, ": " + detail if detail else "")] += 1
            print("| %s %s | %s | %d | %s |" % (call, how or "", backend, len(results),
                                              "; ".join("%s (%d)" % kv for kv in sorted(kinds.items()))))


if __name__ == "__main__":
    table()

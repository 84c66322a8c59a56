"""Shared fixtures: build C programs with ripcc for each backend.

With RIP_SAN=1 (`make test SAN=1`) every program is built with AddressSanitizer
and UBSan; their reports go to files, and a test after which one appeared
fails with it (a server's report too, though its test only saw a closed
socket)."""
import atexit
import fcntl
import glob
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile

import pytest

from ripper.cli import sanitized

# A test run started where SIGINT is ignored (a background job of a
# non-interactive shell, as a CI runner may start it) passes that on: an
# ignored signal stays ignored across exec, and every program a test
# starts would ignore SIGINT, unlike one started from a terminal (the
# signal tests then wait in vain).  A handler instead: exec resets it to
# the default in each child.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)
RIPPER = os.path.join(BIN, "ripper")
RIPCC = os.path.join(BIN, "ripcc")
BACKENDS = ("rip", "ucontext", "threads")
CFLAGS = ["-std=gnu11", "-O2", "-g", "-Wall", "-Wextra", "-Werror"]
SAN = sanitized()
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER")    # "gw0", "gw1"... or None
SAN_LOGS = tempfile.mkdtemp(prefix="rip-san-") if SAN else None
if SAN:
    atexit.register(shutil.rmtree, SAN_LOGS, True)
    for var, defaults in (
            ("ASAN_OPTIONS", "detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1"),
            ("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1")):
        os.environ[var] = "%s:log_path=%s/report" % (os.environ.get(var, defaults), SAN_LOGS)


def run(cmd, **kw):
    kw.setdefault("capture_output", True)
    kw.setdefault("timeout", 120)
    return subprocess.run(cmd, **kw)


@pytest.fixture(scope="session")
def build_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("build")


@pytest.fixture(scope="session")
def shared_build_dir(tmp_path_factory):
    """Where the ripcc fixture builds: under pytest-xdist, one folder for
    every worker of the run, so that a program is built once, by the
    first worker to want it (each worker's prebuild asks for all its
    module's programs: a worker cannot know which tests it will get)."""
    if not XDIST_WORKER:
        return tmp_path_factory.mktemp("build")
    shared = tmp_path_factory.getbasetemp().parent / "build-shared"
    shared.mkdir(exist_ok=True)
    return shared


def prebuild(build, keys):
    """Run build(key) for every key in `keys`, os.cpu_count() at a time
    (each build is its own ripcc or cc process): a module's programs
    built side by side before its first test, instead of one by one.

        prebuild(lambda key: compile(*key), [(src, "rip"), (src, "threads")])
    """
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        list(pool.map(build, keys))


def selected_params(request, test_name):
    """The parameters (callspec.params) of each collected test named
    `test_name` that this run selected (-k, -x and the like respected):
    what a module's prebuild fixture builds."""
    return [item.callspec.params for item in request.session.items
            if getattr(item, "originalname", None) == test_name and hasattr(item, "callspec")]


@pytest.fixture(scope="session")
def ripcc(shared_build_dir):
    """ripcc(source, backend) -> path of the built program (fails the test
    with the compiler's messages if it does not build).
    ripcc.prebuild([(source, backend, extra)...]) builds them side by side
    first (conftest.prebuild); a failure is reported by the test asking
    for that program."""
    cache = {}                      # (source, backend, extra) -> path, or failure text

    def compile_one(key):
        source, backend, extra = key
        name = os.path.splitext(os.path.basename(source))[0]
        # a folder per build: two sources of one name, or one source with
        # other flags, never overwrite each other's program
        folder = os.path.join(str(shared_build_dir),
                              hashlib.sha1(repr(key).encode()).hexdigest()[:12])
        os.makedirs(folder, exist_ok=True)
        exe = os.path.join(folder, "%s-%s" % (name, backend))
        outcome = os.path.join(folder, "outcome")     # "" built, else why not
        with open(os.path.join(folder, "lock"), "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)        # another worker may be building it
            if not os.path.exists(outcome):
                r = run([RIPCC, "--backend=" + backend] + CFLAGS + list(extra) +
                        [source, "-o", exe])
                failure = "" if r.returncode == 0 else \
                    "ripcc --backend=%s %s failed:\n%s%s" % (
                        backend, source, r.stdout.decode(), r.stderr.decode())
                with open(outcome + ".new", "w") as f:
                    f.write(failure)
                os.replace(outcome + ".new", outcome)
            with open(outcome) as f:
                failure = f.read()
        return (None, failure) if failure else (exe, None)

    def build(source, backend, extra=()):
        key = (source, backend, tuple(extra))
        if key not in cache:
            exe, failure = compile_one(key)
            if failure:
                pytest.fail(failure)
            cache[key] = exe
        elif isinstance(cache[key], Failure):
            pytest.fail(cache[key].text)
        return cache[key]

    def prebuild_all(keys):
        todo = list(dict.fromkeys((s, b, tuple(e)) for s, b, e in keys if
                                  (s, b, tuple(e)) not in cache))
        if XDIST_WORKER and int(XDIST_WORKER.lstrip("gw") or 0) % 2:
            todo.reverse()          # two workers start at either end, and meet

        def one(key):
            exe, failure = compile_one(key)
            cache[key] = Failure(failure) if failure else exe
        prebuild(one, todo)
    build.prebuild = prebuild_all
    return build


# What rip's run-time catch (runtime/src/rip/catch.c) says once for each
# call that code ripper did not rip makes in a task.
CAUGHT = "rip: warning: '%s' was called in a task by code ripper did not rip"


def cc_library(tmp_path, library):
    """`library` (C text) built on its own with plain cc, so ripper never
    sees it: the path of its object.

        cc_library(tmp_path, "int f(void) { return 1; }") -> tmp_path / "lib.o"
    """
    lib = tmp_path / "lib.c"
    lib.write_text(library)
    obj = tmp_path / "lib.o"
    assert run(["cc", "-O2", "-c", str(lib), "-o", str(obj)]).returncode == 0
    return obj


def run_with_library(tmp_path, ripcc, backend, library, program, caught):
    """Build `library` (C text) with cc_library and `program` (C text)
    with ripcc --posix on `backend` linked with it; run it: it must exit
    0, and say CAUGHT once for each name in `caught` on rip, nothing on
    the other backends.  Its standard output.

        run_with_library(tmp_path, ripcc, "rip", LIB, MAIN, ("read",)) -> "tick 0\n..."
    """
    obj = cc_library(tmp_path, library)
    src = tmp_path / "uses_library.c"
    src.write_text(program)
    exe = ripcc(str(src), backend, extra=["--posix", str(obj)])
    r = run([exe], timeout=20)
    err = r.stderr.decode()
    assert r.returncode == 0, err
    if backend == "rip":
        for name in caught:
            assert err.count(CAUGHT % name) == 1, err
    else:
        assert err == ""
    return r.stdout.decode()


def ripped_as_plain(tmp_path, ripcc, source, backend, flags):
    """Build `source` (a path) with plain cc -pthread and with ripcc
    --posix on `backend`, both with `flags`: the ripped program must exit
    and print as the plain one does, with nothing on stderr.  Its path.

        ripped_as_plain(tmp_path, ripcc, "tests/posix/offload.c", "rip",
                        ["-D_FILE_OFFSET_BITS=64"]) -> ".../offload-rip"
    """
    plain = tmp_path / "plain"
    assert run(["cc", "-std=gnu11", "-O2", "-pthread"] + list(flags) + [source, "-o",
                str(plain)]).returncode == 0
    expected = run([str(plain)], timeout=60)
    exe = ripcc(source, backend, extra=["--posix"] + list(flags))
    r = run([exe], timeout=60)
    assert r.stderr == b"", r.stderr.decode()
    assert (r.returncode, r.stdout) == (expected.returncode, expected.stdout)
    return exe


class Failure:
    """A prebuilt program that did not build: its compiler's messages."""
    def __init__(self, text):
        self.text = text


# Printed once by every process that calls swapcontext (the ucontext backend),
# whether or not the switches are annotated for ASan (they are).
SWAPCONTEXT_NOTE = "WARNING: ASan doesn't fully support makecontext/swapcontext"


@pytest.fixture(autouse=True)
def no_sanitizer_reports():
    """Under RIP_SAN=1: fail the test after which a sanitizer report appeared."""
    yield
    if not SAN:
        return
    reports = sorted(glob.glob(os.path.join(SAN_LOGS, "report*")))
    text = ""
    for path in reports:
        with open(path, errors="replace") as f:
            report = "".join(line for line in f if SWAPCONTEXT_NOTE not in line)
        if report.strip():
            text += "%s:\n%s\n" % (path, report)
        os.rename(path, os.path.join(SAN_LOGS, "seen-" + os.path.basename(path)))
    if text:
        pytest.fail("sanitizer report:\n" + text[-20000:], pytrace=False)

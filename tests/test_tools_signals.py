"""ripper and ripcc told to end, or past their time limit: every child they
started ends with them (no preprocessor or cc left running), every
temporary file and folder goes, no traceback, and the command dies of the
signal (the shell says 128 + its number).  A FIFO or device the
preprocessor would read without end is an error that names it, at once.

The signals are real, sent mid-run: while the compiler (a real cc on a
generated file, or a stand-in that sleeps in a grandchild) runs under the
command, as found in /proc."""
import os
import resource
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from conftest import RIPCC, RIPPER, run

SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]
TASK = (b'#include "rip.h"\n'
        b"RIP_ASYNC void task(void *p) { (void)p; rip_yield(); }\n"
        b"int main(void) { return rip_run(task, 0); }\n")


def descendants(pid):
    """Every process below `pid` now (children of each of its threads)."""
    out, todo = [], [pid]
    while todo:
        p = todo.pop()
        try:
            tasks = os.listdir("/proc/%d/task" % p)
        except OSError:
            continue
        for t in tasks:
            try:
                with open("/proc/%d/task/%s/children" % (p, t)) as f:
                    kids = [int(c) for c in f.read().split()]
            except OSError:
                continue
            out += kids
            todo += kids
    return out


def command(pid):
    try:
        with open("/proc/%d/cmdline" % pid, "rb") as f:
            return f.read().replace(b"\0", b" ").decode("utf-8", "replace")
    except OSError:
        return ""


def alive(pid):
    """Is `pid` a live process (a zombie waiting for init is not)?"""
    try:
        with open("/proc/%d/stat" % pid, "rb") as f:
            return f.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def survivors(pids, seconds=3):
    """The processes of `pids` still alive after up to `seconds`."""
    deadline = time.monotonic() + seconds
    while True:
        left = [p for p in pids if alive(p)]
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.05)


def kill_leftovers(pids):
    for p in pids:
        if alive(p):
            try:
                os.kill(p, signal.SIGKILL)
            except OSError:
                pass


def run_until(argv, ready, env=None, cwd=None, seconds=60):
    """Start `argv`; once ready(its descendants' commands) is true, return
    (the process, every descendant seen so far)."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            cwd=cwd)
    seen = set()
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and proc.poll() is None:
        now = descendants(proc.pid)
        seen.update(now)
        if ready([command(p) for p in now]):
            return proc, seen
        time.sleep(0.01)
    out, err = proc.communicate()
    pytest.fail("never saw the child running (exit %s): %s" % (proc.returncode, err.decode()))


def slow_compiler(tmp_path):
    """A stand-in C compiler whose work is a grandchild sleeping (as cc's
    cc1 is its grandchild to ripper): RIPCC_CC for it, and the sleeper's
    pid file."""
    script = tmp_path / "slowcc.sh"
    script.write_text(textwrap.dedent("""\
        #!/bin/sh
        sleep 37 &
        echo $! > "$SLEEPER_PID"
        wait
        """))
    return "sh " + str(script), tmp_path / "sleeper.pid"


def ended_by(proc, sig):
    """Wait for `proc`; assert it died of `sig` without a traceback."""
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == -sig, (proc.returncode, err.decode())
    assert b"Traceback" not in err, err.decode()
    return err


def signal_leaves_nothing(proc, seen, sig, folders):
    """Send `sig` to proc: it dies of it, each folder of `folders`
    ({path: names expected there}) holds only those names, and nothing it
    started (`seen`) survives; whatever did is killed after."""
    try:
        proc.send_signal(sig)
        ended_by(proc, sig)
        for folder, names in folders.items():
            assert sorted(os.listdir(folder)) == names
        assert survivors(seen) == [], [command(p) for p in seen]
    finally:
        kill_leftovers(seen)


@pytest.mark.parametrize("sig", SIGNALS, ids=lambda s: s.name)
def test_a_signal_to_ripper_ends_its_preprocessor_and_leaves_nothing(tmp_path, sig):
    """The issue: SIGINT printed a KeyboardInterrupt traceback, and ripper
    died leaving the compiler it had started running."""
    work = tmp_path / "work"
    work.mkdir()
    (work / "s.c").write_bytes(TASK)
    cc, sleeper = slow_compiler(tmp_path)
    env = dict(os.environ, RIPCC_CC=cc, SLEEPER_PID=str(sleeper))
    proc, seen = run_until([RIPPER, "s.c", "-o", "out.c"], lambda cmds: sleeper.exists() and
                           any("sleep 37" in c for c in cmds), env=env, cwd=work)
    signal_leaves_nothing(proc, seen, sig, {work: ["s.c"]})


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_a_signal_to_ripper_ripping_a_large_file_ends_the_ripping_child(tmp_path, sig):
    """A generated file of 4,000 async functions, ripped with the real
    compiler: the signal comes while the ripping child works on it."""
    (tmp_path / "big.c").write_bytes(b'#include "rip.h"\n' + b"".join(
        b"RIP_ASYNC int f%d(int a) { int b = a * %d; rip_yield(); "
        b"if (b > 3) { rip_sleep_ms(1); b += a; } return b + a; }\n" % (i, i)
        for i in range(4000)))
    proc, seen = run_until([RIPPER, "big.c", "-o", "big.rip.c"],
                           lambda cmds: len(cmds) >= 1, cwd=tmp_path)
    time.sleep(0.2)                             # into preprocessing or parsing
    seen.update(descendants(proc.pid))
    signal_leaves_nothing(proc, seen, sig, {tmp_path: ["big.c"]})


@pytest.mark.parametrize("sig", SIGNALS, ids=lambda s: s.name)
def test_a_signal_to_ripcc_ends_cc_and_removes_its_folder(tmp_path, sig):
    """The issue: SIGTERM to ripcc left its `cc -c` child running, which
    then wrote its objects into a $TMPDIR/ripcc-* folder nobody removed."""
    work, tmp = tmp_path / "work", tmp_path / "tmp"
    work.mkdir()
    tmp.mkdir()
    (work / "gen.c").write_text("".join(
        "int f%d(int a) { int b = a * %d; for (int i = 0; i < a; i++) b += i * b ^ %d; "
        "return b + a; }\n" % (i, i, i) for i in range(1500)) + "int main(void) { return 0; }\n")
    env = dict(os.environ, TMPDIR=str(tmp))
    proc, seen = run_until([RIPCC, "--backend=ucontext", "-O2", "gen.c", "-o", "prog"],
                           lambda cmds: any("cc1" in c for c in cmds), env=env, cwd=work)
    signal_leaves_nothing(proc, seen, sig, {work: ["gen.c"], tmp: []})


def test_a_signal_to_ripcc_while_ripping_ends_the_ripping_child_and_its_preprocessor(tmp_path):
    work, tmp = tmp_path / "work", tmp_path / "tmp"
    work.mkdir()
    tmp.mkdir()
    (work / "s.c").write_bytes(TASK)
    cc, sleeper = slow_compiler(tmp_path)
    env = dict(os.environ, RIPCC_CC=cc, SLEEPER_PID=str(sleeper), TMPDIR=str(tmp))
    # the runtime library is built (cached) with the real cc first
    assert run([RIPCC, "--libs"]).returncode == 0
    proc, seen = run_until([RIPCC, "-c", "s.c"], lambda cmds: sleeper.exists() and
                           any("sleep 37" in c for c in cmds), env=env, cwd=work)
    signal_leaves_nothing(proc, seen, signal.SIGTERM, {work: ["s.c"], tmp: []})


def test_a_signal_while_ripper_writes_removes_the_partial_output(tmp_path):
    """The issue: SIGTERM while ripper wrote left an 18 MB partial
    .ripper-PID-* file beside the output.  Here the signal comes when the
    temporary file is written and not yet renamed into place."""
    (tmp_path / "s.c").write_bytes(TASK)
    (tmp_path / "out.c").write_bytes(b"/* the older output */\n")
    code = textwrap.dedent("""\
        import os, signal, sys
        from ripper import cli
        rename = os.replace
        def replace(a, b):
            assert os.path.basename(a).startswith(".ripper-"), a
            os.kill(os.getpid(), signal.SIGTERM)
            rename(a, b)
        os.replace = replace
        sys.argv = ["ripper", "s.c", "-o", "out.c"]
        cli.main_ripper()
        """)
    r = run([sys.executable, "-c", code], cwd=str(tmp_path))
    assert r.returncode == -signal.SIGTERM, r.stderr.decode()
    assert sorted(os.listdir(tmp_path)) == ["out.c", "s.c"]
    assert (tmp_path / "out.c").read_bytes() == b"/* the older output */\n"


def test_an_ignored_hangup_stays_ignored(tmp_path):
    """Under nohup (SIGHUP ignored) ripper does not take SIGHUP up again."""
    (tmp_path / "s.c").write_bytes(TASK)
    code = ("import signal, sys; from ripper import children; "
            "signal.signal(signal.SIGHUP, signal.SIG_IGN); children.install(); "
            "print(signal.getsignal(signal.SIGHUP) == signal.SIG_IGN, "
            "signal.getsignal(signal.SIGTERM) == children._on_signal)")
    assert run([sys.executable, "-c", code]).stdout == b"True True\n"


# -- the time limit -----------------------------------------------------------

def test_the_time_limit_ends_a_hung_preprocessor_and_all_it_started(tmp_path):
    """The preprocessor (here a stand-in that never ends) past --timeout:
    an error that says so, and no process of it left running."""
    (tmp_path / "s.c").write_bytes(TASK)
    cc, sleeper = slow_compiler(tmp_path)
    env = dict(os.environ, RIPCC_CC=cc, SLEEPER_PID=str(sleeper))
    started = time.monotonic()
    r = run([RIPPER, "--timeout=1", str(tmp_path / "s.c"), "-o", str(tmp_path / "out.c")],
            env=env, timeout=30)
    took = time.monotonic() - started
    err = r.stderr.decode()
    pid = int(sleeper.read_text())
    try:
        assert r.returncode == 1, err
        assert "error: the preprocessor ran for more than 1 s, the time limit" in err, err
        assert "--timeout=SECONDS or RIPPER_TIMEOUT" in err
        assert took < 10
        assert survivors([pid]) == []
        assert not (tmp_path / "out.c").exists()
    finally:
        kill_leftovers([pid])


def test_the_time_limit_is_settable_by_the_environment_and_names_libclang_on_a_parse_hang(
        tmp_path):
    """libclang never finishes `(::)` in a function: RIPPER_TIMEOUT=1
    gives up after a second, not after 60."""
    src = tmp_path / "hang.c"
    src.write_bytes(b"void f(void) { (:: ); }\n")
    started = time.monotonic()
    r = run([RIPPER, str(src), "-o", str(tmp_path / "out.c")],
            env=dict(os.environ, RIPPER_TIMEOUT="1"), timeout=30)
    assert r.returncode == 1
    assert "libclang did not finish parsing this file in 1 s, its time limit" in \
        r.stderr.decode(), r.stderr.decode()
    assert time.monotonic() - started < 10


@pytest.mark.parametrize("argv,env", [
    (["--timeout=soon"], {}),
    (["--timeout", "-3"], {}),
    ([], {"RIPPER_TIMEOUT": "x"}),
])
def test_a_time_limit_that_is_no_number_is_a_usage_error(tmp_path, argv, env):
    (tmp_path / "s.c").write_bytes(TASK)
    for cmd in ([RIPPER] + argv + [str(tmp_path / "s.c")],
                [RIPCC] + argv + ["-c", str(tmp_path / "s.c"), "-o", str(tmp_path / "s.o")]):
        r = run(cmd, env=dict(os.environ, **env))
        assert r.returncode == 2, (cmd, r.stderr.decode())
        assert "is not a number of seconds" in r.stderr.decode()


def test_the_time_limit_is_in_the_help():
    for cmd in ([RIPPER, "--help"], [RIPCC, "--help-ripcc"]):
        text = " ".join(run(cmd).stdout.decode().split())
        assert "--timeout" in text and "RIPPER_TIMEOUT" in text, cmd
        assert "60 s plus 1 s per 10 KB" in text, cmd


def test_ripcc_passes_its_time_limit_to_ripping(tmp_path):
    src = tmp_path / "hang.c"
    src.write_bytes(b"void f(void) { (:: ); }\n")
    started = time.monotonic()
    # (--all-async: a file that names nothing of rip.h is compiled, not ripped)
    r = run([RIPCC, "--all-async", "--timeout=1", "-c", str(src), "-o", str(tmp_path / "hang.o")],
            timeout=30)
    assert r.returncode == 1
    assert "in 1 s, its time limit" in r.stderr.decode(), r.stderr.decode()
    assert time.monotonic() - started < 10


# -- a FIFO or a device, read without end -------------------------------------

def fifo_include(tmp_path):
    fifo = tmp_path / "fifo.h"
    os.mkfifo(fifo)
    src = tmp_path / "s.c"
    src.write_bytes(b'#include "fifo.h"\n' + TASK)
    return src, fifo


def release(fifo):
    """Open the FIFO's writing end once: a preprocessor left waiting on it
    (before the fix) reads its end and goes."""
    try:
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    except OSError:
        pass


def limited_memory():
    """A child may not grow past 4 GB (a compiler reading /dev/zero would)."""
    resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))


@pytest.mark.parametrize("cmd", ["ripper", "ripcc"])
def test_an_include_of_a_fifo_is_an_error_at_once(tmp_path, cmd):
    """The issue: the preprocessor waited on the FIFO until ripper's time
    limit (60 s), and was left running after it."""
    src, fifo = fifo_include(tmp_path)
    argv = [RIPPER, str(src), "-o", str(tmp_path / "out.c")] if cmd == "ripper" else \
        [RIPCC, "-c", str(src), "-o", str(tmp_path / "s.o")]
    started = time.monotonic()
    try:
        r = run(argv, timeout=15)
    finally:
        release(fifo)
    err = r.stderr.decode()
    assert r.returncode == 1, err
    assert "s.c: error: cannot include '%s': it is a FIFO, not a file" % fifo in err, err
    assert time.monotonic() - started < 5
    assert sorted(os.listdir(tmp_path)) == ["fifo.h", "s.c"]


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_an_include_of_a_device_is_an_error_at_once(tmp_path, device):
    """The issue: a preprocessor reading /dev/urandom reached 16 GB,
    orphaned, after ripper gave up at its time limit."""
    src = tmp_path / "s.c"
    src.write_bytes(b'#include "%s"\n' % device.encode() + TASK)
    started = time.monotonic()
    r = run([RIPPER, str(src), "-o", str(tmp_path / "out.c")], timeout=15,
            preexec_fn=limited_memory)
    err = r.stderr.decode()
    assert r.returncode == 1, err
    assert "error: cannot include '%s': it is a character device, not a file" % device in err
    assert time.monotonic() - started < 5


def test_dev_null_is_still_a_file_to_include(tmp_path):
    src = tmp_path / "s.c"
    src.write_bytes(b'#include "/dev/null"\n' + TASK)
    r = run([RIPPER, str(src), "-o", str(tmp_path / "out.c")])
    assert r.returncode == 0, r.stderr.decode()


@pytest.mark.parametrize("cmd", ["ripper", "ripcc"])
def test_a_fifo_or_device_as_the_input_is_an_error_that_names_it(tmp_path, cmd):
    fifo = tmp_path / "in.c"
    os.mkfifo(fifo)
    for path, kind in ((str(fifo), "FIFO"), ("/dev/zero", "character device")):
        argv = [RIPPER, path, "-o", str(tmp_path / "out.c")] if cmd == "ripper" else \
            [RIPCC, "-x", "c", "-c", path, "-o", str(tmp_path / "out.o")]
        try:
            r = run(argv, timeout=15, preexec_fn=limited_memory)
        finally:
            release(fifo)
        err = r.stderr.decode()
        assert r.returncode == 1, (path, err)
        assert "%s: error: '%s' is a %s, not a file" % (cmd, path, kind) in err, err
    assert sorted(os.listdir(tmp_path)) == ["in.c"]


def test_the_shell_sees_128_plus_the_signal(tmp_path):
    """ripper dies of the signal, as a killed cc does: a shell's $? is
    143 after SIGTERM (and make and bash see a death by signal)."""
    (tmp_path / "s.c").write_bytes(TASK)
    cc, sleeper = slow_compiler(tmp_path)
    script = textwrap.dedent("""\
        "$RIPPER" s.c -o out.c 2>/dev/null &
        while [ ! -s "$SLEEPER_PID" ]; do sleep 0.01; done
        kill -TERM $!
        wait $!
        echo $?
        """)
    env = dict(os.environ, RIPCC_CC=cc, SLEEPER_PID=str(sleeper), RIPPER=RIPPER)
    r = run(["sh", "-c", script], env=env, cwd=str(tmp_path), timeout=60)
    try:
        assert r.stdout == b"143\n", r.stderr.decode()
    finally:
        if sleeper.exists() and sleeper.read_text().strip():
            kill_leftovers([int(sleeper.read_text())])


def test_a_diagnostic_is_not_taken_for_a_crash_when_the_child_is_slow_to_end(
        tmp_path, monkeypatch):
    """The ripping child's group is ended when it has sent its errors; it
    must have ended first, or SIGKILL would be its exit status and the
    error would read "libclang or ripper crashed (SIGKILL)".  Here the
    child takes 0.3 s to exit after sending."""
    from ripper import cli
    from ripper.diag import Diagnostic
    real_exit = os._exit

    def slow_exit(status):
        time.sleep(0.3)
        real_exit(status)
    monkeypatch.setattr(os, "_exit", slow_exit)
    with pytest.raises(Diagnostic) as e:     # C gcc takes (a GNU forward parameter), libclang not
        cli.rip_source_reporting(str(tmp_path / "bad.c"),
                                 b"int f(int n; int a[n], int n) { return n; }\n", [])
    assert "error: expected ')'" in e.value.format(), e.value.format()


def test_cc_reading_the_terminal_stays_in_its_foreground_group(tmp_path):
    """A child in a process group of its own that reads the terminal is
    stopped (SIGTTIN): cc compiling `-` typed at a terminal stays in
    ripcc's group, the terminal's foreground one."""
    import fcntl
    import pty
    import termios
    master, slave = pty.openpty()

    def own_terminal():             # a session whose terminal is the pty, in its foreground
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)
    proc = subprocess.Popen([RIPCC, "--backend=ucontext", "-c", "-x", "c", "-", "-o",
                             str(tmp_path / "m.o")], stdin=slave, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=own_terminal)
    os.close(slave)
    try:
        os.write(master, b"int main(void) { return 3; }\n\x04")
        out, err = proc.communicate(timeout=15)
    finally:
        if proc.poll() is None:             # stuck: ripcc ends cc and its folder
            seen = descendants(proc.pid)
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            kill_leftovers(seen)
        os.close(master)
    assert proc.returncode == 0, err.decode()
    assert run(["nm", str(tmp_path / "m.o")]).stdout.endswith(b" T main\n")

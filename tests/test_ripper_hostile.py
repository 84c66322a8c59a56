"""ripper on hostile input: exit 0 with output that compiles, or exit 1 with
a file:line:col diagnostic; never a traceback, a crash, a hang or a partial
output file.  A fixed batch of fuzz/ripper_hostile.py cases, and the bugs
it found, one test each (`make fuzz-ripper N=2000` runs more)."""
import os
import subprocess
import sys
import time

import pytest

from conftest import RIPPER, ROOT, run

sys.path.insert(0, os.path.join(ROOT, "fuzz"))
import ripper_hostile  # noqa: E402

from ripper import cli  # noqa: E402
from ripper.diag import Diagnostic  # noqa: E402

HEADER = b'#include "rip.h"\n'


def rip(tmp_path, source, before=None):
    """Run ripper on `source`; (exit status, stderr, out.c bytes or None)."""
    src, out = tmp_path / "in.c", tmp_path / "out.c"
    src.write_bytes(source)
    if before is not None:
        out.write_bytes(before)
    r = run([RIPPER, str(src), "-o", str(out)], timeout=300)
    assert "Traceback" not in r.stderr.decode(), r.stderr.decode()
    return r.returncode, r.stderr.decode(), out.read_bytes() if out.exists() else None


def compiles(path):
    r = run(["cc", "-fsyntax-only", "-std=gnu11", "-Wall", "-Wextra", "-Werror"] +
            ripper_hostile.RIPPED_INCLUDE + [str(path)])
    return r.returncode == 0, r.stderr.decode()


def test_deep_casts_rip(tmp_path):
    """1,500 nested casts overflowed libclang's own 8 MiB parsing thread
    (SIGSEGV): it now parses on ripper's thread, with a 512 MiB stack."""
    source = HEADER + (b"int deep(int a) { return " + b"(int)" * 1500 + b"a; }\n"
                       b"RIP_ASYNC void task(void *p) { (void)p; rip_yield(); }\n")
    status, err, out = rip(tmp_path, source)
    assert status == 0, err
    assert compiles(tmp_path / "out.c") == (True, "")


def test_crash_while_ripping_is_a_diagnostic(tmp_path, monkeypatch):
    """A crash in libclang (here: nesting too deep for a stack made small)
    is reported as an error on the file, not the death of ripper."""
    monkeypatch.setattr(cli, "STACK_BYTES", 256 << 10)
    source = HEADER + b"int deep(int a) { return " + b"(int)" * 5000 + b"a; }\n"
    with pytest.raises(Diagnostic) as e:
        cli.rip_source_reporting(str(tmp_path / "deep.c"), source, [])
    assert "crashed on this file (SIGSEGV)" in e.value.format()
    assert "nested too deep" in e.value.format()


@pytest.mark.parametrize("body", [
    b" else ".join(b"if (a == %d) rip_yield();" % i for i in range(2100)),
    b"if (a) " * 2100 + b"rip_yield();",
    b"a = " + b" + ".join([b"a"] * 10000) + b"; rip_yield();",
])
def test_nesting_beyond_the_limit_is_an_error(tmp_path, body):
    """Expressions nested 10,000 deep ended in a RecursionError ("internal
    error in ripper"), and some passes take time growing with the square of
    the depth (8,000 else-ifs: 20 s): past 2,000 levels it is an error at
    the place, and comes quickly."""
    source = HEADER + b"RIP_ASYNC void deep(int a) {\n    " + body + b"\n}\n"
    before = b"/* an older out.c */\n"
    status, err, out = rip(tmp_path, source, before)
    assert status == 1
    assert "in.c:3:" in err and "error: nested more than 2000 levels deep" in err, err
    assert out == before


def test_bom_and_crlf_lines(tmp_path, ripcc):
    """A UTF-8 byte order mark counts only at the very start of a file: it
    went after ripper's first lines, where cc took it for stray bytes."""
    source = (b"\xef\xbb\xbf/* a BOM and CRLF line ends */\n#include <stdio.h>\n#include <rip.h>\n"
              b"static void task(void *arg) {\n    (void)arg;\n    rip_yield();\n"
              b"    printf(\"ok\\n\");\n}\nint main(void) { return rip_run(task, NULL); }\n")
    path = tmp_path / "bom.c"
    path.write_bytes(source.replace(b"\n", b"\r\n"))
    assert run([ripcc(str(path), "rip")]).stdout == b"ok\n"


def test_libclang_hang_is_a_diagnostic(tmp_path, monkeypatch):
    """libclang 18 never finishes parsing `(::)` in a function body (a
    hang found by binary garbage): past its time the parse is abandoned
    and the file reported."""
    monkeypatch.setattr(cli, "PARSE_SECONDS", 2)
    with pytest.raises(Diagnostic) as e:
        cli.rip_source_reporting(str(tmp_path / "hang.c"), b"void f(void) { (:: ); }\n", [])
    assert "libclang did not finish parsing this file in 2 s" in e.value.format()


def test_killed_ripper_takes_its_parsing_child_with_it(tmp_path):
    """A build tool's timeout SIGKILLs ripper during a parse that hangs:
    the child that parses must not live on."""
    src = tmp_path / "hang.c"
    src.write_bytes(b"void f(void) { (:: ); }\n")
    proc = subprocess.Popen([RIPPER, str(src), "-o", str(tmp_path / "out.c")],
                            stderr=subprocess.DEVNULL)
    children = []
    for _ in range(100):
        with open("/proc/%d/task/%d/children" % (proc.pid, proc.pid)) as f:
            children = [int(c) for c in f.read().split()]
        if children:
            break
        time.sleep(0.05)
    assert children, "ripper started no child"
    proc.kill()
    proc.wait()
    for _ in range(100):
        if not os.path.exists("/proc/%d" % children[0]):
            break
        time.sleep(0.05)
    assert not os.path.exists("/proc/%d" % children[0]) or \
        open("/proc/%d/stat" % children[0]).read().rsplit(")", 1)[1].split()[0] == "Z"


def test_parse_alarm_is_off_after_the_parse(tmp_path):
    """The alarm covers the parse only: a process that goes on after a
    rip with a 1 s parse alarm is not killed a second later."""
    (tmp_path / "a.c").write_bytes(HEADER +
                                   b"RIP_ASYNC void t(void *p) { (void)p; rip_yield(); }\n")
    code = ("import time; from ripper.cli import rip_source; "
            "out = rip_source('a.c', open('a.c', 'rb').read(), [], parse_alarm=1); "
            "time.sleep(1.5); print(b'rip__resume_t' in out)")
    r = run([sys.executable, "-c", code], cwd=str(tmp_path))
    assert (r.returncode, r.stdout) == (0, b"True\n"), r.stderr.decode()


def test_a_fixed_batch_of_hostile_inputs(tmp_path):
    """Seed 1 of fuzz/ripper_hostile.py, 100 cases: each ripped (into output
    that compiles whenever the input does) or refused with a diagnostic."""
    results = ripper_hostile.run(seed=1, cases=100, jobs=2, keep=str(tmp_path), log=None)
    bugs = ["case %(index)d, %(mutation)s of %(seed_file)s: %(detail)s" % r
            for r in results if r["verdict"] == "BUG"]
    assert not bugs, "\n".join(bugs)
    assert {r["verdict"] for r in results} == {"ripped", "refused"}


def test_a_ripping_child_left_ending_is_reaped_before_the_next(tmp_path):
    """A child that has sent its ripped text is not waited for then (it is
    still unmapping libclang), but before the next child starts: rips in
    one process (ripcc's files) leave at most one child behind."""
    source = HEADER + b"RIP_ASYNC void task(void *p) { (void)p; rip_yield(); }\n"
    cli.reap_children()
    for _ in range(3):
        cli.rip_source_reporting(str(tmp_path / "a.c"), source, [])
        assert len(cli._exiting) == 1
    left = cli._exiting[0]
    cli.reap_children()
    assert not cli._exiting
    with pytest.raises(ChildProcessError):      # reaped: no zombie of it remains
        os.waitpid(left, os.WNOHANG)

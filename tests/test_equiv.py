"""ripcc --equiv: builds three ways, runs, compares, and says so."""
import re

from conftest import RIPCC, run

SAME = b"""#include <stdio.h>
#include <stdlib.h>
#include "rip.h"
static void task(void *arg) { rip_yield(); printf("%d\\n", *(int *)arg * 2); }
int main(int argc, char **argv) { int n = argc > 1 ? atoi(argv[1]) : 0; return rip_run(task, &n); }
"""

DIFFERENT = b"""#include <stdio.h>
#include "rip.h"
static void task(void *arg) {
    (void)arg;
    rip_yield();
#ifdef RIP_RIPPED
    printf("ripped\\n");
#else
    printf("stackful\\n");
#endif
}
int main(void) { return rip_run(task, NULL); }
"""


def equiv(tmp_path, source, *args):
    src = tmp_path / "p.c"
    src.write_bytes(source)
    return run([RIPCC, "--equiv", str(src), "--"] + list(args))


def test_equivalent_program_passes_with_a_verdict_table(tmp_path):
    r = equiv(tmp_path, SAME, "21")
    out = r.stdout.decode()
    assert r.returncode == 0, out + r.stderr.decode()
    assert "ucontext" in out and "threads" in out and "equivalent" in out


def test_program_arguments_reach_every_build(tmp_path):
    r = equiv(tmp_path, SAME, "21")
    out = r.stdout.decode()
    assert r.returncode == 0, out
    for backend in ("rip", "ucontext", "threads"):     # "42\n", not "0\n": the 21 arrived
        assert re.search(r"^%s\s+0\s+3\s" % backend, out, re.M), out
    src = tmp_path / "p.c"
    exe = tmp_path / "p"
    run([RIPCC, str(src), "-o", str(exe)])
    assert run([str(exe), "21"]).stdout == b"42\n"


def test_different_output_fails_and_says_which_backend(tmp_path):
    r = equiv(tmp_path, DIFFERENT)
    out = r.stdout.decode()
    assert r.returncode == 1
    assert "DIFFERENT output" in out and "NOT equivalent" in out


def test_equiv_refuses_an_output_name(tmp_path):
    src = tmp_path / "p.c"
    src.write_bytes(SAME)
    assert run([RIPCC, "--equiv", str(src), "-o", "x"]).returncode == 2

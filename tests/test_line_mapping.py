"""#line directives: compiler messages and gdb breakpoints in ripped code
name the user's file and line."""
import shutil

import pytest

from conftest import RIPCC, run

SOURCE = b"""#include <stdio.h>
#include "rip.h"

static void task(void *arg) {
    unsigned limit = 3;
    int total = 0;
    (void)arg;
    for (int i = 0; i < 5; i++) {
        rip_yield();
        total += i;
        if (total < limit)
            printf("small %d\\n", total);
    }
    printf("total %d\\n", total);
}

int main(void) { return rip_run(task, NULL); }
"""
WARNING_LINE = 11          # total < limit: signed/unsigned comparison
BREAK_LINE = 10            # total += i, right after a resume point


def test_compiler_warning_names_the_original_line(tmp_path):
    src = tmp_path / "mapped.c"
    src.write_bytes(SOURCE)
    r = run([RIPCC, "-Wall", "-Wextra", "-c", str(src), "-o", str(tmp_path / "m.o")])
    assert r.returncode == 0
    assert "%s:%d:" % (src, WARNING_LINE) in r.stderr.decode(), r.stderr.decode()


@pytest.mark.skipif(shutil.which("gdb") is None, reason="gdb is not installed")
def test_gdb_breakpoint_on_an_original_line_stops_there(tmp_path):
    src = tmp_path / "mapped.c"
    src.write_bytes(SOURCE)
    exe = str(tmp_path / "mapped")
    assert run([RIPCC, "-g", "-O0", str(src), "-o", exe]).returncode == 0
    r = run(["gdb", "-batch", "-nx", "-ex", "break mapped.c:%d" % BREAK_LINE, "-ex", "run",
             "-ex", "print rip__F->i", "-ex", "info line", exe])
    out = r.stdout.decode()
    assert "mapped.c:%d" % BREAK_LINE in out, out
    assert "$1 = 0" in out, out      # the frame's i, on the first stop

"""Ripped output compiles without warnings under clang too (when installed):
ripper preprocesses with the compiler that builds its output (RIPCC_CC).
A program that says `/* clang warns on the source too: ... */` is left
out: the promise is no warning where the plain build has none."""
import concurrent.futures
import os
import shutil

import pytest

from conftest import RIPPER, run
from test_programs import PROGRAMS, known_bug


@pytest.mark.skipif(shutil.which("clang") is None, reason="clang is not installed (make test-deps)")
def test_ripped_programs_compile_without_warnings_under_clang(tmp_path):
    def check(src):
        """A failure's text, or None."""
        out = str(tmp_path / os.path.basename(src))
        r = run([RIPPER, src, "-o", out], env=dict(os.environ, RIPCC_CC="clang"))
        if r.returncode:
            return "%s: ripper failed:\n%s" % (src, r.stderr.decode()[-1500:])
        r = run(["clang", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-c", out, "-o",
                 out + ".o"])
        return "%s:\n%s" % (src, r.stderr.decode()[-1500:]) if r.returncode else None

    sources = [p for p in PROGRAMS if not known_bug(p) and not clang_warns_on_source(p)]
    with concurrent.futures.ThreadPoolExecutor(max(2, os.cpu_count() or 1)) as pool:
        failures = [f for f in pool.map(check, sources) if f]
    assert not failures, "\n".join(failures)


def clang_warns_on_source(path):
    with open(path) as f:
        return "/* clang warns on the source too: " in f.read()

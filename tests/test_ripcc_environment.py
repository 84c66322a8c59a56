"""ripper and ripcc in a broken environment: each problem is one line,
`ripcc: error: ...` (or `ripper: error: ...`), naming what is missing and
how to get it, and exit status 1; never a traceback, never "a bug in
ripper".  (A per-user cache that cannot be written: tests/test_install.py,
where an installed ripcc uses one; a RIPCC_CC not found:
tests/test_ripcc_driver.py.)"""
import os

import pytest

from conftest import RIPCC, RIPPER, run

PLAIN = b"#include <stdio.h>\nint main(void) { puts(\"hi\"); return 0; }\n"
PROGRAM = b"""#include <stdio.h>
#include "rip.h"
static void task(void *arg) { (void)arg; rip_yield(); puts("hi"); }
int main(void) { return rip_run(task, 0); }
"""


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "hello.c"
    path.write_bytes(PROGRAM)
    return path


@pytest.fixture
def plain_source(tmp_path):
    path = tmp_path / "plain.c"
    path.write_bytes(PLAIN)
    return path


def without_clang_package(tmp_path):
    """An environment in which `import clang` fails, as after `pip install
    --no-deps stack-ripper`: a `clang` package first on PYTHONPATH that
    raises ImportError (the virtualenv itself is left as it is)."""
    shadow = tmp_path / "shadow" / "clang"
    shadow.mkdir(parents=True)
    (shadow / "__init__.py").write_text("raise ImportError(\"No module named 'clang'\")\n")
    path = [str(tmp_path / "shadow")] + [p for p in [os.environ.get("PYTHONPATH")] if p]
    return dict(os.environ, PYTHONPATH=os.pathsep.join(path))   # ahead of what is there


def one_error_line(stderr, tool):
    lines = stderr.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith(tool + ": error: "), lines
    return lines[0]


@pytest.mark.parametrize("tool", ["ripcc", "ripper"])
def test_a_missing_libclang_package_is_one_line_saying_how_to_install_it(tool, source,
                                                                         tmp_path):
    env = without_clang_package(tmp_path)
    cmd = [RIPCC, "-c", str(source), "-o", str(tmp_path / "hello.o")] if tool == "ripcc" \
        else [RIPPER, str(source), "-o", str(tmp_path / "out.c")]
    r = run(cmd, env=env, timeout=60)
    assert r.returncode == 1
    line = one_error_line(r.stderr, tool)
    assert "'clang'" in line and "pip install libclang" in line, line
    assert not os.path.exists(str(tmp_path / "hello.o"))


def test_a_libclang_shared_library_that_fails_to_load_is_one_line(source, tmp_path):
    # LIBCLANG_LIBRARY_PATH: where the libclang package's bindings look for
    # libclang.so; an empty folder is an install whose library is missing
    empty = tmp_path / "nolib"
    empty.mkdir()
    r = run([RIPCC, "-c", str(source), "-o", str(tmp_path / "hello.o")],
            env=dict(os.environ, LIBCLANG_LIBRARY_PATH=str(empty)), timeout=60)
    assert r.returncode == 1
    line = one_error_line(r.stderr, "ripcc")
    assert "libclang.so" in line and "pip install" in line, line
    assert "Config.set_library" not in line         # the bindings' advice to their callers


def test_without_libclang_a_ucontext_build_of_plain_c_still_builds(source, tmp_path):
    """libclang only checks ucontext builds (-Wblocking, in files that
    include rip.h): the compile itself is cc's."""
    r = run([RIPCC, "--backend=ucontext", str(source), "-o", str(tmp_path / "hello")],
            env=without_clang_package(tmp_path), timeout=60)
    assert r.returncode == 0, r.stderr.decode()
    assert run([str(tmp_path / "hello")]).stdout == b"hi\n"


@pytest.mark.parametrize("backend", ["rip", "ucontext"])
def test_without_libclang_a_file_that_uses_nothing_of_rip_h_still_builds(backend, plain_source,
                                                                        tmp_path):
    """A file that includes no rip.h has no async function: it is compiled
    as it is, never parsed (so libclang is not even loaded)."""
    r = run([RIPCC, "--backend=" + backend, str(plain_source), "-o", str(tmp_path / "plain")],
            env=without_clang_package(tmp_path), timeout=60)
    assert r.returncode == 0, r.stderr.decode()
    assert run([str(tmp_path / "plain")]).stdout == b"hi\n"

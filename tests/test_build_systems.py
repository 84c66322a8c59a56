"""ripcc as a build's C compiler: a small project's own Makefile and
CMakeLists.txt (tests/buildsys/), written for cc, built with CC=ripcc on
every backend, and rebuilt correctly after a header changes."""
import os
import shutil
import time

import pytest

from conftest import BACKENDS, RIPCC, ROOT, run

PROJECT = os.path.join(ROOT, "tests", "buildsys")
FIRST = b"sum 45, root 9.0\n"           # count_to(10) with STEP 1
SECOND = b"sum 20, root 9.0\n"          # with STEP 2


def copy_project(tmp_path, name):
    work = tmp_path / name
    shutil.copytree(PROJECT, str(work))
    return work


def change_header(header, *folders):
    """Write a new config.h, newer than every file under `folders` (the
    objects included) and nothing else moved: files outside the project,
    such as rip.h, keep their times, as they would between two builds."""
    header.write_text("#define STEP 2\n")
    newest = max(os.stat(os.path.join(top, name)).st_mtime
                 for folder in folders for top, _, files in os.walk(str(folder))
                 for name in files)
    when = max(time.time(), newest + 0.01)      # newer, and not in the future
    os.utime(str(header), (when, when))


def make(work, backend, *args):
    r = run(["make", "-C", str(work), "CC=%s --backend=%s" % (RIPCC, backend)] + list(args),
            timeout=600)
    assert r.returncode == 0, r.stdout.decode() + r.stderr.decode()
    return r.stdout.decode()


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_makefile_project_builds_with_ripcc_as_cc_and_rebuilds_after_a_header_changes(
        tmp_path, backend):
    work = copy_project(tmp_path, backend)
    make(work, backend)
    assert run([str(work / "prog")]).stdout == FIRST
    change_header(work / "config.h", work)
    log = make(work, backend)
    assert "counter.c" in log and "main.c" not in log and "extra.c" not in log, log
    assert run([str(work / "prog")]).stdout == SECOND
    q = run(["make", "-q", "-C", str(work), "CC=%s --backend=%s" % (RIPCC, backend)])
    assert q.returncode == 0, "make still had work to do"


@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed "
                    "(make test-deps installs it)")
@pytest.mark.parametrize("backend", ["rip", "ucontext"])
def test_a_cmake_project_builds_with_ripcc_as_the_c_compiler(tmp_path, backend):
    source = copy_project(tmp_path, "source")
    build = tmp_path / "build"
    r = run(["cmake", "-G", "Unix Makefiles", "-S", str(source), "-B", str(build),
             "-DCMAKE_C_COMPILER=" + RIPCC, "-DCMAKE_C_FLAGS=--backend=" + backend],
            timeout=600)
    assert r.returncode == 0, r.stdout.decode() + r.stderr.decode()
    r = run(["cmake", "--build", str(build)], timeout=600)
    assert r.returncode == 0, r.stdout.decode() + r.stderr.decode()
    assert run([str(build / "prog")]).stdout == FIRST
    change_header(source / "config.h", source, build)
    r = run(["cmake", "--build", str(build)], timeout=600)
    assert r.returncode == 0, r.stdout.decode() + r.stderr.decode()
    assert run([str(build / "prog")]).stdout == SECOND

"""A real project nobody here wrote, built unchanged with ripcc as its C
compiler: the zlib that Debian's gcc-12-source carries, by its own
CMakeLists.txt (static and shared libraries, test programs), and its own
tests run with ctest.  On the rip backend with --all-async every function
of it is ripped, so its tests exercise ripped code throughout."""
import os
import re
import shutil
import sys

import pytest

from conftest import RIPCC, ROOT, SAN, run

sys.path.insert(0, os.path.join(ROOT, "fuzz"))
from torture import zlib_folder  # noqa: E402

pytestmark = [
    pytest.mark.skipif(SAN, reason="a third-party build, once, without sanitizers"),
    pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed "
                       "(make test-deps installs it)"),
]


@pytest.fixture(scope="module")
def zlib():
    folder = zlib_folder()
    if folder is None:
        pytest.skip("gcc-12-source is not installed (make test-deps installs it)")
    return folder


@pytest.mark.parametrize("flags", ["--backend=ucontext", "--backend=rip --all-async"])
def test_zlib_builds_with_its_own_cmake_and_passes_its_own_tests(zlib, tmp_path, flags):
    build = tmp_path / "build"
    r = run(["cmake", "-S", zlib, "-B", str(build), "-DCMAKE_C_COMPILER=" + RIPCC,
             "-DCMAKE_C_FLAGS=" + flags], timeout=600)
    assert r.returncode == 0, r.stdout.decode()[-3000:] + r.stderr.decode()[-3000:]
    r = run(["cmake", "--build", str(build), "-j", "2"], timeout=1200)
    assert r.returncode == 0, r.stdout.decode()[-3000:] + r.stderr.decode()[-3000:]
    if "--all-async" in flags:
        counts = [(int(a), int(b)) for a, b in re.findall(
            r"--all-async: (\d+) of (\d+) functions ripped", r.stderr.decode())]
        assert sum(a for a, _ in counts) >= 150, counts    # zlib's ~170, a few left plain
    r = run(["ctest", "--output-on-failure"], cwd=str(build), timeout=600)
    assert r.returncode == 0, r.stdout.decode()[-3000:] + r.stderr.decode()[-3000:]
    assert b"100% tests passed" in r.stdout

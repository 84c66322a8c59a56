"""A real project nobody here wrote, built unchanged with ripcc as its C
compiler: the zlib that Debian's gcc-12-source carries, by its own
CMakeLists.txt (static and shared libraries, test programs) with its own
tests run by ctest, and by gcc's autoconf configure and automake Makefile
(CC=ripcc ./configure && make).  On the rip backend with --all-async every
function of it is ripped, so its tests exercise ripped code throughout."""
import glob
import os
import shutil
import sys

import pytest

from conftest import RIPCC, ROOT, SAN, run
from ripper import abi

sys.path.insert(0, os.path.join(ROOT, "fuzz"))
from torture import gcc_zlib_tree, zlib_folder  # noqa: E402

pytestmark = [
    pytest.mark.skipif(SAN, reason="a third-party build, once, without sanitizers"),
    pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed "
                       "(make test-deps installs it)"),
]


def ripped_functions(objects):
    """The names of the functions ripped in `objects`: each defines its
    frame's constructor (abi.CONSTRUCTOR + name)."""
    out = run(["nm", "--defined-only"] + objects).stdout.decode()
    return {abi.constructed(w) for w in out.split() if abi.constructed(w)}


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
    if "--all-async" in flags:      # (its report is -v's: the objects say what was ripped)
        ripped = ripped_functions(glob.glob(str(build / "**" / "*.o"), recursive=True))
        assert len(ripped) >= 150, sorted(ripped)   # zlib's ~170, a few left plain
    r = run(["ctest", "--output-on-failure"], cwd=str(build), timeout=600)
    assert r.returncode == 0, r.stdout.decode()[-3000:] + r.stderr.decode()[-3000:]
    assert b"100% tests passed" in r.stdout


@pytest.mark.parametrize("flags", ["--backend=ucontext", "--backend=rip --all-async"])
def test_zlib_builds_with_gccs_autoconf_configure_and_make(tmp_path, flags):
    tree = gcc_zlib_tree()
    if tree is None:
        pytest.skip("gcc-12-source is not installed (make test-deps installs it)")
    build = tmp_path / "build"
    build.mkdir()
    cc = "%s %s" % (RIPCC, flags)
    r = run([os.path.join(tree, "zlib", "configure")], cwd=str(build),
            env=dict(os.environ, CC=cc), timeout=600)
    assert r.returncode == 0, r.stdout.decode()[-3000:] + r.stderr.decode()[-3000:]
    assert "checking whether the C compiler works... yes" in r.stdout.decode()
    r = run(["make", "-j2"], cwd=str(build), timeout=1200)
    assert r.returncode == 0, r.stdout.decode()[-3000:] + r.stderr.decode()[-3000:]
    example = str(tmp_path / "example")
    r = run(cc.split() + ["-I", os.path.join(tree, "zlib"),
                          os.path.join(tree, "zlib", "test", "example.c"),
                          str(build / "libz.a"), "-o", example], timeout=600)
    assert r.returncode == 0, r.stderr.decode()[-3000:]
    r = run([example, str(tmp_path / "foo.gz")], cwd=str(tmp_path))
    assert r.returncode == 0, r.stdout.decode() + r.stderr.decode()
    assert b"inflate with dictionary: hello, hello!" in r.stdout

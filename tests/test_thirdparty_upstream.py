"""Two libraries from outside, built UNCHANGED by their own build systems
with `CC=ripcc` (rip, the default), `CC="ripcc --backend=ucontext"` and
`CC="ripcc --all-async"`, and with plain `cc` as the reference; their own
test suites must pass and say what the plain build's say.

- zlib 1.2.13: `./configure && make && make test` (make test runs the
  example and minigzip programs linked statically, against libz.so, and
  the 64-bit-offset ones: "*** zlib test OK ***" and the shared and
  64-bit lines).
- cJSON 1.7.15: CMake with its own default flags (-std=c89 -pedantic
  -Werror -Wall -Wextra ... -Wconversion), `cmake --build`, `ctest`.

With --all-async every function is ripped, so a wrong-code bug in ripper
shows as a failing upstream test. The tarballs are Debian's bookworm ones
(pinned URL and sha256, tests/downloads.py); without a network the tests
skip. `make test-thirdparty` runs this file; `make test` leaves it out
(minutes: every configure check and compile goes through ripcc)."""
import os
import re
import shutil
import subprocess

import pytest

from conftest import RIPCC, SAN
from downloads import download, unpack

pytestmark = pytest.mark.skipif(SAN, reason="outside programs: built once, without sanitizers")

# name -> (pinned URL, its sha256, the folder the tarball unpacks to)
TARBALLS = {
    "zlib": (
        "https://deb.debian.org/debian/pool/main/z/zlib/zlib_1.2.13.dfsg.orig.tar.bz2",
        "71feb7947e3c00ef125f83b79a4e529bde31171e5babe48b391f06758d1ab0a1",
        "zlib-1.2.13.dfsg"),
    "cjson": (
        "https://deb.debian.org/debian/pool/main/c/cjson/cjson_1.7.15.orig.tar.gz",
        "5308fd4bd90cef7aa060558514de6a1a4a0819974a26e6ed13973c5f624c24b2",
        "cJSON-1.7.15"),
}
# build -> the CC a user would give the library's build system
COMPILERS = {
    "plain": "cc",
    "rip": RIPCC,
    "ucontext": RIPCC + " --backend=ucontext",
    "all-async": RIPCC + " --all-async",
}
BUILDS = tuple(COMPILERS)
STEP_TIMEOUT = 900                    # seconds for one configure, make or test run

def clean_env(cc):
    """The environment of a build: CC set, no flags inherited from outside."""
    env = dict(os.environ, CC=cc)
    for name in ("CFLAGS", "CPPFLAGS", "LDFLAGS", "MAKEFLAGS", "RIPCC_CC"):
        env.pop(name, None)
    return env


def steps(cmds, cwd, env):
    """Run each command of `cmds` in turn in `cwd`: -> (the last command's
    stdout, None), or (None, the log of the one that failed)."""
    out = None
    for cmd in cmds:
        r = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, timeout=STEP_TIMEOUT)
        out = r.stdout.decode(errors="replace")
        if r.returncode != 0:
            return None, "$ %s (exit %d)\n%s%s" % (" ".join(cmd), r.returncode, out[-4000:],
                                                   r.stderr.decode(errors="replace")[-6000:])
    return out, None


def unpacked(name, tmp_path):
    """Unpack `name`'s tarball into tmp_path -> the source folder."""
    url, sha, folder = TARBALLS[name]
    unpack(download(name, url, sha), str(tmp_path))
    return os.path.join(str(tmp_path), folder)


def symbols(path):
    """Every symbol `nm` lists in `path`, local ones too (a set of names)."""
    r = subprocess.run(["nm", path], capture_output=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return {line.split()[-1] for line in r.stdout.decode().splitlines() if line.strip()}


@pytest.fixture(scope="module")
def plain_outputs():
    """{name: what the plain build's test suite printed (normalized)},
    filled by the plain test and compared with by the others."""
    return {}


def same_as_plain(plain_outputs, name, build, output):
    """Record the plain build's output, or check `output` against it."""
    if build == "plain":
        plain_outputs[name] = output
    elif name in plain_outputs:
        assert output == plain_outputs[name], "%s-%s's tests printed:\n%s\nthe plain build's:\n%s" % (
            name, build, output, plain_outputs[name])


ZLIB_OK = ("*** zlib test OK ***", "*** zlib shared test OK ***", "*** zlib 64-bit test OK ***")


@pytest.mark.parametrize("build", BUILDS)
def test_zlib_configure_make_make_test(tmp_path, plain_outputs, build):
    src = unpacked("zlib", tmp_path)
    out, log = steps([["./configure"], ["make", "-j2"], ["make", "test"]],
                     src, clean_env(COMPILERS[build]))
    assert log is None, "zlib does not build or pass its tests with CC=%s:\n%s" % (
        COMPILERS[build], log)
    for line in ZLIB_OK:                # static, shared (libz.so, -fPIC) and 64-bit
        assert line in out, out
    assert os.path.exists(os.path.join(src, "libz.so.1.2.13"))
    # make's echo of the commands names the compiler: keep the programs' lines
    printed = [line for line in out.splitlines() if not re.match(r"\S*(cc|ripcc)\b|make", line)]
    same_as_plain(plain_outputs, "zlib", build, printed)
    if build == "all-async":            # every function ripped, in both libraries
        for lib in ("libz.a", "libz.so.1.2.13"):
            assert "rip__resume_deflate" in symbols(os.path.join(src, lib)), lib
    if build == "all-async":            # rip's runtime is linked: main is a task
        assert "rip_run" in symbols(os.path.join(src, "example"))
    if build == "rip":                  # zlib names nothing of rip.h: compiled as it is,
        # nothing ripped, no runtime linked (as on ucontext, where the program calls none)
        assert not any(s.startswith("rip__") for s in symbols(os.path.join(src, "libz.a")))


@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed "
                    "(make test-deps installs it)")
@pytest.mark.parametrize("build", BUILDS)
def test_cjson_cmake_build_with_its_own_flags_and_ctest(tmp_path, plain_outputs, build):
    src = unpacked("cjson", tmp_path)
    out, log = steps([["cmake", "-G", "Unix Makefiles", "-S", ".", "-B", "build"],
                      ["cmake", "--build", "build", "-j2"],
                      ["ctest", "--test-dir", "build", "-j2", "--output-on-failure"]],
                     src, clean_env(COMPILERS[build]))
    assert log is None, "cJSON does not build or pass its tests with CC=%s:\n%s" % (
        COMPILERS[build], log)
    with open(os.path.join(src, "build", "CMakeFiles", "cjson.dir", "flags.make")) as f:
        flags = f.read()
    assert "-std=c89" in flags and "-Werror" in flags, "cJSON's own flags were not used"
    passed = sorted(re.findall(r"Test +#\d+: (\S+) \.+ +Passed", out))
    assert re.search(r"100%% tests passed, 0 tests failed out of %d\b" % len(passed), out), out
    assert len(passed) >= 19, out       # 19 in cJSON 1.7.15
    same_as_plain(plain_outputs, "cjson", build, passed)
    library = os.path.join(src, "build", "libcjson.so.1.7.15")
    if build == "all-async":
        assert "rip__resume_cJSON_Parse" in symbols(library)

"""Installed as a user installs it: a wheel built from this clone, put into
a fresh virtualenv outside the repository, used from an unrelated folder;
and the runtime alone, by `make install`, for pkg-config and CMake; the
manual pages by both.

The wheel is built and installed without the network: libclang (the one
dependency, from PyPI) is linked in from this checkout's virtualenv."""
import glob
import os
import shutil
import subprocess
import sys
import zipfile

import pytest

from conftest import BACKENDS, RIPCC, ROOT, SAN, run

pytestmark = pytest.mark.skipif(SAN, reason="packaging, not the runtime: once, without "
                                "sanitizers")

PROGRAM = b"""#include <stdio.h>
#include "rip.h"

static rip_chan *ch;

static void producer(void *arg) {
    (void)arg;
    for (int i = 1; i <= 3; i++)
        rip_chan_send(ch, &i);
    rip_chan_close(ch);
}

static void consumer(void *arg) {
    int v, sum = 0;
    while (rip_chan_recv(ch, &v))
        sum += v;
    printf("%s: sum %d\\n", (const char *)arg, sum);
}

static void start(void *arg) {
    (void)arg;
    ch = rip_chan_new(sizeof(int), 0);
    rip_spawn(producer, 0);
    rip_spawn(consumer, "consumer");
}

int main(void) { return rip_run(start, 0); }
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    out = tmp_path_factory.mktemp("wheel")
    r = run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "-o", str(out), ROOT],
            timeout=600)
    assert r.returncode == 0, r.stdout.decode()[-3000:] + r.stderr.decode()[-3000:]
    found = glob.glob(str(out / "*.whl"))
    assert len(found) == 1
    return found[0]


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory):
    """(bin folder of a fresh virtualenv with the wheel installed, an
    environment whose per-user cache is new)."""
    top = tmp_path_factory.mktemp("installed")
    venv = top / "venv"
    # not the tree's ripper (PYTHONPATH, as fuzz/mutate.py sets it): pip
    # would take the egg-info the build left there for an installed copy
    outside = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    assert run([sys.executable, "-m", "venv", str(venv)], timeout=300,
               env=outside).returncode == 0
    pip = run([str(venv / "bin" / "pip"), "install", "-q", "--no-deps", "--no-index", wheel],
              timeout=300, env=outside)
    assert pip.returncode == 0, pip.stderr.decode()
    site = subprocess.check_output([str(venv / "bin" / "python"), "-c",
                                    "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                   text=True, env=outside).strip()
    import clang
    os.symlink(os.path.dirname(clang.__file__), os.path.join(site, "clang"))
    env = dict(outside, XDG_CACHE_HOME=str(top / "cache"))
    env.pop("RIP_SAN", None)
    return venv / "bin", env, top


def test_the_wheel_carries_the_runtime_sources_and_nothing_built(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert "ripper/runtime/include/rip.h" in names
    assert "ripper/runtime/src/rip/rip_frame.h" in names
    assert any(n.startswith("ripper/runtime/src/core/") for n in names)
    assert not [n for n in names if n.endswith((".a", ".o")) or n == "cflags"], names
    assert any(".dist-info/" in n and n.endswith("/LICENSE") for n in names)   # licenses/ since PEP 639
    assert all(n.startswith(("ripper/", "stack_ripper-")) for n in names), names


MAN_PAGES = ("ripper.1", "ripcc.1")


def test_the_wheel_carries_the_man_pages_as_data(wheel):
    """In the wheel's data, under share/man/man1: pip puts them in the
    prefix (the virtualenv) it installs the commands into."""
    from ripper import __version__
    wheel_file = zipfile.ZipFile(wheel)
    for page in MAN_PAGES:
        name = "stack_ripper-%s.data/data/share/man/man1/%s" % (__version__, page)
        assert name in wheel_file.namelist()
        assert wheel_file.read(name) == open(os.path.join(ROOT, "man", page), "rb").read()


def test_man_finds_the_pages_of_an_installed_wheel(installed):
    """man looks beside each folder of PATH (bin -> ../share/man): the
    virtualenv's bin first on PATH is all it takes."""
    bin_dir, env, top = installed
    for page in MAN_PAGES:
        assert (bin_dir.parent / "share" / "man" / "man1" / page).is_file()
    if shutil.which("man") is None:
        pytest.skip("man is not installed")
    env = {k: v for k, v in env.items() if k != "MANPATH"}
    env["PATH"] = "%s:/usr/bin:/bin" % bin_dir
    r = run(["man", "-w", "ripper", "ripcc"], env=env)
    assert r.returncode == 0, r.stderr.decode()
    assert r.stdout.decode().split() == [str(bin_dir.parent / "share" / "man" / "man1" / p)
                                         for p in MAN_PAGES]


def test_an_installed_ripcc_builds_and_runs_a_program_on_every_backend(installed):
    bin_dir, env, top = installed
    work = top / "elsewhere"
    work.mkdir()
    (work / "hello.c").write_bytes(PROGRAM)
    outputs = {}
    for backend in BACKENDS:
        r = run([str(bin_dir / "ripcc"), "--backend=" + backend, "-Wall", "-Wextra", "-Werror",
                 "hello.c", "-o", "hello-" + backend], cwd=str(work), env=env, timeout=600)
        assert r.returncode == 0, r.stderr.decode()
        outputs[backend] = run([str(work / ("hello-" + backend))]).stdout
    assert outputs == {b: b"consumer: sum 6\n" for b in BACKENDS}
    libraries = glob.glob(str(top / "cache" / "ripper" / "*" / "librip-*.a"))
    assert sorted(os.path.basename(p) for p in libraries) == \
        ["librip-%s.a" % b for b in sorted(BACKENDS)]


def test_an_installed_ripcc_builds_the_runtime_once(installed):
    bin_dir, env, top = installed
    work = top / "again"
    work.mkdir()
    (work / "hello.c").write_bytes(PROGRAM)
    assert run([str(bin_dir / "ripcc"), "hello.c", "-o", "first"], cwd=str(work), env=env,
               timeout=600).returncode == 0
    library = glob.glob(str(top / "cache" / "ripper" / "*" / "librip-rip.a"))[0]
    built = os.stat(library).st_mtime_ns
    assert run([str(bin_dir / "ripcc"), "hello.c", "-o", "second"], cwd=str(work),
               env=env).returncode == 0
    assert os.stat(library).st_mtime_ns == built


def test_an_installed_ripcc_builds_a_sanitized_runtime_for_fsanitize(installed):
    """-fsanitize=address links a runtime built with ASan (its own cache
    entry beside the plain one): the ucontext switches are told to ASan."""
    bin_dir, env, top = installed
    work = top / "sanitized"
    work.mkdir()
    (work / "hello.c").write_bytes(PROGRAM)
    r = run([str(bin_dir / "ripcc"), "--backend=ucontext", "-fsanitize=address", "hello.c",
             "-o", "hello"], cwd=str(work), env=env, timeout=600)
    assert r.returncode == 0, r.stderr.decode()
    nm = run(["nm", "-u", str(work / "hello")])
    assert b"__sanitizer_start_switch_fiber" in nm.stdout
    out = run([str(work / "hello")], env=dict(env, ASAN_OPTIONS="detect_leaks=1"))
    assert (out.returncode, out.stdout) == (0, b"consumer: sum 6\n")
    assert b"False positive" not in out.stderr and b"ERROR" not in out.stderr


def test_an_installed_ripper_rips_from_any_folder(installed):
    bin_dir, env, top = installed
    work = top / "rip"
    work.mkdir()
    (work / "hello.c").write_bytes(PROGRAM)
    r = run([str(bin_dir / "ripper"), "hello.c", "-o", "hello.rip.c"], cwd=str(work), env=env)
    assert r.returncode == 0, r.stderr.decode()
    assert b"rip__F" in (work / "hello.rip.c").read_bytes()
    assert str(ROOT).encode() not in (work / "hello.rip.c").read_bytes()


def _noting_python(work, env):
    """(`env` in which any Python started writes a file, that file): a
    sitecustomize in folder `work` runs at every interpreter's start."""
    (work / "site").mkdir(parents=True)
    marker = work / "python-started"
    (work / "site" / "sitecustomize.py").write_text("open(%r, 'a').write('x')\n" % str(marker))
    env = dict(env, PYTHONPATH=str(work / "site"))
    env.pop("RIPCC_NATIVE", None)       # (make mutate sets it for the clone's ripcc)
    return env, marker


def test_an_installed_ripcc_compiles_a_file_without_async_functions_without_python(installed):
    """The wheel's ripcc is the native front (launcher/ripcc.c), which finds
    the runtime the wheel installed beside it: a plain -c starts no
    Python, a file with rip.h goes to ripcc-py and is ripped."""
    bin_dir, env, top = installed
    with open(str(bin_dir / "ripcc"), "rb") as f:
        assert f.read(4) == b"\x7fELF"
    work = top / "native"
    env, marker = _noting_python(work, env)
    (work / "plain.c").write_text("#include <stdio.h>\nvoid hi(void) { puts(\"hi\"); }\n")
    (work / "hello.c").write_bytes(PROGRAM)
    for backend in BACKENDS:
        r = run([str(bin_dir / "ripcc"), "--backend=" + backend, "-O2", "-c", "plain.c", "-o",
                 "plain.o"], cwd=str(work), env=env)
        assert r.returncode == 0, r.stderr.decode()
        assert not marker.exists(), backend
    r = run([str(bin_dir / "ripcc"), "-c", "hello.c", "-o", "hello.o"], cwd=str(work), env=env)
    assert r.returncode == 0, r.stderr.decode()
    assert marker.exists()
    assert b"rip__resume_producer" in run(["nm", str(work / "hello.o")]).stdout


def test_an_installed_ripcc_links_without_python_once_its_runtime_is_built(installed):
    """The front finds the runtime library the driver built into the cache
    (named by the same hash of ripper's version, the compiler and the
    runtime's sources) and links against it itself."""
    bin_dir, env, top = installed
    work = top / "native-link"
    env, marker = _noting_python(work, env)
    (work / "hello.c").write_bytes(PROGRAM)
    ripcc = str(bin_dir / "ripcc")
    for backend in BACKENDS:
        compile_ = [ripcc, "--backend=" + backend, "-c", "hello.c", "-o", "hello.o"]
        assert run(compile_, cwd=str(work), env=env).returncode == 0
        link = [ripcc, "--backend=" + backend, "hello.o", "-o", "hello"]
        assert run(link, cwd=str(work), env=env).returncode == 0    # (builds it, if need be)
        if marker.exists():
            marker.unlink()
        r = run(link, cwd=str(work), env=env)
        assert r.returncode == 0, r.stderr.decode()
        assert not marker.exists(), backend
        assert run([str(work / "hello")]).stdout == b"consumer: sum 6\n"


def one_error_line(result):
    lines = result.stderr.decode().splitlines()
    assert result.returncode == 1 and len(lines) == 1, result.stderr.decode()
    assert lines[0].startswith("ripcc: error: "), lines
    return lines[0]


def test_an_installed_ripcc_with_xdg_cache_home_a_file_says_so_in_one_line(installed,
                                                                           tmp_path):
    """Its runtime library's cache cannot be made: one line naming the
    folder, why, and what to set; exit 1, no traceback, no output."""
    bin_dir, env, _ = installed
    (tmp_path / "hello.c").write_bytes(PROGRAM)
    a_file = tmp_path / "not-a-folder"
    a_file.write_bytes(b"")
    r = run([str(bin_dir / "ripcc"), "hello.c", "-o", "hello"], cwd=str(tmp_path),
            env=dict(env, XDG_CACHE_HOME=str(a_file)), timeout=600)
    line = one_error_line(r)
    assert "cache folder %s/ripper/" % a_file in line and "Not a directory" in line, line
    assert "set XDG_CACHE_HOME to a folder you can write" in line, line
    assert not os.path.exists(str(tmp_path / "hello"))


@pytest.mark.parametrize("home", ["a file", "a read-only folder"])
def test_an_installed_ripcc_with_an_unwritable_home_says_so_in_one_line(installed, tmp_path,
                                                                        home):
    """No XDG_CACHE_HOME, and a HOME whose .cache cannot be made."""
    if home == "a read-only folder" and os.geteuid() == 0:
        pytest.skip("root writes into a read-only folder")
    bin_dir, env, _ = installed
    (tmp_path / "hello.c").write_bytes(PROGRAM)
    env = dict(env, HOME=str(tmp_path / "home"))
    del env["XDG_CACHE_HOME"]
    if home == "a file":
        (tmp_path / "home").write_bytes(b"")
    else:
        (tmp_path / "home").mkdir(mode=0o500)
    r = run([str(bin_dir / "ripcc"), "hello.c", "-o", "hello"], cwd=str(tmp_path), env=env,
            timeout=600)
    line = one_error_line(r)
    assert "cache folder %s/.cache/ripper/" % (tmp_path / "home") in line, line
    assert "HOME=%s" % (tmp_path / "home") in line and "XDG_CACHE_HOME" in line, line
    assert not os.path.exists(str(tmp_path / "hello"))


# -- make install: the runtime for build systems without ripcc ----------------

USER = b"""#include <stdio.h>
#include "rip.h"
static void task(void *arg) { rip_yield(); printf("%s\\n", (const char *)arg); }
int main(void) { return rip_run(task, "installed"); }
"""


@pytest.fixture(scope="module")
def prefix(tmp_path_factory):
    top = tmp_path_factory.mktemp("prefix")
    r = run(["make", "-s", "-C", ROOT, "install", "PREFIX=" + str(top)], timeout=600)
    assert r.returncode == 0, r.stdout.decode() + r.stderr.decode()
    return top


def test_make_install_installs_the_man_pages(prefix):
    for page in MAN_PAGES:
        installed = prefix / "share" / "man" / "man1" / page
        assert installed.read_bytes() == open(os.path.join(ROOT, "man", page), "rb").read()
        assert installed.stat().st_mode & 0o777 == 0o644


@pytest.mark.parametrize("backend", ["ucontext", "threads"])
def test_pkg_config_builds_against_the_installed_shared_library(prefix, tmp_path, backend):
    if shutil.which("pkg-config") is None:
        pytest.skip("pkg-config is not installed")
    (tmp_path / "user.c").write_bytes(USER)
    env = dict(os.environ, PKG_CONFIG_PATH=str(prefix / "lib" / "pkgconfig"))
    flags = run(["pkg-config", "--cflags", "--libs", "rip-" + backend], env=env)
    assert flags.returncode == 0, flags.stderr.decode()
    r = run(["cc", str(tmp_path / "user.c"), "-o", str(tmp_path / "user")] +
            flags.stdout.decode().split())
    assert r.returncode == 0, r.stderr.decode()
    assert b"librip-%s.so" % backend.encode() in run(["ldd", str(tmp_path / "user")],
                                                     env=dict(env, LD_LIBRARY_PATH=str(
                                                         prefix / "lib"))).stdout
    out = run([str(tmp_path / "user")], env=dict(env, LD_LIBRARY_PATH=str(prefix / "lib")))
    assert out.stdout == b"installed\n"


@pytest.mark.skipif(shutil.which("cmake") is None, reason="cmake is not installed")
def test_cmake_find_package_links_the_installed_runtime(prefix, tmp_path):
    (tmp_path / "user.c").write_bytes(USER)
    (tmp_path / "CMakeLists.txt").write_text(
        "cmake_minimum_required(VERSION 3.10)\nproject(user C)\n"
        "find_package(ripper 0.1 REQUIRED)\nadd_executable(user user.c)\n"
        "target_link_libraries(user ripper::ucontext)\n")
    r = run(["cmake", "-S", str(tmp_path), "-B", str(tmp_path / "b"),
             "-DCMAKE_PREFIX_PATH=" + str(prefix)], timeout=600)
    assert r.returncode == 0, r.stdout.decode() + r.stderr.decode()
    r = run(["cmake", "--build", str(tmp_path / "b")], timeout=600)
    assert r.returncode == 0, r.stdout.decode() + r.stderr.decode()
    assert run([str(tmp_path / "b" / "user")]).stdout == b"installed\n"


def test_a_shared_library_built_by_ripcc_leaves_the_runtime_to_the_program(tmp_path):
    (tmp_path / "lib.c").write_bytes(b'#include "rip.h"\nint twice(int x) { rip_yield(); '
                                     b'return 2 * x; }\n')
    (tmp_path / "main.c").write_bytes(b'#include <stdio.h>\n#include "rip.h"\n'
                                      b'RIP_ASYNC int twice(int x);\n'
                                      b'static void task(void *a) { (void)a; '
                                      b'printf("%d\\n", twice(21)); }\n'
                                      b'int main(void) { return rip_run(task, 0); }\n')
    env = dict(os.environ, LD_LIBRARY_PATH=str(tmp_path))
    for backend in BACKENDS:
        lib = "libtwice-%s.so" % backend
        r = run([RIPCC, "--backend=" + backend, "-shared", "-fPIC", "lib.c", "-o", lib],
                cwd=str(tmp_path))
        assert r.returncode == 0, r.stderr.decode()
        assert b"rip_run" not in run(["nm", "-D", "--defined-only",
                                      str(tmp_path / lib)]).stdout
        r = run([RIPCC, "--backend=" + backend, "main.c", lib, "-o", "main-" + backend],
                cwd=str(tmp_path))
        assert r.returncode == 0, r.stderr.decode()
        assert run([str(tmp_path / ("main-" + backend))], env=env).stdout == b"42\n"


def test_an_installed_ripcc_builds_a_new_runtime_when_its_sources_change(installed):
    bin_dir, env, top = installed
    work = top / "changed"
    work.mkdir()
    (work / "hello.c").write_bytes(PROGRAM)
    assert run([str(bin_dir / "ripcc"), "hello.c", "-o", "before"], cwd=str(work), env=env,
               timeout=600).returncode == 0
    before = set(glob.glob(str(top / "cache" / "ripper" / "*")))
    package = subprocess.check_output([str(bin_dir / "python"), "-c",
                                       "import ripper, os; print(os.path.dirname("
                                       "ripper.__file__))"], text=True, cwd=str(top),
                                      env=env).strip()
    with open(os.path.join(package, "runtime", "src", "core", "chan.c"), "a") as f:
        f.write("/* a newer runtime */\n")
    r = run([str(bin_dir / "ripcc"), "hello.c", "-o", "after"], cwd=str(work), env=env,
            timeout=600)
    assert r.returncode == 0, r.stderr.decode()
    assert len(set(glob.glob(str(top / "cache" / "ripper" / "*"))) - before) == 1
    assert run([str(work / "after")]).stdout == b"consumer: sum 6\n"


def test_in_a_clone_a_library_older_than_a_runtime_source_is_stale(tmp_path):
    from ripper import runtime
    lib = tmp_path / "librip-rip.a"
    lib.write_bytes(b"")
    newest = max(os.stat(f).st_mtime for f in runtime.sources("rip")[0] + glob.glob(
        os.path.join(runtime.DIR, "src", "*", "*.h")) + glob.glob(
        os.path.join(runtime.DIR, "src", "*", "*.py")) +     # the gdb script each program carries
        [os.path.join(runtime.INCLUDE, "rip.h")])
    os.utime(str(lib), (newest - 10, newest - 10))
    assert runtime._stale(str(lib), "rip")
    os.utime(str(lib), (newest + 10, newest + 10))
    assert not runtime._stale(str(lib), "rip")
    assert runtime._stale(str(tmp_path / "missing.a"), "rip")


def test_a_relative_xdg_cache_home_is_ignored_as_the_xdg_spec_says(monkeypatch):
    """(else every folder a build compiles in would get a cache of its own)"""
    from ripper import runtime
    monkeypatch.setenv("XDG_CACHE_HOME", "cache")
    assert runtime.cache_root() == os.path.join(os.path.expanduser("~"), ".cache", "ripper")

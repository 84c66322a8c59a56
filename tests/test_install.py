"""Installed as a user installs it: a wheel built from this clone, put into
a fresh virtualenv outside the repository, used from an unrelated folder.

The wheel is built and installed without the network: libclang (the one
dependency, from PyPI) is linked in from this checkout's virtualenv."""
import glob
import os
import subprocess
import sys
import zipfile

import pytest

from conftest import BACKENDS, ROOT, SAN, run

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
    assert run([sys.executable, "-m", "venv", str(venv)], timeout=300).returncode == 0
    pip = run([str(venv / "bin" / "pip"), "install", "-q", "--no-deps", "--no-index", wheel],
              timeout=300)
    assert pip.returncode == 0, pip.stderr.decode()
    site = subprocess.check_output([str(venv / "bin" / "python"), "-c",
                                    "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                   text=True).strip()
    import clang
    os.symlink(os.path.dirname(clang.__file__), os.path.join(site, "clang"))
    env = dict(os.environ, XDG_CACHE_HOME=str(top / "cache"))
    env.pop("RIP_SAN", None)
    return venv / "bin", env, top


def test_the_wheel_carries_the_runtime_sources_and_nothing_built(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert "ripper/runtime/include/rip.h" in names
    assert "ripper/runtime/src/rip/rip_frame.h" in names
    assert any(n.startswith("ripper/runtime/src/core/") for n in names)
    assert not [n for n in names if n.endswith((".a", ".o")) or n == "cflags"], names
    assert any(n.endswith(".dist-info/LICENSE") for n in names)
    assert all(n.startswith(("ripper/", "stack_ripper-")) for n in names), names


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


def test_an_installed_ripper_rips_from_any_folder(installed):
    bin_dir, env, top = installed
    work = top / "rip"
    work.mkdir()
    (work / "hello.c").write_bytes(PROGRAM)
    r = run([str(bin_dir / "ripper"), "hello.c", "-o", "hello.rip.c"], cwd=str(work), env=env)
    assert r.returncode == 0, r.stderr.decode()
    assert b"rip_F" in (work / "hello.rip.c").read_bytes()
    assert str(ROOT).encode() not in (work / "hello.rip.c").read_bytes()

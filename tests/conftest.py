"""Shared fixtures: build C programs with ripcc for each backend."""
import os
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BIN = os.path.dirname(sys.executable)
RIPPER = os.path.join(BIN, "ripper")
RIPCC = os.path.join(BIN, "ripcc")
BACKENDS = ("rip", "ucontext", "threads")
CFLAGS = ["-std=gnu11", "-O2", "-g", "-Wall", "-Wextra", "-Werror"]


def run(cmd, **kw):
    kw.setdefault("capture_output", True)
    kw.setdefault("timeout", 120)
    return subprocess.run(cmd, **kw)


@pytest.fixture(scope="session")
def build_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("build")


@pytest.fixture(scope="session")
def ripcc(build_dir):
    """ripcc(source, backend) -> path of the built program (fails the test
    with the compiler's messages if it does not build)."""
    cache = {}

    def build(source, backend, extra=()):
        key = (source, backend, tuple(extra))
        if key not in cache:
            name = os.path.splitext(os.path.basename(source))[0]
            exe = os.path.join(str(build_dir), "%s-%s" % (name, backend))
            r = run([RIPCC, "--backend=" + backend] + CFLAGS + list(extra) + [source, "-o", exe])
            if r.returncode != 0:
                pytest.fail("ripcc --backend=%s %s failed:\n%s%s" % (
                    backend, source, r.stdout.decode(), r.stderr.decode()))
            cache[key] = exe
        return cache[key]
    return build

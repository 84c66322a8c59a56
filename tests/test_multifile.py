"""Separate compilation: async functions defined in counter.c, declared
RIP_ASYNC in counter.h, called (directly and through a RIP_ASYNC_FN
pointer) from main.c; built in one ripcc call and as separate objects."""
import os

from conftest import BACKENDS, CFLAGS, RIPCC, ROOT, run

DIR = os.path.join(ROOT, "tests", "multifile")
EXPECTED = b"three: value 4, last step added 1\nfive: value 6, last step added 1\ntotal 10\n"


def test_two_files_in_one_ripcc_call_on_every_backend(tmp_path):
    for backend in BACKENDS:
        exe = str(tmp_path / backend)
        r = run([RIPCC, "--backend=" + backend] + CFLAGS +
                [os.path.join(DIR, "main.c"), os.path.join(DIR, "counter.c"), "-o", exe])
        assert r.returncode == 0, r.stderr.decode()
        out = run([exe]).stdout
        if backend == "threads":
            assert sorted(out.splitlines()) == sorted(EXPECTED.splitlines())
        else:
            assert out == EXPECTED


def test_separately_compiled_objects_link(tmp_path):
    for name in ("main", "counter"):
        r = run([RIPCC, "-c"] + CFLAGS + [os.path.join(DIR, name + ".c"), "-o",
                                         str(tmp_path / (name + ".o"))])
        assert r.returncode == 0, r.stderr.decode()
    exe = str(tmp_path / "prog")
    r = run([RIPCC, str(tmp_path / "main.o"), str(tmp_path / "counter.o"), "-o", exe])
    assert r.returncode == 0, r.stderr.decode()
    assert run([exe]).stdout == EXPECTED

"""Every tests/programs/NAME.c, built for every backend, prints NAME.expected.

rip and ucontext must match it byte for byte (the scheduling contract);
threads too, unless the program says `/* threads: sorted */` (its output
depends on the FIFO order threads do not keep): then the same lines in any
order.  A first line `/* exit: N */` sets the expected exit status;
`/* backends: rip ucontext (why) */` limits the backends, with the reason.

A line `/* known bug: issue N ... */` marks a program ripper gets wrong
today (the acceptance tests of a fix under way): it runs here like any
other, and fails on rip until the fix lands (then the line goes), but the
checks that take every program as a good one to rip (test_clang, the
hostile-input seeds, make valgrind on rip) leave it out."""
import glob
import os
import re

import pytest

from conftest import BACKENDS, ROOT, run, selected_params

PROGRAMS = sorted(glob.glob(os.path.join(ROOT, "tests", "programs", "*.c")))
KNOWN_BUG = re.compile(r"^/\* known bug: ", re.M)


def known_bug(source):
    """Does the program say ripper gets it wrong today?"""
    with open(source) as f:
        return KNOWN_BUG.search(f.read()) is not None


def expectations(source):
    """(exit status, threads output sorted?, backends it runs on)."""
    with open(source) as f:
        text = f.read()
    m = re.match(r"/\* exit: (\d+) \*/", text)
    only = re.search(r"/\* backends: ([a-z ]+)", text)
    backends = only.group(1).split() if only else BACKENDS
    return (int(m.group(1)) if m else 0), "/* threads: sorted */" in text, backends


@pytest.fixture(scope="module", autouse=True)
def programs_built_side_by_side(request, ripcc):
    """The selected programs, built before the first test (conftest.prebuild):
    a core each, where one at a time left the others idle."""
    ripcc.prebuild([(p["source"], p["backend"], ())
                    for p in selected_params(request, "test_program_prints_expected_output")
                    if p["backend"] in expectations(p["source"])[2]])


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("source", PROGRAMS, ids=lambda p: os.path.basename(p)[:-2])
def test_program_prints_expected_output(source, backend, ripcc):
    status, sorted_on_threads, backends = expectations(source)
    if backend not in backends:
        pytest.skip("the program says: backends: " + " ".join(backends))
    exe = ripcc(source, backend)
    with open(source[:-2] + ".expected", "rb") as f:
        expected = f.read()
    r = run([exe], timeout=30)
    assert r.returncode == status, r.stderr.decode()
    if backend == "threads" and sorted_on_threads:
        assert sorted(r.stdout.splitlines()) == sorted(expected.splitlines())
    else:
        assert r.stdout == expected


def test_there_are_enough_programs():
    assert len(PROGRAMS) >= 10
    for p in PROGRAMS:
        assert os.path.exists(p[:-2] + ".expected"), p

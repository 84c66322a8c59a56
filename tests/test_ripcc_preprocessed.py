"""Preprocessed C (.i, -x cpp-output) given to ripcc: ripped like any
other source on rip, without preprocessing it again; what it cannot be
ripped from (cc -E drops RIP_ASYNC, empty outside ripper) is an error
that says so, not an unripped object and a bare undefined reference."""
import os

import pytest

from conftest import BACKENDS, RIPCC, ROOT, run

INCLUDE = os.path.join(ROOT, "runtime", "include")

PROGRAM = b"""#include <stdio.h>
#include "rip.h"

#define STEPS 3

static RIP_ASYNC int count(int id)
{
    int i, sum = 0;
    for (i = 0; i < STEPS; i++) {
        rip_sleep_ms(1);
        sum += id;
    }
    return sum;
}

static RIP_ASYNC void task(void *arg)
{
    printf("task %d: %d\\n", *(int *)arg, count(*(int *)arg));
}

static RIP_ASYNC void first(void *arg)
{
    static int ids[2] = {1, 2};
    (void)arg;
    task(&ids[0]);
    rip_yield();
    task(&ids[1]);
    puts("done");
}

int main(void)
{
    return rip_run(first, NULL);
}
"""
EXPECTED = b"task 1: 3\ntask 2: 6\ndone\n"


@pytest.fixture
def work(tmp_path):
    (tmp_path / "prog.c").write_bytes(PROGRAM)
    return tmp_path


def ripcc(work, *args, **kw):
    return run([RIPCC] + list(args), cwd=str(work), **kw)


def built_from_source(work, backend):
    r = ripcc(work, "--backend=" + backend, "prog.c", "-o", "from-source")
    assert r.returncode == 0, r.stderr.decode()
    return run([str(work / "from-source")], timeout=60).stdout


@pytest.mark.parametrize("backend", BACKENDS)
def test_ripcc_E_output_builds_as_its_source_does(work, backend):
    """ripcc -E keeps RIP_ASYNC's marks on rip; its .i, compiled and linked
    by ripcc, prints what the program built from prog.c prints."""
    r = ripcc(work, "--backend=" + backend, "-E", "prog.c", "-o", "prog.i")
    assert r.returncode == 0, r.stderr.decode()
    r = ripcc(work, "--backend=" + backend, "-c", "prog.i")
    assert r.returncode == 0, r.stderr.decode()
    assert r.stderr == b"", r.stderr.decode()
    r = ripcc(work, "--backend=" + backend, "prog.o", "-o", "p")
    assert r.returncode == 0, r.stderr.decode()
    out = run([str(work / "p")], timeout=60).stdout
    assert out == built_from_source(work, backend) == EXPECTED


@pytest.mark.parametrize("backend", BACKENDS)
def test_cc_E_output_with_the_marks_builds_on_every_backend(work, backend):
    """cc -E -D__RIPPER__ (the marks kept) on rip, plain cc -E on
    ucontext and threads, where nothing is ripped."""
    marks = ["-D__RIPPER__"] if backend == "rip" else []
    r = run(["cc", "-E"] + marks + ["prog.c", "-I", INCLUDE, "-o", "prog.i"], cwd=str(work))
    assert r.returncode == 0, r.stderr.decode()
    r = ripcc(work, "--backend=" + backend, "prog.i", "-o", "p")
    assert r.returncode == 0, r.stderr.decode()
    assert run([str(work / "p")], timeout=60).stdout == EXPECTED


def test_cc_E_output_without_the_marks_is_an_error_that_says_why(work):
    """Plain cc -E leaves no trace of RIP_ASYNC: ripping it is impossible,
    and compiling it unripped left an undefined rip_sleep_ms."""
    r = run(["cc", "-E", "prog.c", "-I", INCLUDE, "-o", "prog.i"], cwd=str(work))
    assert r.returncode == 0, r.stderr.decode()
    r = ripcc(work, "prog.i", "-o", "p")
    assert r.returncode == 1
    err = r.stderr.decode()
    assert "prog.i is preprocessed C without RIP_ASYNC's marks" in err, err
    assert "ripcc -E" in err and "undefined reference" not in err
    assert not os.path.exists(str(work / "p"))


def test_x_cpp_output_from_standard_input_is_ripped(work):
    text = ripcc(work, "-E", "prog.c").stdout
    r = ripcc(work, "-x", "cpp-output", "-", "-o", "p", input=text)
    assert r.returncode == 0, r.stderr.decode()
    assert run([str(work / "p")], timeout=60).stdout == EXPECTED


def test_the_ripped_text_save_temps_keeps_compiles_as_it_is(work):
    """NAME.rip.i is ripped already: compiled, not ripped twice."""
    r = ripcc(work, "-save-temps", "-c", "prog.c")
    assert r.returncode == 0, r.stderr.decode()
    r = ripcc(work, "prog.rip.i", "-o", "p")
    assert r.returncode == 0, r.stderr.decode()
    assert run([str(work / "p")], timeout=60).stdout == EXPECTED


def test_a_posix_i_ripped_again_at_the_link_is_not_preprocessed_again(work):
    """--posix: the link rips b.i again (it calls a.o's async nap plainly)
    as preprocessed C, as its compile did: a -D on the command line, which
    cc ignores for a .i, does not rename its variable VALUE."""
    (work / "a.c").write_text("#include <unistd.h>\n"
                              "int nap(int n) { usleep(1000); return n + 1; }\n")
    (work / "b.c").write_text("#include <stdio.h>\nint nap(int n);\nstatic int VALUE = 1;\n"
                              'int main(void) { printf("%d\\n", nap(nap(VALUE))); return 0; }\n')
    assert run(["cc", "-E", "b.c", "-o", "b.i"], cwd=str(work)).returncode == 0
    for source in ("a.c", "b.i"):
        r = ripcc(work, "--posix", "-DVALUE=5", "-c", source)
        assert r.returncode == 0, r.stderr.decode()
    r = ripcc(work, "--posix", "-v", "a.o", "b.o", "-o", "p")
    assert r.returncode == 0, r.stderr.decode()
    assert b"ripping b.i again" in r.stderr
    assert run([str(work / "p")], timeout=60).stdout == b"3\n"

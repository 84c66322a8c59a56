"""Nothing ripper adds to a file draws a warning its plain build does not
have: a program that compiles cleanly with cc under -std=c89 -pedantic
-Werror (cJSON's own flags) and the usual -W sets compiles cleanly ripped,
and runs as it does built plainly (ucontext: compiled as written)."""
import os
import shutil

import pytest

from conftest import RIPCC, ROOT, run

INCLUDE = os.path.join(ROOT, "runtime", "include")

# Header paths ripper records (lower.py's declarations_note) are absolute:
# this folder makes them long, as a build tree's are.
DEEP = os.path.join("include", "a-build-tree-of-some-depth", "with-folders-named-at-length",
                    "as-generated-builds-name-them", "and-one-more-level-of-it")

HEADER = b"""int util_add(int a, int b);
int util_mul(int a, int b);
int util_neg(int a);
int util_twice(int a);
"""

UTIL = b"""#include "util.h"
int util_add(int a, int b) { return a + b; }
int util_mul(int a, int b) { return a * b; }
int util_neg(int a) { return -a; }
int util_twice(int a) { return 2 * a; }
"""

# C89 throughout (declarations first, no // comments): async functions
# with suspension points, tasks, and system headers included.
PROGRAM = b"""#include <rip.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <unistd.h>
#include <fcntl.h>
#include <ctype.h>
#include <time.h>
#include "util.h"

static int total;

static int helper(int x)
{
    return util_add(util_mul(x, 2), util_twice(util_neg(-1))) + (int)strlen("ab");
}

static RIP_ASYNC int worker(int id, int steps)
{
    int i;
    int sum = 0;
    for (i = 0; i < steps; i++) {
        rip_sleep_ms(1);
        sum += helper(id + i);
        rip_yield();
    }
    return sum;
}

static RIP_ASYNC void task(void *arg)
{
    int id = *(int *)arg;
    long got = (long)worker(id, 3), none = (long)worker(id, 0) + 1;
    total += (int)(got + none - 1);
    printf("task %d: %d\\n", id, (int)got);
}

static RIP_ASYNC void first(void *arg)
{
    static int ids[3] = {1, 2, 3};
    (void)arg;
    rip_spawn(task, &ids[0]);
    rip_spawn(task, &ids[1]);
    rip_spawn(task, &ids[2]);
    rip_sleep_ms(30);
    printf("total %d\\n", total);
}

int main(void)
{
    return rip_run(first, NULL) == 0 ? 0 : 1;
}
"""

STRICT = ["-pedantic", "-Wall", "-Wextra", "-Werror"]
# cJSON's list (those gcc has), and the usual others
MORE = ["-Wshadow", "-Wconversion", "-Wsign-conversion", "-Wstrict-prototypes",
        "-Wmissing-prototypes", "-Wredundant-decls", "-Wcast-qual", "-Wcast-align",
        "-Wwrite-strings", "-Winit-self", "-Wformat=2", "-Wstrict-overflow=2", "-Wundef",
        "-Wswitch-default", "-Wswitch-enum", "-Wc++-compat", "-Wdouble-promotion",
        "-Wunused-macros", "-Wmissing-declarations", "-Wold-style-definition",
        "-Wbad-function-cast", "-Wnested-externs", "-Wpointer-arith", "-Wlogical-op",
        "-Wjump-misses-init", "-Wnull-dereference", "-Wvla", "-Woverlength-strings"]


@pytest.fixture
def program(tmp_path):
    deep = tmp_path / DEEP
    deep.mkdir(parents=True)
    (deep / "util.h").write_bytes(HEADER)
    (tmp_path / "util.c").write_bytes(UTIL)
    (tmp_path / "prog.c").write_bytes(PROGRAM)
    return tmp_path


@pytest.mark.parametrize("std", ["c89", "gnu89", "c99", "gnu11", "c17", "gnu2x"])
@pytest.mark.parametrize("more", [[], MORE], ids=["strict", "more"])
def test_a_clean_program_compiles_cleanly_ripped(program, std, more):
    """`ripcc -std=c89 -pedantic -Werror` once failed: the names of the
    headers declaring the functions a file calls were a string literal
    past the 509 characters C90 compilers must support; and a declarator
    whose initializer casts an async call's value was declared after the
    call (`long got = (long)worker(...)`: mixed declarations and code)."""
    flags = ["-std=" + std] + STRICT + more + ["-I", str(program / DEEP)]
    for source in ("prog.c", "util.c"):     # the plain build: clean
        r = run(["cc"] + flags + ["-I", INCLUDE, "-DRIP_BACKEND_UCONTEXT", "-c", source,
                                  "-o", source + ".plain.o"], cwd=str(program))
        assert r.returncode == 0 and r.stderr == b"", r.stderr.decode()
    outputs = {}
    for backend in ("rip", "ucontext"):
        r = run([RIPCC, "--backend=" + backend] + flags +
                ["prog.c", "util.c", "-o", "prog-" + backend], cwd=str(program))
        assert r.returncode == 0, r.stderr.decode()[:3000]
        assert r.stderr == b"", r.stderr.decode()[:3000]
        outputs[backend] = run([str(program / ("prog-" + backend))], timeout=60)
        assert outputs[backend].returncode == 0
    assert outputs["rip"].stdout == outputs["ucontext"].stdout
    assert outputs["rip"].stdout.endswith(b"total 90\n")


PLAIN = b"""#include <stdio.h>
#include <unistd.h>
#include "util.h"

static int twice_sum(const int *v, int n)
{
    int i, s = 0;
    for (i = 0; i < n; i++) {
        sleep(0);
        s += util_twice(v[i]);
    }
    return s;
}

int main(int argc, char **argv)
{
    int v[4] = {1, 2, 3, 4};
    (void)argv;
    printf("%d %d\\n", twice_sum(v, 4), util_add(argc, 1));
    return 0;
}
"""


@pytest.mark.skipif(shutil.which("clang") is None, reason="no clang")
@pytest.mark.parametrize("std", ["c89", "gnu11"])
def test_posix_mode_compiles_cleanly_with_clang_too(program, std):
    """--posix with RIPCC_CC=clang: main's task ended the program with
    __builtin_exit, which clang lacks, and the record of how to rip the
    object again was one string literal past C90's 509 characters."""
    (program / "plain.c").write_bytes(PLAIN)
    flags = ["-std=" + std] + STRICT + ["-I", str(program / DEEP)]
    env = dict(os.environ, RIPCC_CC="clang")
    r = run(["clang"] + flags + ["-c", "plain.c", "-o", "plain.plain.o"], cwd=str(program))
    assert r.returncode == 0 and r.stderr == b"", r.stderr.decode()
    r = run([RIPCC, "--posix"] + flags + ["plain.c", "util.c", "-o", "prog"],
            cwd=str(program), env=env)
    assert r.returncode == 0, r.stderr.decode()[:3000]
    assert r.stderr == b"", r.stderr.decode()[:3000]
    assert run([str(program / "prog")], timeout=60).stdout == b"20 2\n"


@pytest.mark.skipif(shutil.which("clang") is None, reason="no clang")
@pytest.mark.parametrize("std", ["c89", "gnu11"])
def test_a_clean_program_compiles_cleanly_ripped_with_clang(program, std):
    """cJSON's clang-only flags too: a static async function's frame
    constructor was marked unused even where the function is named, and
    -Wused-but-marked-unused warned at every call and rip_spawn."""
    flags = ["-std=" + std] + STRICT + ["-Wused-but-marked-unused",
                                        "-Wmissing-variable-declarations", "-Wcomma",
                                        "-Wunused-function"] + ["-I", str(program / DEEP)]
    r = run(["clang"] + flags + ["-I", INCLUDE, "-DRIP_BACKEND_UCONTEXT", "-c", "prog.c",
                                 "-o", "prog.plain.o"], cwd=str(program))
    assert r.returncode == 0 and r.stderr == b"", r.stderr.decode()
    r = run([RIPCC] + flags + ["prog.c", "util.c", "-o", "prog"], cwd=str(program),
            env=dict(os.environ, RIPCC_CC="clang"))
    assert r.returncode == 0, r.stderr.decode()[:3000]
    assert r.stderr == b"", r.stderr.decode()[:3000]
    assert run([str(program / "prog")], timeout=60).stdout.endswith(b"total 90\n")

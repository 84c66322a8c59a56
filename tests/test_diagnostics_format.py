"""ripper's own diagnostics (ripper/diag.py) in gcc's format, checked
against gcc's own output at test time on a twin file: the same lines, with
gcc's errors where ripper's are (ripper: the blocking calls read and sleep,
errors under -Werror=blocking; gcc: the same calls undeclared, errors under
-Werror=implicit-function-declaration).  Compared: the place (a display
column: a tab and an e-acute come before read), the source line, the ^~~~
under the token, colours (GCC_COLORS too), -fmax-errors, -Wfatal-errors,
-fno-diagnostics-show-caret and -fdiagnostics-format=json; only the
messages and the option's name differ."""
import json
import os
import re
import shutil

import pytest

from conftest import RIPCC, RIPPER, ROOT, run
from ripper.diag import Diagnostic

pytestmark = pytest.mark.skipif(shutil.which("gcc") is None, reason="needs gcc")

SOURCE = (b'#include "rip.h"\n'
          b'#include <unistd.h>\n'
          b'static void task(void *arg) {\n'
          b'\t/* \xc3\xa9 */ int n = (int)read(0, arg, 1);\n'
          b'\t(void)n; sleep(1);\n'
          b'}\n'
          b'int main(void) { return rip_run(task, 0); }\n')
INCLUDE = os.path.join(ROOT, "runtime", "include")
C_LOCALE = dict(os.environ, LC_ALL="C")     # gcc's quotes in ASCII, as ripper's


@pytest.fixture
def twins(tmp_path):
    for side, text in (("r", SOURCE), ("g", SOURCE.replace(b"#include <unistd.h>",
                                                           b"/* no unistd.h here */"))):
        (tmp_path / side).mkdir()
        (tmp_path / side / "b.c").write_bytes(text)
    return tmp_path


def ripper_says(twins, *flags, env=C_LOCALE, tool=RIPPER):
    args = ["-c", "b.c", "-o", "b.o"] if tool == RIPCC else ["b.c", "-o", "b.rip.c"]
    r = run([tool, "-Werror=blocking"] + list(flags) + args, cwd=str(twins / "r"), env=env)
    return r.returncode, r.stderr.decode()


def gcc_says(twins, *flags, env=C_LOCALE):
    """gcc's lines, less cc1's -Werror summary, which ripper does not print."""
    r = run(["gcc", "-I", INCLUDE, "-Werror=implicit-function-declaration"] + list(flags) +
            ["-c", "b.c", "-o", "b.o"], cwd=str(twins / "g"), env=env)
    return r.returncode, "\n".join(x for x in r.stderr.decode().splitlines()
                                   if not x.startswith("cc1:"))


def shape(text, notes=True):
    """`text`'s lines with the messages and the option's name left out."""
    lines = [re.sub(r"(error: (?:\x1b\[m\x1b\[K)?).*?( \[|$)", r"\1MESSAGE\2", x)
             for x in text.splitlines() if notes or " note: " not in re.sub(r"\x1b\[[\d;]*m"
                                                                            r"\x1b\[K", "", x)]
    return [re.sub(r"-Werror=[\w-]+", "-Werror=OPTION", x) for x in lines]


def test_place_source_line_and_range_as_gcc_prints_them_fatal_errors_too(twins):
    status, ours = ripper_says(twins, "-Wfatal-errors")
    _, gccs = gcc_says(twins, "-Wfatal-errors")
    assert status == 1
    assert shape(ours) == shape(gccs), ours     # the first error, its lines, and no note
    assert ours.splitlines()[2:] == [
        "    4 |         /* \xe9 */ int n = (int)read(0, arg, 1);",
        "      |                              ^~~~",
        "compilation terminated due to -Wfatal-errors."]
    assert ours.startswith("b.c: In function 'task':\n"
                           "b.c:4:30: error: 'read' blocks")    # a display column: byte 24


def test_max_errors_stops_where_gcc_stops(twins):
    for limit in ("1", "2", "0"):
        status, ours = ripper_says(twins, "-fmax-errors=" + limit)
        _, gccs = gcc_says(twins, "-fmax-errors=" + limit)
        assert status == 1
        assert shape(ours, notes=False) == shape(gccs), (limit, ours)
        assert ("terminated" in ours) == (limit == "1")
    assert ours.count(": note: ") == 4          # every error keeps its notes under a limit


def test_no_caret_as_gcc(twins):
    _, ours = ripper_says(twins, "-fno-diagnostics-show-caret")
    _, gccs = gcc_says(twins, "-fno-diagnostics-show-caret")
    assert shape(ours, notes=False) == shape(gccs) and len(shape(gccs)) == 3
    _, ours = ripper_says(twins, "-fno-diagnostics-show-line-numbers", "-Wfatal-errors")
    _, gccs = gcc_says(twins, "-fno-diagnostics-show-line-numbers", "-Wfatal-errors")
    assert shape(ours) == shape(gccs)


def test_colours_as_gcc_writes_them_and_none_under_an_empty_gcc_colors(twins):
    for colors in (None, "error=01;34:locus=04:note=32:quote=04", ""):
        env = dict(C_LOCALE)
        env.pop("GCC_COLORS", None)
        if colors is not None:
            env["GCC_COLORS"] = colors
        _, ours = ripper_says(twins, "-fdiagnostics-color=always", "-Wfatal-errors", env=env)
        _, gccs = gcc_says(twins, "-fdiagnostics-color=always", "-Wfatal-errors", env=env)
        assert shape(ours) == shape(gccs), (colors, ours)
        assert ("\x1b[" in ours) == (colors != "")
        # a name the message quotes, in gcc's quote colour
        quoted = re.search(r"'(?:\x1b\[[\d;]*m\x1b\[K)?read(?:\x1b\[m\x1b\[K)?'", gccs)
        assert quoted.group() in ours, (quoted.group(), ours)


def test_json_as_gcc_writes_it(twins):
    status, ours = ripper_says(twins, "-fdiagnostics-format=json")
    _, gccs = gcc_says(twins, "-fdiagnostics-format=json")
    ours, gccs = json.loads(ours), json.loads(gccs)
    assert status == 1 and len(ours) == len(gccs) == 2
    for mine, theirs in zip(ours, gccs):
        assert set(mine) == set(theirs) - {"option_url"}
        assert (mine["kind"], mine["locations"], mine["column-origin"]) == \
            (theirs["kind"], theirs["locations"], theirs["column-origin"])
        assert mine["option"] == "-Werror=blocking"
        assert [c["kind"] for c in mine["children"]] == ["note", "note"]
    # gcc's own note on a child: the keys ripper's hint and why have
    (twins / "g" / "u.c").write_text("int f(void) { return nowhere; }\n")
    r = run(["gcc", "-fdiagnostics-format=json", "-c", "u.c", "-o", "u.o"],
            cwd=str(twins / "g"))
    child = json.loads(r.stderr)[0]["children"][0]
    assert all(set(c) == set(child) for d in ours for c in d["children"])
    assert ours[0]["children"][0]["locations"] == ours[0]["locations"]
    # -Wfatal-errors: gcc's line, then the array of the one error
    _, ours = ripper_says(twins, "-fdiagnostics-format=json", "-Wfatal-errors")
    _, gccs = gcc_says(twins, "-fdiagnostics-format=json", "-Wfatal-errors")
    assert ours.splitlines()[0] == gccs.splitlines()[0] == \
        "compilation terminated due to -Wfatal-errors."
    assert len(json.loads(ours.splitlines()[1])) == len(json.loads(gccs.splitlines()[1])) == 1


def test_json_of_a_clean_rip_is_an_empty_array_as_gccs(twins):
    (twins / "r" / "ok.c").write_text("int f(void) { return 1; }\n")
    r = run([RIPPER, "-fdiagnostics-format=json", "ok.c", "-o", "ok.rip.c"],
            cwd=str(twins / "r"))
    g = run(["gcc", "-fdiagnostics-format=json", "-c", "ok.c", "-o", "ok.o"],
            cwd=str(twins / "r"))
    assert r.returncode == 0 and r.stderr == g.stderr == b"[]\n"


def test_ripcc_shows_the_rips_diagnostics_as_asked(twins):
    status, ours = ripper_says(twins, "-fdiagnostics-format=json", tool=RIPCC)
    assert status == 1 and len(json.loads(ours)) == 2
    assert not (twins / "r" / "b.o").exists()
    status, ours = ripper_says(twins, "-Wfatal-errors", tool=RIPCC)
    _, gccs = gcc_says(twins, "-Wfatal-errors")
    assert status == 1 and shape(ours) == shape(gccs)


def test_an_expression_is_underlined_whole_a_macros_work_at_its_token(tmp_path):
    src = tmp_path / "e.c"
    src.write_text("int f(int n) {\n    return (n + 1) * g(n);\n}\n")
    d = Diagnostic(str(src), 2, 12, "about this", span="(n + 1)")
    assert d.format().splitlines()[1:] == ["    2 |     return (n + 1) * g(n);",
                                           "      |            ^~~~~~~"]
    d = Diagnostic(str(src), 2, 12, "about this", span="(n+1)")    # an expansion's text
    assert d.format().splitlines()[2] == "      |            ^"
    d = Diagnostic(str(src), 2, 22, "about this")
    assert d.format().splitlines()[2] == "      |                      ^"


def test_an_error_about_an_expression_underlines_all_of_it(tmp_path):
    # as gcc underlines an argument it refuses; a call only its name
    (tmp_path / "pc.c").write_text(
        "#include <pthread.h>\nstatic void *pick(void) { return 0; }\nint main(void) {\n"
        "    pthread_t t;\n    pthread_create(&t, 0, (void *(*)(void *))pick, 0);\n"
        "    return pthread_join(t, 0);\n}\n")
    r = run([RIPPER, "--posix", "pc.c", "-o", "pc.rip.c"], cwd=str(tmp_path))
    assert r.returncode == 1
    assert r.stderr.decode().splitlines()[0] == "pc.c: In function 'main':"
    assert r.stderr.decode().splitlines()[2:4] == [
        "    5 |     pthread_create(&t, 0, (void *(*)(void *))pick, 0);",
        "      |                           ^~~~~~~~~~~~~~~~~~~~~~~"]

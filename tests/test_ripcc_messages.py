"""What cc says about ripped code is what it says about the user's: the
same file:line:col, function, call and caret as on ucontext, where
nothing is ripped (ripcc filters cc's standard error: ccmessages.py)."""
import os
import subprocess

import pytest

from conftest import RIPCC, run

HEAD = "#include <rip.h>\n#include <stdio.h>\n\n"
TAIL = "\nint main(void) { return 0; }\n"

# one warning each, in an async function, after a suspension
CASES = {
    "sign-compare": "RIP_ASYNC int task(unsigned n)\n{\n    int i = 0;\n    rip_sleep_ms(1);\n"
                    "    if (i < n) i++;\n    return i;\n}\n",
    "int-conversion": "RIP_ASYNC int task(rip_chan *c)\n{\n    rip_sleep_ms(1);\n"
                      "    return rip_chan_send(c, 42);\n}\n",
    "conversion": "RIP_ASYNC int task(unsigned n)\n{\n    rip_sleep_ms(1);\n"
                  "    short s = n;\n    return s;\n}\n",
    "unused": "RIP_ASYNC int task(int n)\n{\n    int unused;\n    rip_sleep_ms(n);\n"
              "    return n;\n}\n",
    "tabs": "RIP_ASYNC int task(unsigned n)\n{\n\tint i = 0;\n\trip_sleep_ms(1);\n"
            "\tif (i < n) i++;\n\treturn i;\n}\n",
}
FLAGS = ["-Wall", "-Wextra", "-Wconversion", "-fno-diagnostics-color"]


def compile_both(tmp_path, source, *flags, env=None):
    """stderr and status of ripcc (rip) and ripcc --backend=ucontext
    compiling `source` as x.c with `flags`; ripcc on rip shows cc's words on
    the ripped text, translated (RIPCC_RIPPED_MESSAGES: what it shows for
    standard input and .i, where no plain compile can speak instead)."""
    (tmp_path / "x.c").write_text(source)
    out = []
    for backend in ("rip", "ucontext"):
        e = dict(env or os.environ, RIPCC_RIPPED_MESSAGES="1")
        r = run([RIPCC, "--backend=" + backend] + list(flags) + ["-c", "x.c", "-o",
                                                                  backend + ".o"],
                cwd=str(tmp_path), env=e)
        out.append((r.returncode, r.stderr.decode("utf-8", "replace")))
    return out


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_warning_in_an_async_function_is_cc_s_own(tmp_path, case):
    ripped, plain = compile_both(tmp_path, HEAD + CASES[case] + TAIL, *FLAGS)
    assert "warning:" in plain[1]
    assert ripped == plain
    assert "rip__" not in ripped[1]


def test_a_runtime_call_s_note_is_the_api_s_declaration(tmp_path):
    ripped, plain = compile_both(tmp_path, HEAD + CASES["int-conversion"] + TAIL, *FLAGS)
    assert "passing argument 2 of " in ripped[1] and "rip_chan_send" in ripped[1]
    assert "In file included from x.c:1:" in ripped[1] and "rip.h:" in ripped[1]
    assert ripped == plain


def test_an_error_from_cc_keeps_its_status_and_place(tmp_path):
    ripped, plain = compile_both(tmp_path, HEAD + CASES["sign-compare"] + TAIL,
                                 "-Werror=sign-compare", "-fno-diagnostics-color")
    assert plain[0] == 1 and "error:" in plain[1]
    assert ripped == plain


@pytest.mark.parametrize("flag", ["-ftabstop=4", "-fdiagnostics-column-unit=byte",
                                  "-fdiagnostics-column-origin=0"])
def test_columns_counted_as_cc_s_flags_say(tmp_path, flag):
    ripped, plain = compile_both(tmp_path, HEAD + CASES["tabs"] + TAIL, flag, *FLAGS)
    assert ripped == plain


def test_colours_are_cc_s(tmp_path):
    ripped, plain = compile_both(tmp_path, HEAD + CASES["int-conversion"] + TAIL,
                                 "-Wall", "-fdiagnostics-color=always")
    assert "\x1b[" in plain[1]
    assert ripped == plain
    env = dict(os.environ, GCC_COLORS="")           # empty: no colour, as gcc
    ripped, plain = compile_both(tmp_path, HEAD + CASES["int-conversion"] + TAIL,
                                 "-Wall", "-fdiagnostics-color=always", env=env)
    assert "\x1b[" not in ripped[1] and ripped == plain


def test_all_async_names_the_function_and_column(tmp_path):
    source = ("#include <unistd.h>\n\nstatic int twice(int x)\n{\n\tunsigned u = 3;\n"
              "\tsleep(0);\n\tif (x < u) return 2 * x;\n\treturn x;\n}\n\n"
              "int main(int argc, char **argv)\n{\n\t(void)argv;\n\tsleep(0);\n"
              "\treturn twice(argc) > 1u;\n}\n")
    (tmp_path / "m.c").write_text(source)
    r = run([RIPCC, "--all-async", "-Wall", "-Wextra", "-c", "m.c"], cwd=str(tmp_path))
    cc = run([RIPCC, "--backend=ucontext", "-Wall", "-Wextra", "-c", "m.c"], cwd=str(tmp_path))
    ripped = r.stderr.decode().splitlines()
    plain = cc.stderr.decode().splitlines()
    assert "m.c:7:15: warning:" in cc.stderr.decode()
    # the plain copy --all-async keeps of twice (called from plain code)
    # and the ripped one both warn: the same lines, cc's, twice (a gap)
    assert set(plain) <= set(ripped)
    assert set(ripped) - set(plain) <= {"m.c: --all-async: 2 of 2 functions ripped"}


def test_format_is_at_the_string_not_its_directive(tmp_path):
    # gcc finds the directive in a format string only in the source it
    # lexed: never in a preprocessed file with linemarkers (any .i), so
    # ripped code's -Wformat is at the string (col 12), cc's at the %s (14)
    source = HEAD + ("RIP_ASYNC int task(int i)\n{\n    rip_sleep_ms(1);\n"
                     "    printf(\"%s\\n\", i);\n    return i;\n}\n") + TAIL
    ripped, plain = compile_both(tmp_path, source, *FLAGS)
    assert "x.c:7:14: warning: format" in plain[1]
    assert "x.c:7:12: warning: format" in ripped[1]
    assert "In function 'task'" in ripped[1].replace("\u2018", "'").replace("\u2019", "'")


def test_posix_names_the_function_and_column(tmp_path):
    # --posix keeps a plain copy of a function it rips (for plain callers),
    # whose line is the user's: the ripped copy's is told by cc's "In
    # function" line, and its warning is cc's too (twice: the gap above)
    source = ("#include <unistd.h>\n\nint step(unsigned n)\n{\n    int i = 0;\n"
              "    sleep(0);\n    if (i < n) i++;\n    return i;\n}\n")
    (tmp_path / "p.c").write_text(source)
    r = run([RIPCC, "--posix", "-Wall", "-Wextra", "-c", "p.c"], cwd=str(tmp_path),
            env=dict(os.environ, RIPCC_RIPPED_MESSAGES="1"))
    cc = run([RIPCC, "--backend=ucontext", "-Wall", "-Wextra", "-c", "p.c"],
             cwd=str(tmp_path))
    assert "p.c:7:11: warning:" in cc.stderr.decode()
    assert set(r.stderr.decode().splitlines()) == set(cc.stderr.decode().splitlines())
    assert r.stderr.decode().count("p.c:7:11: warning:") == 2


def test_an_async_function_s_pointer_type_is_the_user_s(tmp_path):
    source = ("#include <rip.h>\nRIP_ASYNC void worker(int *x) { rip_yield(); (*x)++; }\n"
              "int main(void)\n{\n    int n = 0;\n    return rip_run(worker, &n);\n}\n")
    ripped, plain = compile_both(tmp_path, source, *FLAGS)
    assert "void (*)(int *)" in plain[1] and "void (*)(void *)" in plain[1]
    assert ripped == plain


def test_a_pointer_type_two_results_could_have_is_left_as_cc_said(tmp_path):
    # other(void *) returns int, a task (rip_task_fn) nothing: which one cc
    # means by struct rip__frame * (*)(void *) is not known, so not guessed
    source = ("#include <rip.h>\nRIP_ASYNC int other(void *p);\n"
              "RIP_ASYNC void worker(int *x) { rip_yield(); (*x)++; }\n"
              "int main(void)\n{\n    int n = 0;\n    return rip_run(worker, &n);\n}\n")
    ripped, plain = compile_both(tmp_path, source, *FLAGS)
    assert "x.c:7:20: warning: passing argument 1 of" in ripped[1]
    assert "void (*)(int *)" in ripped[1]
    assert "expected \u2018struct rip__frame * (*)(void *)\u2019" in ripped[1] or \
        "expected 'struct rip__frame * (*)(void *)'" in ripped[1]


def test_a_bug_in_the_filter_passes_cc_s_words_on_as_they_are(tmp_path, monkeypatch):
    import io
    from ripper import ccmessages

    (tmp_path / "x.c").write_text("int f(void)\n{\n    return i < n;\n}\n")
    ripped = b'# 1 "x.c"\nint f(void)\n{\n    return rip__F->i < rip__F->n;\n}\n'
    err = ("x.c: In function 'rip__resume_f':\n"
           "x.c:3:22: warning: comparison [-Wsign-compare]\n"
           "    3 |     return i < n;\n      |                      ^\n"
           "x.c:3:5: note: the rest\n").encode()
    monkeypatch.chdir(tmp_path)
    out = io.BytesIO()
    ccmessages.translate(io.BytesIO(err), ripped, out)
    assert b"x.c:3:14: warning" in out.getvalue() and b"'f'" in out.getvalue()

    def broken(*args):
        raise RuntimeError("a bug")
    monkeypatch.setattr(ccmessages, "LineMap", broken)
    out = io.BytesIO()
    ccmessages.translate(io.BytesIO(err), ripped, out)
    assert out.getvalue().endswith(err[err.index(b"x.c:3:22"):])
    assert out.getvalue().count(b"\n") == err.count(b"\n")


def test_each_intrinsic_s_note_is_at_its_declaration_once_included(tmp_path):
    # rip_chan_recv and rip_wg_wait are inlined as the runtime's
    # rip__chan_recv_try, rip__wg_wait_try (struct rip_wg *): their notes
    # are rip.h's lines, its types as rip.h spells them (rip_wg *), and
    # "In file included from" once, as cc says it
    source = HEAD + ("RIP_ASYNC int task(rip_chan *c, int i)\n{\n    rip_sleep_ms(1);\n"
                     "    rip_chan_recv(c, 5);\n    rip_wg_wait(i);\n    return i;\n}\n") + TAIL
    ripped, plain = compile_both(tmp_path, source, *FLAGS)
    assert plain[1].count("In file included from") == 1
    assert "expected \u2018rip_wg *\u2019" in plain[1] or "expected 'rip_wg *'" in plain[1]
    assert ripped == plain


def test_an_unused_parameter_of_an_async_function_is_warned_of(tmp_path):
    # the constructor takes x and, the body never naming it, leaves it
    # unused as the user's function does: cc's warning, in 'task' (once),
    # first, as the constructor comes before the body (cc: after it)
    source = HEAD + ("RIP_ASYNC int task(int x, int y)\n{\n    int set = 0;\n"
                     "    rip_sleep_ms(1);\n    set = 2;\n    return y;\n}\n") + TAIL
    ripped, plain = compile_both(tmp_path, source, *FLAGS)
    unused = "x.c:4:24: warning: unused parameter"
    assert unused in plain[1] and unused in ripped[1]
    def warnings(text):
        return sorted(line for line in text.splitlines() if ": warning:" in line)
    assert warnings(ripped[1]) == warnings(plain[1])
    assert ripped[1].count("In function") == 1
    # a parameter named only as (void)x: no warning, as cc
    source = source.replace("int set = 0;", "int set = 0;\n    (void)x;")
    ripped, plain = compile_both(tmp_path, source, *FLAGS)
    assert "unused parameter" not in plain[1] and "unused parameter" not in ripped[1]


def test_a_warning_in_a_macro_s_expansion_is_inside_its_call(tmp_path):
    # cc names the macro's definition and "in expansion of macro"; the
    # ripped line is the expansion: its message stays on the user's line,
    # within the macro's call, the caret under the column it gives (a gap)
    import re
    source = HEAD + ("#define LESS(a, b) ((a) < (b))\nRIP_ASYNC int task(unsigned n)\n{\n"
                     "    int i = 0;\n    rip_sleep_ms(1);\n    if (LESS(i, n)) i++;\n"
                     "    return i;\n}\n") + TAIL
    ripped, plain = compile_both(tmp_path, source, *FLAGS)
    assert "x.c:9:9: note: in expansion of macro" in plain[1]
    m = re.search(r"x\.c:9:(\d+): warning: comparison", ripped[1])
    assert m and 9 <= int(m.group(1)) <= 18
    caret = ripped[1].splitlines()[ripped[1].splitlines().index(
        m.group() + ripped[1].split(m.group())[1].splitlines()[0]) + 2]
    assert caret.index("^") - caret.index("|") - 1 == int(m.group(1))


def test_on_a_terminal_the_colours_are_cc_s(tmp_path):
    # cc writes into ripcc's pipe now: ripcc asks it for the colours it
    # would have given the terminal (script(1) makes one)
    import shlex
    import shutil
    if shutil.which("script") is None:
        pytest.skip("no script(1) to make a terminal")
    (tmp_path / "x.c").write_text(HEAD + CASES["int-conversion"] + TAIL)
    out = []
    for backend in ("rip", "ucontext"):
        command = " ".join(shlex.quote(a) for a in [RIPCC, "--backend=" + backend, "-Wall",
                                                    "-c", "x.c", "-o", backend + ".o"])
        env = dict(os.environ, TERM="xterm")
        env.pop("NO_COLOR", None)
        r = run(["script", "-qec", command, str(tmp_path / "typescript")], cwd=str(tmp_path),
                env=env, stdin=subprocess.DEVNULL)
        out.append(r.stdout)
    assert b"\x1b[01;35m\x1b[Kwarning: " in out[1]
    assert out[0] == out[1]


# -- what cc says of the user's source (ripcc.py _as_cc_says) ----------------

def compile_plainly_said(tmp_path, source, *flags):
    """(status, stderr, object made?) of ripcc on rip and on ucontext (cc's
    own words on the source), compiling `source` as x.c with `flags`."""
    (tmp_path / "x.c").write_text(source)
    out = []
    for backend in ("rip", "ucontext"):
        obj = tmp_path / (backend + ".o")
        r = run([RIPCC, "--backend=" + backend] + list(flags) + ["-c", "x.c", "-o", obj.name],
                cwd=str(tmp_path))
        out.append((r.returncode, r.stderr.decode("utf-8", "replace"), obj.exists()))
    return out


MACRO_ADDRESS = ("#include <rip.h>\n#include <stddef.h>\n"
                 "#define SET(o, n) ((o != NULL) ? set(o, n) : (n))\n"
                 "struct s { double d; };\n"
                 "static double set(struct s *o, double n) { o->d = n; return n; }\n"
                 "static double last;\n"
                 "static void task(void *a)\n{\n    struct s item[1];\n    (void)a;\n"
                 "    rip_yield();\n    last = SET(item, 2.0);\n}\n"
                 "int main(void) { return rip_run(task, NULL) || last != 2.0; }\n")


def test_a_warning_gcc_spares_a_macro_s_expansion_is_spared_ripped_too(tmp_path):
    """cJSON_SetNumberValue(item, ...) on an array: gcc spares -Waddress
    inside a macro's expansion, but the ripped text is preprocessed, where
    it no longer knows, and -Werror failed the rip build alone."""
    (rip, plain) = compile_plainly_said(tmp_path, MACRO_ADDRESS, "-Wall", "-Werror")
    assert plain == (0, "", True)
    assert rip == plain


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_messages_are_those_cc_gives_the_source(tmp_path, case):
    rip, plain = compile_plainly_said(tmp_path, HEAD + CASES[case] + TAIL, *FLAGS)
    assert plain[1] and rip == plain


def test_a_warning_made_an_error_fails_as_with_cc_and_leaves_no_object(tmp_path):
    rip, plain = compile_plainly_said(tmp_path, HEAD + CASES["sign-compare"] + TAIL,
                                      *(FLAGS + ["-Werror"]))
    assert plain[0] == 1 and not plain[2] and "[-Werror=sign-compare]" in plain[1]
    assert rip == plain


def test_the_plain_compile_writes_no_dependency_file_of_its_own(tmp_path):
    (tmp_path / "x.c").write_text(HEAD + CASES["sign-compare"] + TAIL)
    r = run([RIPCC, "-Wall", "-Wextra", "-MD", "-c", "x.c", "-o", "x.o"], cwd=str(tmp_path))
    assert r.returncode == 0 and "Wsign-compare" in r.stderr.decode()
    deps = (tmp_path / "x.d").read_text()
    assert deps.startswith("x.o:") and "ripcc-" not in deps
    assert sorted(p.name for p in tmp_path.iterdir()) == ["x.c", "x.d", "x.o"]

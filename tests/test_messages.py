"""Messages in the user's terms (issue 23, items 13 and 15): code the
compiler rejects gets the compiler's own errors, exactly as cc prints
them, not libclang's with a note about ripper; a note that ripper cannot
read some C only where the compiler accepts it."""
import os

import pytest

from conftest import RIPCC, RIPPER, ROOT, run

INCLUDE = os.path.join(ROOT, "runtime", "include")

# Code gcc rejects too: libclang's errors, with ripper's note, would say
# ripper is to blame.
REJECTED = {
    "syntax_error": "#include <rip.h>\n"
                    "static int twice(int x) {\n"
                    "    rip_yield();\n"
                    "    return x +;\n"
                    "}\n"
                    "static void task(void *arg) { (void)arg; twice(1); }\n"
                    "int main(void) { return rip_run(task, 0); }\n",
    "undeclared": "#include <rip.h>\n"
                  "static void task(void *arg) {\n"
                  "    (void)arg;\n"
                  "    rip_yield();\n"
                  "    counter += 1;\n"
                  "}\n"
                  "int main(void) { return rip_run(task, 0); }\n",
}
# GNU C's parameter forward declaration: gcc accepts it, libclang does not.
FORWARD_PARAMETER = ("int sum(int n; int a[n], int n) {\n"
                     "    int s = 0;\n"
                     "    for (int i = 0; i < n; i++)\n"
                     "        s += a[i];\n"
                     "    return s;\n"
                     "}\n"
                     "int main(void) { int a[2] = {1, 2}; return sum(a, 2) - 3; }\n")
CANNOT_READ = ("fwd.c:1:14: note: cc accepts this code, but libclang, which ripper parses "
               "with, rejects it: it is C ripper cannot read yet")


def cc_errors(tmp_path, name, *flags, **kw):
    """cc's own verdict on `name` as a plain build compiles it."""
    return run(["cc", "-I", INCLUDE, "-fsyntax-only"] + list(flags) + [name], cwd=str(tmp_path),
               **kw)


@pytest.mark.parametrize("case", sorted(REJECTED))
def test_ripcc_shows_the_compilers_errors_for_code_it_rejects(tmp_path, case):
    (tmp_path / "bad.c").write_text(REJECTED[case])
    cc = cc_errors(tmp_path, "bad.c", "-O2")
    assert cc.returncode == 1 and b"error:" in cc.stderr
    r = run([RIPCC, "-O2", "-c", "bad.c", "-o", "bad.o"], cwd=str(tmp_path))
    assert (r.returncode, r.stderr.decode()) == (1, cc.stderr.decode())
    assert not (tmp_path / "bad.o").exists()


@pytest.mark.parametrize("case", sorted(REJECTED))
def test_ripper_shows_the_compilers_errors_for_code_it_rejects(tmp_path, case):
    (tmp_path / "bad.c").write_text(REJECTED[case])
    cc = cc_errors(tmp_path, "bad.c", "-DUNUSED=1")
    r = run([RIPPER, "-DUNUSED=1", "bad.c", "-o", "bad.rip.c"], cwd=str(tmp_path))
    assert (r.returncode, r.stderr.decode()) == (1, cc.stderr.decode())
    assert not (tmp_path / "bad.rip.c").exists()


def test_ripcc_from_standard_input_shows_the_compilers_errors(tmp_path):
    source = REJECTED["syntax_error"].encode()
    cc = run(["cc", "-I", INCLUDE, "-fsyntax-only", "-x", "c", "-"], input=source)
    r = run([RIPCC, "-x", "c", "-c", "-", "-o", str(tmp_path / "in.o")], input=source)
    assert (r.returncode, r.stderr.decode()) == (1, cc.stderr.decode())
    assert b"<stdin>:4:15: error:" in r.stderr


def test_an_error_the_compilers_flags_make_is_the_compilers(tmp_path):
    """-pedantic-errors: gcc rejects the nested function libclang cannot
    read; the user sees gcc's reason, not ripper's."""
    (tmp_path / "nest.c").write_text("int main(void) {\n"
                                     "    int inc(int y) { return y + 1; }\n"
                                     "    return inc(-1);\n"
                                     "}\n")
    cc = cc_errors(tmp_path, "nest.c", "-std=gnu11", "-pedantic-errors")
    r = run([RIPCC, "-std=gnu11", "-pedantic-errors", "-c", "nest.c"], cwd=str(tmp_path))
    assert (r.returncode, r.stderr.decode()) == (1, cc.stderr.decode())
    r = run([RIPCC, "-c", "nest.c"], cwd=str(tmp_path))      # gcc's default: accepted
    assert r.returncode == 1
    assert "nest.c:2:20: error: nested function (a GNU extension libclang does not read)" \
        in r.stderr.decode()


@pytest.mark.parametrize("tool", ["ripcc", "ripper"])
def test_code_the_compiler_accepts_and_libclang_rejects_gets_the_note(tmp_path, tool):
    (tmp_path / "fwd.c").write_text(FORWARD_PARAMETER)
    assert run(["cc", "-c", "fwd.c"], cwd=str(tmp_path)).returncode == 0
    (tmp_path / "fwd.o").unlink()
    cmd = [RIPCC, "-c", "fwd.c"] if tool == "ripcc" else [RIPPER, "fwd.c", "-o", "fwd.rip.c"]
    r = run(cmd, cwd=str(tmp_path))
    err = r.stderr.decode()
    assert r.returncode == 1
    assert err.startswith("fwd.c:1:14: error: expected ')'\n"), err
    assert err.count("note: cc accepts this code") == 1 and CANNOT_READ in err, err
    assert not (tmp_path / "fwd.o").exists() and not (tmp_path / "fwd.rip.c").exists()


def test_the_note_names_the_compiler_asked(tmp_path):
    (tmp_path / "fwd.c").write_text(FORWARD_PARAMETER)
    env = dict(os.environ, RIPCC_CC="gcc -w")
    r = run([RIPPER, "fwd.c", "-o", "fwd.rip.c"], cwd=str(tmp_path), env=env)
    assert r.returncode == 1
    assert "note: gcc -w accepts this code, but libclang" in r.stderr.decode()

"""Messages in the user's terms (issue 23, items 13 and 15): code the
compiler rejects gets the compiler's own errors, exactly as cc prints
them, not libclang's with a note about ripper; a note that ripper cannot
read some C only where the compiler accepts it."""
import os
import re

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
    # (--all-async: a file that names nothing of rip.h is not ripped otherwise)
    r = run([RIPCC, "--all-async", "-std=gnu11", "-pedantic-errors", "-c", "nest.c"],
            cwd=str(tmp_path))
    assert (r.returncode, r.stderr.decode()) == (1, cc.stderr.decode())
    r = run([RIPCC, "--all-async", "-c", "nest.c"], cwd=str(tmp_path))  # gcc's default: accepted
    assert r.returncode == 1
    assert "nest.c:2:20: error: nested function (a GNU extension libclang does not read)" \
        in r.stderr.decode()


@pytest.mark.parametrize("tool", ["ripcc", "ripper"])
def test_code_the_compiler_accepts_and_libclang_rejects_gets_the_note(tmp_path, tool):
    (tmp_path / "fwd.c").write_text(FORWARD_PARAMETER)
    assert run(["cc", "-c", "fwd.c"], cwd=str(tmp_path)).returncode == 0
    (tmp_path / "fwd.o").unlink()
    # (ripcc --all-async: a file that names nothing of rip.h is not ripped otherwise)
    cmd = [RIPCC, "--all-async", "-c", "fwd.c"] if tool == "ripcc" else \
        [RIPPER, "fwd.c", "-o", "fwd.rip.c"]
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


# -- refusals name what the user wrote (item 15) -------------------------------

def refusal(tmp_path, source, *flags):
    """ripper's error and note lines (no source quotes, no "In function")
    for `source`."""
    (tmp_path / "t.c").write_text(source)
    r = run([RIPPER] + list(flags) + ["t.c", "-o", "t.rip.c"], cwd=str(tmp_path))
    assert r.returncode == 1, r.stderr.decode()
    assert not (tmp_path / "t.rip.c").exists()
    return [x for x in r.stderr.decode().splitlines() if re.match(r"t\.c:\d", x)]


ASYNC_WORK = ("#include <rip.h>\n"
              "#include <pthread.h>\n"
              "#include <stdlib.h>\n"
              "static void *work(void *arg) { rip_yield(); return arg; }\n"
              "static int cmp(const void *a, const void *b) { rip_yield(); return a != b; }\n")
with open(os.path.join(INCLUDE, "rip.h")) as _h:     # where rip.h declares rip_yield
    RIP_YIELD_AT = "rip.h:%d" % next(i + 1 for i, text in enumerate(_h)
                                     if re.match(r"RIP_ASYNC void\s+rip_yield\(", text))
CHAIN = "'work' calls async 'rip_yield' (line 4); 'rip_yield' marked RIP_ASYNC (%s)" % RIP_YIELD_AT


def test_an_async_function_given_to_rip_offload_is_named_with_offloads_advice(tmp_path):
    lines = refusal(tmp_path, ASYNC_WORK + "static void task(void *arg) {\n"
                    "    void *r = rip_offload(work, arg);\n"
                    "    (void)r;\n"
                    "}\n"
                    "int main(void) { return rip_run(task, 0); }\n")
    assert lines[:2] == [
        "t.c:7:27: error: async function 'work' passed to 'rip_offload', which runs it on "
        "another thread, where it cannot suspend",
        "t.c:7:27: note: rip_offload runs a plain blocking function (a disk read, "
        "getaddrinfo) on a pool thread while the task waits: offload a plain function, and "
        "call 'work' in the task itself; " + CHAIN]


def test_an_async_comparator_given_to_qsort_names_qsort(tmp_path):
    lines = refusal(tmp_path, ASYNC_WORK + "static void task(void *arg) {\n"
                    "    int v[2] = {2, 1};\n"
                    "    (void)arg;\n"
                    "    qsort(v, 2, sizeof v[0], cmp);\n"
                    "}\n"
                    "int main(void) { return rip_run(task, 0); }\n")
    assert lines[:2] == [
        "t.c:9:30: error: async function 'cmp' passed to 'qsort', which calls it as a plain "
        "function",
        "t.c:9:30: note: 'qsort' is not ripped, and a function that may suspend cannot run "
        "inside it: pass a plain function; 'cmp' calls async 'rip_yield' (line 5); "
        "'rip_yield' marked RIP_ASYNC (%s)" % RIP_YIELD_AT]


def test_an_async_start_routine_given_to_pthread_create_names_it(tmp_path):
    lines = refusal(tmp_path, ASYNC_WORK + "static void task(void *arg) {\n"
                    "    pthread_t t;\n"
                    "    pthread_create(&t, 0, work, arg);\n"
                    "}\n"
                    "int main(void) { return rip_run(task, 0); }\n", "-Wno-blocking")
    assert lines[:2] == [
        "t.c:8:27: error: async function 'work' passed to 'pthread_create', whose new thread "
        "runs it as a plain function, where it cannot suspend",
        "t.c:8:27: note: start it as a task with rip_spawn, or give the thread a plain "
        "function (under --posix, pthread_create starts a task); " + CHAIN]


def test_an_async_function_given_to_the_users_own_parameter_says_which(tmp_path):
    lines = refusal(tmp_path, ASYNC_WORK + "static void *apply(void *(*fn)(void *), void *x) "
                    "{ return fn(x); }\n"
                    "static void task(void *arg) { apply(work, arg); }\n"
                    "int main(void) { return rip_run(task, 0); }\n")
    assert lines[:2] == [
        "t.c:7:37: error: async function 'work' passed to 'apply', whose parameter 1 is a "
        "plain function pointer ('void *(*)(void *)')",
        "t.c:7:37: note: declare that parameter with a RIP_ASYNC_FN type (rip.h), so that "
        "'apply' calls it as an async function, or pass a plain function; " + CHAIN]


def test_an_async_function_stored_in_a_plain_pointer_says_so(tmp_path):
    lines = refusal(tmp_path, ASYNC_WORK + "static void *(*saved)(void *);\n"
                    "static void task(void *arg) { (void)arg; saved = work; }\n"
                    "int main(void) { return rip_run(task, 0); }\n")
    assert lines[:2] == [
        "t.c:7:50: error: async function 'work' used where a plain function pointer "
        "('void *(*)(void *)') is expected",
        "t.c:7:50: note: a function that may suspend cannot be called through a plain "
        "pointer: declare the pointer's type with RIP_ASYNC_FN (rip.h), or use a plain "
        "function; " + CHAIN]


JUMPS = ("#include <rip.h>\n"
         "#include <setjmp.h>\n"
         "#include <alloca.h>\n"
         "#define SAVE(e) setjmp(e)\n"
         "static jmp_buf env;\n"
         "static sigjmp_buf senv;\n")


@pytest.mark.parametrize("call, name", [
    ("setjmp(env)", "'setjmp'"),
    ("sigsetjmp(senv, 1)", "'sigsetjmp'"),
    ("_setjmp(env)", "'_setjmp'"),
    ("alloca(8) != 0", "'alloca'"),
    ("SAVE(env)", "'setjmp' (in the expansion of macro 'SAVE')"),
])
@pytest.mark.parametrize("flags", [(), ("-O2", "-D_FORTIFY_SOURCE=2")])
def test_a_refused_call_is_named_as_the_user_wrote_it(tmp_path, call, name, flags):
    """glibc's setjmp is a macro for _setjmp, sigsetjmp for __sigsetjmp,
    alloca for __builtin_alloca: the message says what the source says."""
    lines = refusal(tmp_path, JUMPS + "static void task(void *arg) {\n"
                    "    (void)arg;\n"
                    "    if (%s) return;\n"
                    "    rip_yield();\n"
                    "}\n"
                    "int main(void) { return rip_run(task, 0); }\n" % call, *flags)
    assert lines[0] == "t.c:9:9: error: %s in async function 'task'" % name


def test_longjmp_fortified_is_named_longjmp(tmp_path):
    lines = refusal(tmp_path, JUMPS + "static void task(void *arg) {\n"
                    "    (void)arg;\n"
                    "    rip_yield();\n"
                    "    longjmp(env, 1);\n"
                    "}\n"
                    "int main(void) { return rip_run(task, 0); }\n", "-O2", "-D_FORTIFY_SOURCE=2")
    assert lines[0] == "t.c:10:5: error: 'longjmp' in async function 'task'"


def test_all_async_names_what_stays_plain_as_written(tmp_path):
    (tmp_path / "t.c").write_text("#include <setjmp.h>\n"
                                  "static jmp_buf env;\n"
                                  "static int jumps(void) { if (setjmp(env)) return 1; return 0; }\n"
                                  "int main(void) { return jumps(); }\n")
    r = run([RIPCC, "--all-async", "-v", "-c", "t.c"], cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr.decode()
    assert "'setjmp' in async function 'jumps'" in r.stderr.decode(), r.stderr.decode()

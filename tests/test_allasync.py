"""--all-async must mean what it says: any C program the user's compiler
builds behaves the same when every function in it is ripped.

Every tests/allasync/NAME.c, and every folder tests/allasync/NAME/ whose .c
files link into one program, is built with plain cc and with
`ripcc --all-async`; both run and must exit with the same status and print
the same stdout.  A line `/* cflags: ... */` gives both builds the
program's dialect (-std=gnu89...); with several such lines the program is
tried once with each (`/* cflags: */` is the compiler's default).  A
program plain cc does not build is skipped: ripper must accept what the
user's compiler accepts, not more.

Also: the ripped output compiles and runs under every -std from c89 to c2x,
strict and gnu, and a run reports how many functions it ripped and names
each one it left plain, with the reason."""
import glob
import os
import re

import pytest

from conftest import RIPCC, RIPPER, ROOT, prebuild, run, selected_params

DIR = os.path.join(ROOT, "tests", "allasync")
PROGRAMS = sorted(glob.glob(os.path.join(DIR, "*.c")) +
                  [d for d in glob.glob(os.path.join(DIR, "*")) if os.path.isdir(d)])
STDS = ("c89", "c99", "c11", "c17", "c2x", "gnu89", "gnu2x")


def sources(program):
    """The .c files of a program (a file, or a folder of them)."""
    if os.path.isdir(program):
        return sorted(glob.glob(os.path.join(program, "*.c")))
    return [program]


def variants(program):
    """(program, flags) for each `/* cflags: ... */` line of its files, or
    once with no flags."""
    lines = []
    for src in sources(program):
        with open(src) as f:
            lines += re.findall(r"^/\* cflags:(.*?)\*/", f.read(), re.M)
    return [(program, line.split()) for line in lines] or [(program, [])]


def variant_id(variant):
    program, flags = variant
    return ":".join([os.path.basename(program)] + [f.lstrip("-") for f in flags])


# command words -> (the program, the build's subprocess result): the
# builds the module's prebuild fixture made side by side
BUILT = {}


def build_and_run(cmd, exe):
    """(exit status, stdout) of the program `cmd` builds into `exe` (or
    built already, before the first test), or (None, the compiler's
    messages) when it does not build."""
    exe, r = BUILT.get(tuple(cmd)) or (exe, run(cmd + ["-o", exe], timeout=300))
    if r.returncode != 0:
        return None, r.stdout + r.stderr
    r = run([exe], timeout=30)
    return r.returncode, r.stdout


def plain_and_ripped(program, flags):
    """The commands that build `program` with plain cc and ripcc --all-async."""
    srcs = sources(program)
    return ["cc", "-O2"] + flags + srcs, [RIPCC, "--all-async", "-O2"] + flags + srcs


@pytest.fixture(scope="module", autouse=True)
def variants_built_side_by_side(request, tmp_path_factory):
    """The selected variants' plain and ripped builds, made before the
    first test (conftest.prebuild), a program each; build_and_run takes
    them."""
    out = tmp_path_factory.mktemp("allasync")
    chosen = selected_params(request, "test_all_async_build_behaves_like_the_plain_build")
    jobs = [(cmd, str(out / ("%d-%d" % (i, j))))
            for i, p in enumerate(chosen) for j, cmd in enumerate(plain_and_ripped(*p["variant"]))]

    def one(job):
        cmd, exe = job
        BUILT[tuple(cmd)] = exe, run(cmd + ["-o", exe], timeout=300)
    prebuild(one, jobs)


def compare_with_plain_cc(program, flags, tmp_path):
    """The plain cc build and the --all-async build behave the same."""
    plain, ripped = plain_and_ripped(program, flags)
    status, out = build_and_run(plain, str(tmp_path / "plain"))
    if status is None:
        pytest.skip("plain cc does not build it:\n" + out.decode(errors="replace")[-2000:])
    rip_status, rip_out = build_and_run(ripped, str(tmp_path / "ripped"))
    assert rip_status is not None, "ripcc --all-async failed:\n" + \
        rip_out.decode(errors="replace")[-4000:]
    assert (rip_status, rip_out) == (status, out)


@pytest.mark.parametrize("variant", [v for p in PROGRAMS for v in variants(p)], ids=variant_id)
def test_all_async_build_behaves_like_the_plain_build(variant, tmp_path):
    compare_with_plain_cc(variant[0], variant[1], tmp_path)


@pytest.mark.parametrize("std", STDS)
@pytest.mark.parametrize("program", ["c89_clean_recursion_and_structs.c",
                                     "qsort_comparator_calls_helper.c",
                                     "const_local_of_unnamed_or_block_type_initialized.c"])
def test_all_async_output_compiles_in_every_dialect(program, std, tmp_path):
    compare_with_plain_cc(os.path.join(DIR, program),
                          ["-std=" + std, "-Wall", "-Wextra", "-Werror"], tmp_path)


@pytest.mark.parametrize("std", STDS)
def test_rip_backend_output_compiles_in_every_dialect(std, tmp_path):
    """A program against rip.h, written in C89, on the rip backend."""
    source = os.path.join(ROOT, "tests", "programs", "yield_round_robin.c")
    status, out = build_and_run([RIPCC, "--backend=rip", "-std=" + std, "-O2", "-Wall",
                                 "-Wextra", "-Werror", source], str(tmp_path / "prog"))
    assert status is not None, out.decode(errors="replace")[-4000:]
    with open(source[:-2] + ".expected", "rb") as f:
        assert (status, out) == (0, f.read())


def test_all_async_calls_its_helpers_out_of_line_and_hides_the_switch(tmp_path):
    """--all-async includes the frame ABI with the helpers of a ripped call
    out of line (a fifth less compile time on a large file), under a macro
    the user's code never sees: it builds with -Werror (an unused helper
    is no warning) and means what cc makes of it."""
    source = tmp_path / "macro.c"
    source.write_text("#include <stdio.h>\n"
                      "#ifdef RIP__ALL_ASYNC\n#error the runtime switch leaked\n#endif\n"
                      "static int twice(int x) { return 2 * x; }\n"
                      "int main(void) { printf(\"%d\\n\", twice(21)); return 0; }\n")
    r = run([RIPPER, "--all-async", str(source), "-o", str(tmp_path / "out.c")])
    assert r.returncode == 0, r.stderr.decode()
    text = (tmp_path / "out.c").read_text()
    assert re.search(r"__noinline__.*\n?\s*int rip__call\(", text), "rip__call still inline"
    compare_with_plain_cc(str(source), ["-std=c99", "-Wall", "-Wextra", "-Werror"], tmp_path)


def test_all_async_refuses_a_program_that_starts_its_own_scheduler(tmp_path):
    """--all-async runs main as the first task: a rip_run in the program
    would start a scheduler inside it (it aborted at run time, or failed
    to link at -O0); refused at the call, with what to do."""
    source = tmp_path / "own.c"
    source.write_text('#include "rip.h"\n'
                      "static void work(void *arg) { (void)arg; rip_yield(); }\n"
                      "int main(void) { return rip_run(work, 0); }\n")
    r = run([RIPCC, "--all-async", str(source), "-o", str(tmp_path / "own")])
    err = r.stderr.decode()
    assert r.returncode == 1, err
    assert "own.c:3:25: error: 'rip_run' under --all-async, where main runs as the first task " \
        "already" in err
    assert "build without --all-async" in err


def test_all_async_reports_what_it_left_plain(tmp_path):
    """left_plain_functions_reported.c: seven functions; guarded (setjmp)
    stays plain, the six others are ripped: sum_vla (its VLA holds no
    suspension) and by_value (qsort calls its plain definition, which every
    ripped function keeps) among them.  The run says so."""
    source = os.path.join(DIR, "left_plain_functions_reported.c")
    r = run([RIPPER, "--all-async", "--stats", source, "-o", str(tmp_path / "out.c")])
    err = r.stderr.decode()
    assert r.returncode == 0, err
    lines = err.splitlines()
    assert any(re.search(r"\b6 of 7 functions ripped\b", l) for l in lines), err
    assert any(re.search(r"\bguarded\b", l) and re.search(r"setjmp", l) for l in lines), err
    assert not any(re.search(r"\b(sum_vla|by_value)\b", l) for l in lines
                   if "left plain" in l), err


def test_all_async_reports_only_when_asked(tmp_path):
    """The report is --stats's (ripcc's -v): without it, a rip says
    nothing, as a compile says nothing."""
    source = os.path.join(DIR, "left_plain_functions_reported.c")
    r = run([RIPPER, "--all-async", source, "-o", str(tmp_path / "out.c")])
    assert (r.returncode, r.stderr) == (0, b""), r.stderr.decode()
    assert b"rip__new_guarded" not in (tmp_path / "out.c").read_bytes()   # still left plain

def test_a_static_local_and_the_type_its_declaration_declares_move_together(tmp_path):
    """window_update's `static const struct WindowUpdate {...} aUp[]` (SQLite's
    shape) moves to file scope with its type, for the plain and ripped
    definitions to share: every function is ripped.  A static of a type
    declared by another statement of the function cannot move (the type
    stays behind): the report names the static and says why."""
    source = os.path.join(DIR, "array_of_block_type_completed_by_initializer.c")
    r = run([RIPPER, "--all-async", "--stats", source, "-o", str(tmp_path / "out.c")])
    err = r.stderr.decode()
    assert r.returncode == 0, err
    assert re.search(r"\b4 of 4 functions ripped\b", err), err
    source = os.path.join(DIR, "static_local_of_a_type_declared_apart.c")
    r = run([RIPPER, "--all-async", "--stats", source, "-o", str(tmp_path / "out.c")])
    err = r.stderr.decode()
    assert r.returncode == 0, err
    assert re.search(r"lookup: static local 'table' of a type declared in 'lookup'", err), err


def test_names_like_rippers_own_are_the_programs(tmp_path):
    """names_like_rippers_own.c uses ripper's former names (rip_F, rip_t1,
    rip_resume_1, rip_main_task...) as its own locals, labels, parameters,
    globals and functions: every function is ripped, none refused or left
    plain (ripper's names are all `rip__...`, which rip.h reserves)."""
    source = os.path.join(DIR, "names_like_rippers_own.c")
    r = run([RIPPER, "--all-async", "--stats", source, "-o", str(tmp_path / "out.c")])
    err = r.stderr.decode()
    assert r.returncode == 0, err
    assert re.search(r"\b7 of 7 functions ripped\b", err), err


def test_all_async_reads_attributes_not_initializers(tmp_path):
    """attribute_names_in_initializers_are_not_attributes.c: `int n
    __attribute__((unused)) = cleanup_count();` has no cleanup attribute,
    so main is ripped like the others (it was left plain, "cleanup
    attribute on local 'n'"); a real cleanup attribute is still refused
    (tests/unrippable/cleanup_attr.c)."""
    source = os.path.join(DIR, "attribute_names_in_initializers_are_not_attributes.c")
    r = run([RIPPER, "--all-async", "--stats", source, "-o", str(tmp_path / "out.c")])
    err = r.stderr.decode()
    assert r.returncode == 0, err
    assert re.search(r"\b4 of 4 functions ripped\b", err), err


def test_storage_classes_come_from_the_declaration_not_its_text(tmp_path):
    """storage_class_words_inside_a_local_types_text.c: "register auto" in a
    string of a local type's declaration is no storage class, so f is ripped
    (it was left plain: "with a storage class ripper cannot keep")."""
    source = os.path.join(DIR, "storage_class_words_inside_a_local_types_text.c")
    r = run([RIPPER, "--all-async", "--stats", source, "-o", str(tmp_path / "out.c")])
    err = r.stderr.decode()
    assert r.returncode == 0, err
    assert re.search(r"\b3 of 3 functions ripped\b", err), err

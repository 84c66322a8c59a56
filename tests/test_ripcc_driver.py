"""ripcc takes cc's command line and means what cc means by it: argument
order, -E, -S, dependency files, stdin, questions for the compiler; its
own options misspelt are errors, not flags for cc."""
import os
import shutil
import subprocess

import pytest

from conftest import BACKENDS, RIPCC, ROOT, SAN, run

PROJECT = os.path.join(ROOT, "tests", "buildsys")


@pytest.fixture
def project(tmp_path):
    work = tmp_path / "p"
    shutil.copytree(PROJECT, str(work))
    return work


def ripcc(work, *args, **kw):
    return run([RIPCC] + list(args), cwd=str(work), **kw)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_library_after_the_sources_links_as_with_cc(project, backend):
    assert run(["cc", "-c", "extra.c", "-o", "extra.o"], cwd=str(project)).returncode == 0
    assert run(["ar", "rcs", "libextra.a", "extra.o"], cwd=str(project)).returncode == 0
    r = ripcc(project, "--backend=" + backend, "main.c", "counter.c", "libextra.a", "-lm",
              "-o", "prog")
    assert r.returncode == 0, r.stderr.decode()
    assert run([str(project / "prog")]).stdout == b"sum 45, root 9.0\n"


def test_dash_E_preprocesses_to_standard_output_with_rip_h_found(project):
    r = ripcc(project, "-E", "counter.c")
    assert r.returncode == 0, r.stderr.decode()
    assert b"count_to" in r.stdout and b"rip_yield" in r.stdout
    assert not os.path.exists(str(project / "a.out"))


def test_dash_S_writes_assembly_named_for_the_source(project):
    r = ripcc(project, "-S", "counter.c")
    assert r.returncode == 0, r.stderr.decode()
    assert b"count_to" in (project / "counter.s").read_bytes()
    assert not os.path.exists(str(project / "a.out"))


@pytest.mark.parametrize("backend", BACKENDS)
def test_dependency_files_name_the_users_files_and_object(project, backend):
    r = ripcc(project, "--backend=" + backend, "-MMD", "-c", "counter.c", "-o", "obj/c.o")
    assert r.returncode != 0            # obj/ does not exist: cc's own error
    (project / "obj").mkdir()
    r = ripcc(project, "--backend=" + backend, "-MMD", "-c", "counter.c", "-o", "obj/c.o")
    assert r.returncode == 0, r.stderr.decode()
    deps = (project / "obj" / "c.d").read_text()
    assert deps.startswith("obj/c.o:")
    assert "counter.c" in deps and "config.h" in deps and "counter.h" in deps
    assert "ripcc-" not in deps and ".i" not in deps.split(":")[1].split()


def test_a_source_on_standard_input_with_dash_x_c(project):
    source = (project / "extra.c").read_bytes()
    r = ripcc(project, "-x", "c", "-", "-c", "-o", "stdin.o", input=source)
    assert r.returncode == 0, r.stderr.decode()
    assert b"root" in run(["nm", str(project / "stdin.o")]).stdout


def test_questions_for_the_compiler_are_the_compilers_answers(project):
    assert ripcc(project, "-dumpversion").stdout == run(["cc", "-dumpversion"]).stdout
    assert ripcc(project, "-dumpmachine").stdout == run(["cc", "-dumpmachine"]).stdout


def test_dash_v_shows_the_ripping_step(project):
    r = ripcc(project, "-v", "-c", "counter.c")
    assert r.returncode == 0
    assert b"ripcc: ripper" in r.stderr


def test_a_misspelt_ripcc_option_is_an_error_before_anything_runs(project):
    r = ripcc(project, "--bakend=ucontext", "main.c")
    assert r.returncode == 2
    assert b"did you mean '--backend'" in r.stderr
    assert not os.path.exists(str(project / "a.out"))


def test_all_async_on_another_backend_is_an_error(project):
    r = ripcc(project, "--backend=ucontext", "--all-async", "extra.c", "-c")
    assert r.returncode == 2 and b"--all-async" in r.stderr


def test_help_into_a_closed_pipe_is_quiet(project):
    r = run(["sh", "-c", "'%s' --help | head -1" % RIPCC], cwd=str(project))
    assert r.stdout.startswith(b"usage: ripcc") and b"Traceback" not in r.stderr


def test_print_flags_build_a_program_without_ripcc(project):
    cflags = ripcc(project, "--backend=ucontext", "--cflags").stdout.decode().split()
    libs = ripcc(project, "--backend=ucontext", "--libs").stdout.decode().split()
    r = run(["cc"] + cflags + ["main.c", "counter.c", "extra.c", "-o", "prog", "-lm"] + libs,
            cwd=str(project))
    assert r.returncode == 0, r.stderr.decode()
    assert run([str(project / "prog")]).stdout == b"sum 45, root 9.0\n"


MISSING_RIP_ASYNC = b"""#include <stdio.h>
#include "rip.h"
int count_to(int n);            /* the definition is RIP_ASYNC; this is not */
static void task(void *arg) { (void)arg; printf("%d\\n", count_to(3)); }
int main(void) { return rip_run(task, 0); }
"""


def test_an_async_function_declared_without_rip_async_is_named_at_the_call(project):
    (project / "caller.c").write_bytes(MISSING_RIP_ASYNC)
    r = ripcc(project, "-g", "caller.c", "counter.c", "-o", "prog")
    assert r.returncode != 0
    err = r.stderr.decode()
    assert "caller.c:4: error: 'count_to' is async (ripped in counter.c), but is called " \
        "through a declaration without RIP_ASYNC" in err, err
    assert "caller.c:3: note: this declaration of 'count_to' lacks RIP_ASYNC" in err, err


def test_a_header_declaring_an_async_function_without_rip_async_is_named(project):
    (project / "plain.h").write_text("int count_to(int n);\n")
    (project / "caller.c").write_bytes(MISSING_RIP_ASYNC.replace(
        b"int count_to(int n);", b'#include "plain.h"'))
    for step in (["-c", "caller.c"], ["-c", "counter.c"]):
        assert ripcc(project, *step).returncode == 0
    r = ripcc(project, "caller.o", "counter.o", "-o", "prog")
    assert r.returncode != 0
    assert "plain.h:1: note: this declaration of 'count_to' lacks RIP_ASYNC" in \
        r.stderr.decode(), r.stderr.decode()


@pytest.mark.parametrize("objects", [("ucontext", "rip"), ("rip", "threads")])
def test_objects_of_another_backend_are_refused_at_link(project, objects):
    first, second = objects
    assert ripcc(project, "--backend=" + first, "-c", "main.c").returncode == 0
    assert ripcc(project, "--backend=" + second, "-c", "counter.c").returncode == 0
    assert ripcc(project, "--backend=" + second, "-c", "extra.c").returncode == 0
    r = ripcc(project, "--backend=" + second, "main.o", "counter.o", "extra.o", "-lm",
              "-o", "prog")
    assert r.returncode == 1
    assert ("this link is for the %s backend, but main.o was built for %s"
            % (second, first)).encode() in r.stderr
    assert not os.path.exists(str(project / "prog"))


def test_dash_MM_prints_the_users_dependencies_only(project):
    r = ripcc(project, "-MM", "counter.c")
    assert r.returncode == 0, r.stderr.decode()
    # cc wraps long lines with " \\": a long path to rip.h starts a new line
    deps = [d for d in r.stdout.decode().split() if d != "\\"]
    assert deps[:4] == ["counter.o:", "counter.c", "config.h", "counter.h"]
    assert [os.path.basename(d) for d in deps[4:]] == ["rip.h"]    # found by ripcc's -I


def test_save_temps_keeps_the_ripped_text(project):
    r = ripcc(project, "-save-temps", "-c", "counter.c")
    assert r.returncode == 0, r.stderr.decode()
    assert b"rip__new_count_to" in (project / "counter.rip.i").read_bytes()


def test_dash_hash_shows_every_step_and_runs_none(project):
    r = ripcc(project, "-###", "main.c", "counter.c", "extra.c", "-lm", "-o", "prog")
    assert b"ripcc: ripper" in r.stderr
    assert not os.path.exists(str(project / "prog"))


ASSEMBLY = b""".globl answer
answer:
    mov $42, %eax
    ret
.section .note.GNU-stack,"",@progbits
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_assembly_inputs_are_compiled_as_cc_compiles_them(project, backend):
    (project / "answer.S").write_bytes(ASSEMBLY)
    (project / "use.c").write_bytes(b'#include <stdio.h>\nint answer(void);\n'
                                    b'int main(void) { printf("%d\\n", answer()); return 0; }\n')
    r = ripcc(project, "--backend=" + backend, "-c", "use.c", "answer.S")
    assert r.returncode == 0, r.stderr.decode()
    assert b"answer" in run(["nm", str(project / "answer.o")]).stdout
    r = ripcc(project, "--backend=" + backend, "use.o", "answer.o", "-o", "linked")
    assert r.returncode == 0, r.stderr.decode()
    r = ripcc(project, "--backend=" + backend, "use.c", "answer.S", "-o", "direct")
    assert r.returncode == 0, r.stderr.decode()
    for prog in ("linked", "direct"):
        assert run([str(project / prog)]).stdout == b"42\n"


def test_dash_v_alone_is_the_compilers_version(project):
    """zlib's configure looks for "gcc" in `$CC -v`: with no input, ripcc
    hands the command to cc, as cc answers it."""
    r = ripcc(project, "-v")
    assert r.returncode == 0, r.stderr.decode()
    assert b"version" in r.stderr and b"no input files" not in r.stderr


def test_no_input_is_the_compilers_own_error(project):
    r = ripcc(project, "-c")
    assert r.returncode == run(["cc", "-c"]).returncode != 0
    assert b"no input files" in r.stderr


@pytest.mark.parametrize("backend", BACKENDS)
def test_dash_x_c_from_standard_input_links(project, backend):
    """-x c applies to the source, not to the objects the link is given
    (cc once read the runtime library as C: megabytes of errors)."""
    r = ripcc(project, "--backend=" + backend, "-x", "c", "-", "-o", "prog",
              input=b"int main(void) { return 3; }\n", timeout=120)
    assert r.returncode == 0, r.stderr.decode()[:2000]
    assert run([str(project / "prog")]).returncode == 3


def test_dash_x_is_positional_for_each_input(project):
    """A C source under -x c beside assembly under -x assembler, then
    -x none: each input takes the language cc would give it, and no -x is
    left after the last input (cc would warn)."""
    (project / "answer.txt").write_text("int answer(void);\n"
                                        "int main(void) { return answer(); }\n")
    (project / "answer.asm").write_text(".globl answer\nanswer:\n    movl $7, %eax\n    ret\n"
                                        ".section .note.GNU-stack,\"\",@progbits\n")
    r = ripcc(project, "-x", "c", "answer.txt", "-x", "assembler", "answer.asm", "-x", "none",
              "-o", "prog")
    assert r.returncode == 0, r.stderr.decode()
    assert r.stderr == b"", r.stderr.decode()
    assert run([str(project / "prog")]).returncode == 7


@pytest.mark.parametrize("backend", BACKENDS)
def test_fsyntax_only_checks_and_writes_nothing(project, backend):
    before = set(os.listdir(str(project)))
    r = ripcc(project, "--backend=" + backend, "-fsyntax-only", "counter.c")
    assert r.returncode == 0, r.stderr.decode()
    assert set(os.listdir(str(project))) == before
    (project / "bad.c").write_text("int bad(void) { return missing; }\n")
    r = ripcc(project, "--backend=" + backend, "-fsyntax-only", "bad.c")
    assert r.returncode == 1 and b"bad.c:1:" in r.stderr and b"missing" in r.stderr


def test_a_response_file_s_arguments_are_ripcc_s(project):
    """@FILE holds arguments, as for cc: a compile through one is ripped
    (counter.c calls rip_yield: its object has a frame constructor)."""
    (project / "args.rsp").write_text('-c "counter.c"\n-o counter_rsp.o\n')
    r = ripcc(project, "@args.rsp")
    assert r.returncode == 0, r.stderr.decode()
    assert b"rip__new_" in run(["nm", str(project / "counter_rsp.o")]).stdout
    assert not os.path.exists(str(project / "a.out"))


def test_ripcc_as_its_own_compiler_is_an_error_at_once(project):
    env = dict(os.environ, RIPCC_CC=RIPCC)
    r = ripcc(project, "-c", "counter.c", env=env, timeout=60)
    assert r.returncode == 1
    assert b"ripcc was run as the C compiler of ripcc" in r.stderr


def test_a_missing_compiler_is_named(project):
    env = dict(os.environ, RIPCC_CC="nosuchcc")
    r = ripcc(project, "-c", "counter.c", env=env, timeout=60)
    assert r.returncode == 1
    assert b"RIPCC_CC is 'nosuchcc', and 'nosuchcc' is not found" in r.stderr


def test_debug_objects_are_reproducible_and_name_the_users_file(project):
    """-g twice gives byte-identical objects, and their unit (DW_AT_name)
    and file symbol are the user's counter.c, not ripcc's temporary .i
    (before: /tmp/ripcc-XXXX/0-counter.i, a new name every build)."""
    for out in ("a.o", "b.o"):
        r = ripcc(project, "-g", "-c", "counter.c", "-o", out)
        assert r.returncode == 0, r.stderr.decode()
    obj = (project / "a.o").read_bytes()
    assert obj == (project / "b.o").read_bytes()
    assert b"ripcc-" not in obj and b"counter.i" not in obj
    symbols = run(["readelf", "-sW", "a.o"], cwd=str(project)).stdout.decode()
    assert [line.split()[-1] for line in symbols.splitlines() if " FILE " in line] == ["counter.c"]


@pytest.mark.skipif(SAN, reason="AddressSanitizer's globals name the source by its path, "
                    "which -ffile-prefix-map does not map")
def test_objects_built_in_two_folders_are_identical_with_a_file_prefix_map(tmp_path):
    """CMake names sources by absolute paths: with -ffile-prefix-map (as
    reproducible builds use it) the object is the same wherever it is
    built, the dump's table of the source's name (rip_dump_tasks) too."""
    objects = []
    for where in ("one", "two"):
        work = tmp_path / where
        shutil.copytree(PROJECT, str(work))
        r = run([RIPCC, "-g", "-O1", "-ffile-prefix-map=%s=." % work, "-c",
                 str(work / "counter.c"), "-o", str(work / "c.o")], cwd=str(tmp_path))
        assert r.returncode == 0, r.stderr.decode()
        objects.append((work / "c.o").read_bytes())
        assert str(work).encode() not in objects[-1]
    assert b"./counter.c" in objects[0]
    assert objects[0] == objects[1]


def test_a_link_error_names_the_users_file(project):
    """ld names an undefined reference's file by the object's file symbol:
    the user's source, not ripcc's temporary .i (the object's own name is
    a temporary one, as with cc's /tmp/ccXXXX.o)."""
    (project / "undef.c").write_text(
        '#include "rip.h"\nvoid nosuch(void);\n'
        'static void task(void *a) { (void)a; rip_yield(); nosuch(); }\n'
        'int main(void) { return rip_run(task, 0); }\n')
    r = ripcc(project, "undef.c", "-o", "undef")
    err = r.stderr.decode()
    assert r.returncode == 1 and "undefined reference to `nosuch'" in err, err
    assert "undef.c:(.text" in err and ".i:(" not in err, err

@pytest.mark.parametrize("quiet", [[], ["-w"]])
def test_an_all_async_compile_is_as_quiet_as_cc(project, quiet):
    """(It printed "counter.c: --all-async: N of N functions ripped" for
    every file, -w or not: a build's log filled with it.)"""
    args = ["-O2", "-I", os.path.join(ROOT, "runtime", "include"), "-c", "counter.c"] + quiet
    plain = run(["cc"] + args + ["-o", "plain.o"], cwd=str(project))
    r = ripcc(project, "--all-async", *args, "-o", "ripped.o")
    assert (r.returncode, r.stdout, r.stderr) == (0, plain.stdout, plain.stderr) == \
        (0, b"", b""), r.stderr.decode()


def test_dash_v_says_what_all_async_ripped(project):
    r = ripcc(project, "--all-async", "-v", "-c", "counter.c")
    assert r.returncode == 0, r.stderr.decode()
    assert b"counter.c: --all-async: 1 of 1 functions ripped" in r.stderr, r.stderr.decode()


# A file that names nothing of the runtime, whose header gives it an async
# function all the same (RIP_ASYNC and the call behind the project's macros).
SERVER_H = b"""#include "rip.h"
#define ASYNC RIP_ASYNC
#define PAUSE(ms) rip_sleep_ms(ms)
ASYNC void worker(void *arg);
"""
WORKER_C = b"""#include <stdio.h>
#include <unistd.h>
#include "server.h"
ASYNC void worker(void *arg) {
    for (int i = 0; i < 3; i++) {
        PAUSE(1);
        printf("%s %d\\n", (const char *)arg, i);
        if (i == 2) usleep(1);
    }
}
"""
MAIN_C = b"""#include "server.h"
static void both(void *arg) { (void)arg; rip_spawn(worker, "a"); rip_spawn(worker, "b"); }
int main(void) { return rip_run(both, 0); }
"""


def async_through_a_header(tmp_path):
    """worker.c names nothing of the runtime; server.h gives it RIP_ASYNC."""
    for name, text in (("server.h", SERVER_H), ("worker.c", WORKER_C), ("main.c", MAIN_C)):
        (tmp_path / name).write_bytes(text)


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_file_whose_header_alone_names_the_runtime_is_ripped(tmp_path, backend):
    """Files that name nothing of rip.h are compiled as they are, unless
    the headers the compile read could give them an async function: then
    they are ripped (and checked on ucontext) as any other."""
    async_through_a_header(tmp_path)
    r = ripcc(tmp_path, "--backend=" + backend, "-c", "worker.c")
    assert r.returncode == 0, r.stderr.decode()
    warned = "worker.c:8:21: warning: 'usleep' blocks the whole scheduler" in r.stderr.decode()
    assert warned == (backend != "threads"), r.stderr.decode()
    r = ripcc(tmp_path, "--backend=" + backend, "main.c", "worker.o", "-o", "prog")
    assert r.returncode == 0, r.stderr.decode()
    out = run([str(tmp_path / "prog")], timeout=30).stdout
    assert sorted(out.splitlines()) == sorted(b"%s %d" % (w, i) for w in (b"a", b"b") for i in range(3))
    if backend != "threads":            # the contract's order: the same bytes
        assert out == b"a 0\nb 0\na 1\nb 1\na 2\nb 2\n", out


def test_gnu_c_that_libclang_rejects_builds_on_rip_where_nothing_is_async(tmp_path):
    """A nested function (GNU C, which libclang cannot parse) in a file with
    no async function: compiled as cc compiles it, not refused."""
    (tmp_path / "nested.c").write_bytes(b"""#include <stdio.h>
int main(void) {
    int twice(int x) { return 2 * x; }
    printf("%d\\n", twice(21));
    return 0;
}
""")
    r = ripcc(tmp_path, "nested.c", "-o", "nested")
    assert r.returncode == 0, r.stderr.decode()
    assert run([str(tmp_path / "nested")]).stdout == b"42\n"


def test_a_stale_dependency_file_cc_does_not_write_decides_nothing(tmp_path):
    """-MF without -MD or -MMD: cc writes no list (it refuses the command),
    so what the file holds from an older build must not pass for the
    headers this compile read: ripcc fails as cc does, on every backend."""
    async_through_a_header(tmp_path)
    (tmp_path / "worker.d").write_text("worker.o: worker.c /usr/include/stdio.h\n")
    plain = run(["cc", "-I", os.path.join(ROOT, "runtime", "include"), "-MF", "worker.d", "-c",
                 "worker.c"], cwd=str(tmp_path))
    assert plain.returncode != 0
    for backend in BACKENDS:
        r = ripcc(tmp_path, "--backend=" + backend, "-MF", "worker.d", "-c", "worker.c")
        assert r.returncode != 0 and b"-MM" in r.stderr, r.stderr.decode()
        assert not (tmp_path / "worker.o").exists()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("source", ["counter.c", "plain.c"])
def test_a_dependency_list_written_to_standard_output_is_written_there_once(project, backend,
                                                                            source):
    """-MF /dev/stdout, as with cc: the list on ripcc's standard output (on
    rip the preprocessor's own standard output is ripper's pipe: the list
    went into the text ripper parsed)."""
    (project / "plain.c").write_text("#include <stdio.h>\nint two(void) { return 2; }\n")
    r = ripcc(project, "--backend=" + backend, "-MD", "-MF", "/dev/stdout", "-c", source,
              "-o", "x.o")
    assert r.returncode == 0, r.stderr.decode()
    out = r.stdout.decode()
    assert out.startswith("x.o: %s " % source) and out.count("x.o:") == 1, out
    assert (project / "x.o").exists()


def plain_compile_through(tmp_path, backend, wrapper_body):
    """ripcc -c of a plain file with RIPCC_CC a shell script that does
    `wrapper_body`, then runs cc."""
    wrapper = tmp_path / "wrapper-cc"
    wrapper.write_text("#!/bin/sh\n%s\nexec cc \"$@\"\n" % wrapper_body)
    wrapper.chmod(0o755)
    (tmp_path / "plain.c").write_text("int two(void) { return 2; }\n")
    r = ripcc(tmp_path, "--backend=" + backend, "-c", "plain.c",
              env=dict(os.environ, RIPCC_CC=str(wrapper)))
    assert r.returncode == 0, r.stderr.decode()
    assert (tmp_path / "plain.o").exists()
    return r


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_compiler_wrapper_that_keeps_no_descriptor_of_ripccs_builds(tmp_path, backend):
    """RIPCC_CC may compile in another process (sccache's server) or close
    what it inherits: the header list ripcc asks for is a path, which
    means the same there."""
    r = plain_compile_through(tmp_path, backend,
                              "for fd in 3 4 5 6 7 8 9; do eval \"exec $fd>&-\"; done")
    assert r.stderr == b"", r.stderr.decode()


@pytest.mark.parametrize("backend", ["rip", "ucontext"])
def test_an_output_that_is_no_ordinary_file_is_written_once_and_kept(tmp_path, backend):
    """A file ripped after all (its header gives it an async function) is
    not compiled first into an output that cannot be taken back: standard
    output gets the assembly once."""
    async_through_a_header(tmp_path)
    r = ripcc(tmp_path, "--backend=" + backend, "-S", "worker.c", "-o", "-")
    assert r.returncode == 0, r.stderr.decode()
    assert r.stdout.count(b".file\t") == 1, r.stdout.decode()
    # a symlink: the first compile would write its target, a plain object
    (tmp_path / "real.o").write_bytes(b"")
    (tmp_path / "link.o").symlink_to("real.o")
    r = ripcc(tmp_path, "--backend=" + backend, "-c", "worker.c", "-o", "link.o")
    assert r.returncode == 0, r.stderr.decode()
    if backend == "rip":                # (the ripped object is compiled into place)
        assert b"rip__new_worker" in (tmp_path / "link.o").read_bytes()
    for o in ("real.o", "link.o"):      # no plain object anywhere
        data = (tmp_path / o).read_bytes()
        assert backend != "rip" or not data or b"rip__new_worker" in data, o


@pytest.mark.parametrize("backend", ["rip", "ucontext"])
def test_a_dependency_list_without_system_headers_decides_nothing(tmp_path, backend):
    """-MMD leaves system headers out of the list: a header after `#pragma
    GCC system_header` that includes rip.h is one, so the list cannot say
    the file has no async function."""
    async_through_a_header(tmp_path)
    (tmp_path / "server.h").write_bytes(b"#pragma GCC system_header\n" + SERVER_H)
    r = ripcc(tmp_path, "--backend=" + backend, "-MMD", "-c", "worker.c")
    assert r.returncode == 0, r.stderr.decode()
    assert ("'usleep' blocks the whole scheduler" in r.stderr.decode()), r.stderr.decode()
    r = ripcc(tmp_path, "--backend=" + backend, "main.c", "worker.o", "-o", "prog")
    assert r.returncode == 0, r.stderr.decode()
    assert run([str(tmp_path / "prog")], timeout=30).stdout == b"a 0\nb 0\na 1\nb 1\na 2\nb 2\n"


def test_a_dependency_list_into_a_fifo_is_written_once_and_ends(tmp_path):
    (tmp_path / "plain.c").write_text("int two(void) { return 2; }\n")
    os.mkfifo(str(tmp_path / "deps.fifo"))
    reader = subprocess.Popen(["cat", str(tmp_path / "deps.fifo")], stdout=subprocess.PIPE)
    try:
        r = ripcc(tmp_path, "-MD", "-MF", "deps.fifo", "-c", "plain.c", timeout=60)
        assert r.returncode == 0, r.stderr.decode()
        out = reader.communicate(timeout=30)[0].decode()
    finally:
        reader.kill()
    assert out.startswith("plain.o: plain.c") and out.count("plain.o:") == 1, out


@pytest.mark.parametrize("backend", ["rip", "ucontext"])
def test_a_compiler_that_takes_no_dash_md_still_compiles(tmp_path, backend):
    """ripcc's own header list needs -MD; a RIPCC_CC that refuses it (a
    wrapper, an old compiler) compiles as before, its error unseen."""
    r = plain_compile_through(tmp_path, backend, "for a; do [ \"$a\" = -MD ] && "
                              "{ echo 'no-md-cc: -MD?' >&2; exit 1; }; done")
    assert b"-MD?" not in r.stderr, r.stderr.decode()

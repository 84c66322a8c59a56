"""POSIX mode on a program of several files (issue 22: "a function that
calls them becomes async through the call graph"), built as its authors
build it, on the rip backend.

tests/posix_multifile/ is a plain POSIX program: main.c calls serve()
(server.c), which reads lines with read_line() (io.c), which calls read().
Compiled alone, server.c and main.c see only plain declarations, so their
calls are plain; the link rips them again with the other objects' async
functions (ripper/wholeprogram.py): serve is async only through two
levels of files, next_request is a static function made async so.  Built
by one ripcc command, per file with -c then linked, by make's own rules
with CC="ripcc --posix", and through an `ar` archive, the program prints
what its plain cc build prints, and its read() suspends only its task: a
second task (ticker.c, tests only) ticks while main waits for input, which
the test sends only after the ticks."""
import os
import re
import select
import shutil
import subprocess
import time

import pytest

from conftest import RIPCC, ROOT, run

DIR = os.path.join(ROOT, "tests", "posix_multifile")
SOURCES = ("main.c", "server.c", "io.c")
FLAGS = ["-std=gnu11", "-O2", "-Wall", "-Wextra", "-Werror"]
INPUT = b"first line\n\nthird, after an empty one\nlast, with no newline"


def copy_sources(tmp_path):
    """The program's files in a folder of the test's own (a test may change them)."""
    for name in os.listdir(DIR):
        shutil.copy(os.path.join(DIR, name), str(tmp_path / name))
    return tmp_path


def ripcc(cwd, *args):
    return run([RIPCC, "--posix"] + list(args), cwd=str(cwd))


def compile_each(cwd, sources=SOURCES, extra=()):
    for src in sources:
        r = ripcc(cwd, *FLAGS, *extra, "-c", src)
        assert r.returncode == 0, r.stderr.decode()


def build(how, cwd, extra=(), sources=SOURCES):
    """The program built `how` ("one command", "objects", "archive",
    "make") in `cwd` as ./prog; returns ripcc's link's result (its -v
    lines; make's output)."""
    if how == "one command":
        r = ripcc(cwd, "-v", *FLAGS, *extra, *sources, "-o", "prog")
    elif how == "make":             # make's own rules: $(CC) -c per file, then the link
        objects = " ".join(s[:-2] + ".o" for s in sources)
        (cwd / "Makefile").write_text("prog: %s\n\t$(CC) -v $^ -o $@\n" % objects)
        r = run(["make", "-j2", "CC=%s --posix" % RIPCC,
                 "CFLAGS=%s" % " ".join(FLAGS + list(extra))], cwd=str(cwd))
    else:
        compile_each(cwd, sources, extra)
        objects = [s[:-2] + ".o" for s in sources]
        if how == "archive":        # main.o and a library of the rest
            r = run(["ar", "rcs", "libsrv.a"] + objects[1:], cwd=str(cwd))
            assert r.returncode == 0, r.stderr.decode()
            objects = objects[:1] + ["libsrv.a"]
        r = ripcc(cwd, "-v", *objects, "-o", "prog")
    assert r.returncode == 0, r.stderr.decode()
    return r


@pytest.fixture(scope="module")
def plain_output(tmp_path_factory):
    """What the program prints built by cc alone, as its authors build it."""
    d = tmp_path_factory.mktemp("plain")
    r = run(["cc", "-pthread"] + FLAGS + [os.path.join(DIR, s) for s in SOURCES] +
            ["-o", str(d / "prog")])
    assert r.returncode == 0, r.stderr.decode()
    plain = run([str(d / "prog")], input=INPUT, timeout=20)
    assert plain.returncode == 0 and b"4: last, with no newline" in plain.stdout
    return plain.stdout


def defined_functions(exe):
    out = run(["nm", "--defined-only", str(exe)]).stdout.decode().split()
    return set(out[2::3])


def calls_made_by(exe, function):
    """The functions `function` of program `exe` calls (a tail call too),
    by its disassembly."""
    out = run(["objdump", "-d", "--no-show-raw-insn", str(exe)]).stdout.decode()
    body = out.split("<%s>:\n" % function, 1)[1].split("\n\n", 1)[0]
    return set(re.findall(r"(?:call|jmp)\s+[0-9a-f]+ <([^>+@]+)>", body))


@pytest.mark.parametrize("how", ("one command", "objects", "archive", "make"))
def test_a_program_of_several_files_behaves_as_its_plain_build(tmp_path, plain_output, how):
    cwd = copy_sources(tmp_path)
    r = build(how, cwd)
    got = run([str(cwd / "prog")], input=INPUT, timeout=20)
    assert got.stderr == b"", got.stderr.decode()
    assert (got.returncode, got.stdout) == (0, plain_output)
    # ripped, not left plain: main's task calls serve's ripped form (the
    # plain forms stay beside, for plain code)
    defined = defined_functions(cwd / "prog")
    assert {"rip__new_serve", "rip__new_read_line", "checksum"} <= defined
    assert "rip__new_checksum" not in defined
    assert "rip__new_serve" in calls_made_by(cwd / "prog", "rip__resume_main")
    assert ".rip_rerip" not in run(["readelf", "-S", str(cwd / "prog")]).stdout.decode()
    # -v says what was ripped again and why, round by round
    said = r.stderr.decode()
    server = {"one command": "server.c", "archive": "libsrv.a(server.o)"}.get(how, "server.o")
    io = {"one command": "io.c", "archive": "libsrv.a(io.o)"}.get(how, "io.o")
    main = "main.c" if how == "one command" else "main.o"
    assert "%s calls 'read_line' (async in %s) as a plain function: ripping server.c again" \
        % (server, io) in said
    assert "%s: now async: serve" % server in said
    assert "%s calls 'serve' (async in %s) as a plain function: ripping main.c again" \
        % (main, server) in said
    assert said.index("ripping server.c again") < said.index("ripping main.c again")


def test_the_objects_keep_how_to_rip_them_again_and_the_program_does_not(tmp_path):
    cwd = copy_sources(tmp_path)
    compile_each(cwd, ("io.c",))
    from ripper import wholeprogram
    with open(str(cwd / "io.o"), "rb") as f:
        records = wholeprogram.records(f.read())
    assert len(records) == 1
    record = records[0]
    assert record["source"] == "io.c" and record["cwd"] == str(cwd)
    assert [f for f, _ in record["files"]] == ["io.c", "io.h"]     # no system header
    assert "-O2" in record["flags"]
    r = run([RIPCC, "-c", "io.c", "-o", "plain.o"], cwd=str(cwd))     # no --posix: no record
    assert r.returncode == 0
    with open(str(cwd / "plain.o"), "rb") as f:
        assert wholeprogram.records(f.read()) == []


@pytest.mark.parametrize("how", ("one command", "objects", "archive"))
def test_a_read_in_one_task_does_not_stop_another(tmp_path, how):
    """main waits in read() (in io.c, called through server.c) for input
    the test sends only once the ticker task has ticked three times: a
    read that blocked the thread would never see it (the test times out)."""
    cwd = copy_sources(tmp_path)
    build(how, cwd, extra=["-DTICKER"], sources=SOURCES + ("ticker.c",))
    p = subprocess.Popen([str(cwd / "prog")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, start_new_session=True)
    try:
        seen, deadline = b"", time.monotonic() + 20
        while b"tick 2\n" not in seen:
            ready, _, _ = select.select([p.stdout], [], [], max(0, deadline - time.monotonic()))
            assert ready, "no ticks while main waited in read(): %r" % seen
            chunk = os.read(p.stdout.fileno(), 4096)
            assert chunk, "the program ended before ticking: %r" % seen
            seen += chunk
        assert seen == b"hello 99162322\ntick 0\ntick 1\ntick 2\n"
        out, err = p.communicate(b"one\ntwo\n", timeout=20)
    finally:
        if p.poll() is None:
            os.killpg(p.pid, 9)
            p.wait()
    assert err == b"" and p.returncode == 0
    assert out == b"1: one (3 bytes)\n2: two (3 bytes)\nchecksum 225458\nserved 2 lines\n"


def test_a_source_changed_since_the_compile_is_a_clear_error(tmp_path):
    cwd = copy_sources(tmp_path)
    compile_each(cwd)
    with open(str(cwd / "server.c"), "a") as f:
        f.write("/* edited after server.o was compiled */\n")
    r = ripcc(cwd, "main.o", "server.o", "io.o", "-o", "prog")
    assert r.returncode == 1 and not (cwd / "prog").exists()
    assert r.stderr.decode() == (
        "ripcc: error: server.o calls 'read_line' as a plain function, but 'read_line' is "
        "async (ripped in io.o): server.o must be ripped again to call it as one, and cannot "
        "be: server.c changed since it was compiled\n"
        "ripcc: note: compile server.o again (ripcc --posix -c server.c), then link again\n")
    # a header it includes, too
    shutil.copy(os.path.join(DIR, "server.c"), str(cwd / "server.c"))
    with open(str(cwd / "io.h"), "a") as f:
        f.write("/* edited */\n")
    r = ripcc(cwd, "main.o", "server.o", "io.o", "-o", "prog")
    assert r.returncode == 1
    assert "cannot be: io.h (which server.c includes) changed since it was compiled" in \
        r.stderr.decode()
    # once compiled again, it links
    compile_each(cwd, ("server.c",))
    assert ripcc(cwd, "main.o", "server.o", "io.o", "-o", "prog").returncode == 0


def test_an_object_without_a_record_is_a_clear_error(tmp_path):
    cwd = copy_sources(tmp_path)
    compile_each(cwd, ("main.c", "io.c"))
    r = run([RIPCC] + FLAGS + ["-c", "server.c"], cwd=str(cwd))    # without --posix
    assert r.returncode == 0, r.stderr.decode()
    r = ripcc(cwd, "main.o", "server.o", "io.o", "-o", "prog")
    assert r.returncode == 1
    assert r.stderr.decode().startswith(
        "ripcc: error: server.o calls 'read_line' as a plain function, but 'read_line' is "
        "async (ripped in io.o): server.o must be ripped again to call it as one, and cannot "
        "be: it keeps no record of how it was ripped (it was not compiled by ripcc --posix)\n")


def test_an_archive_member_that_cannot_be_ripped_again_is_told_when_linked(tmp_path):
    cwd = copy_sources(tmp_path)
    compile_each(cwd)
    assert run(["ar", "rcs", "libsrv.a", "server.o", "io.o"], cwd=str(cwd)).returncode == 0
    os.remove(str(cwd / "server.c"))
    r = ripcc(cwd, "main.o", "libsrv.a", "-o", "prog")
    assert r.returncode == 1
    assert "ripcc: error: libsrv.a(server.o) calls 'read_line' as a plain function, but " \
        "'read_line' is async (ripped in libsrv.a(io.o)): libsrv.a(server.o) must be ripped " \
        "again to call it as one, and cannot be: server.c is gone\n" \
        "ripcc: note: compile server.c again (ripcc --posix -c), put the object in libsrv.a " \
        "again, then link again\n" in r.stderr.decode()


def test_a_plain_pointer_s_function_calls_another_file_s_async_one_by_its_plain_form(
        tmp_path, plain_output):
    """hook.c's on_input goes into a plain function pointer, so it stays
    plain; it calls serve, async in server.o, which keeps its plain form
    beside the ripped one (as read_line does in io.o): the program
    behaves as its plain build, and main's own calls stay ripped."""
    cwd = copy_sources(tmp_path)
    (cwd / "hook.c").write_text(
        '#include "server.h"\n'
        "static int on_input(int fd) { return serve(fd); }\n"
        "int (*input_hook)(int) = on_input;\n")
    main = (cwd / "main.c").read_text()
    (cwd / "main.c").write_text(main.replace("int lines = serve(0);", "int lines = input_hook(0);")
                                .replace("int main(void) {", "extern int (*input_hook)(int);\n"
                                         "int main(void) {"))
    compile_each(cwd, SOURCES + ("hook.c",))
    r = ripcc(cwd, "main.o", "server.o", "io.o", "hook.o", "-o", "prog")
    assert r.returncode == 0, r.stderr.decode()
    (cwd / "input").write_bytes(INPUT)
    with open(cwd / "input", "rb") as stdin:   # a file: the plain form's read never waits
        got = run([str(cwd / "prog")], stdin=stdin, timeout=20)
    assert (got.returncode, got.stdout, got.stderr) == (0, plain_output, b"")
    assert "serve" in calls_made_by(cwd / "prog", "on_input")
    assert {"serve", "rip__new_serve"} <= defined_functions(cwd / "prog")


def test_a_plain_form_that_would_call_one_another_file_lacks_is_not_kept(tmp_path, plain_output):
    """read_line keeps no plain form in io.o (a static of a type declared
    inside it); serve's plain form would call it, so server.c is ripped
    again knowing that and keeps none either: the link succeeds (nothing
    plain needs serve) and the program behaves as its plain build."""
    cwd = copy_sources(tmp_path)
    io = (cwd / "io.c").read_text()
    (cwd / "io.c").write_text(io.replace("size_t len = 0;", "size_t len = 0;\n"
                                         "    typedef int count_t; static count_t calls;\n"
                                         "    calls++;"))
    compile_each(cwd)
    r = ripcc(cwd, "main.o", "server.o", "io.o", "-o", "prog")
    assert r.returncode == 0, r.stderr.decode()
    got = run([str(cwd / "prog")], input=INPUT, timeout=20)
    assert (got.returncode, got.stdout, got.stderr) == (0, plain_output, b"")
    assert "serve" not in defined_functions(cwd / "prog")


def test_a_plain_call_of_an_async_function_without_a_plain_form_is_a_clear_error(tmp_path):
    """read_line's static local has a type declared inside it, which a
    plain and a ripped definition could not share: it has no plain form,
    nor has serve, which calls it (server.c ripped again knowing it); a
    plain pointer's function calling serve is refused at the link."""
    cwd = copy_sources(tmp_path)
    io = (cwd / "io.c").read_text()
    assert "size_t len = 0;" in io
    (cwd / "io.c").write_text(io.replace("size_t len = 0;", "size_t len = 0;\n"
                                         "    typedef int count_t; static count_t calls;\n"
                                         "    calls++;"))
    (cwd / "hook.c").write_text(
        '#include "server.h"\n'
        "static int on_input(int fd) { return serve(fd); }\n"
        "int (*input_hook)(int) = on_input;\n")
    compile_each(cwd, SOURCES + ("hook.c",))
    r = ripcc(cwd, "main.o", "server.o", "io.o", "hook.o", "-o", "prog")
    assert r.returncode == 1 and not (cwd / "prog").exists()
    err = r.stderr.decode()
    assert "hook.c:3:26: error: async function 'on_input' used where a plain function " \
        "pointer ('int (*)(int)') is expected" in err
    assert "'on_input' calls async 'serve' (line 2); 'serve' is async in server.o" in err
    assert "ripcc: error: ripping hook.c again for the link, with 'serve' (ripped in " \
        "server.o) async, failed (above)" in err


def test_objects_compiled_with_posix_linked_without_it_say_so(tmp_path):
    cwd = copy_sources(tmp_path)
    compile_each(cwd)
    r = run([RIPCC, "main.o", "server.o", "io.o", "-o", "prog"], cwd=str(cwd))
    assert r.returncode == 1 and not (cwd / "prog").exists()
    assert r.stderr.decode() == (
        "ripcc: error: main.o, server.o, io.o were compiled with --posix: link with ripcc "
        "--posix too (it rips them again with the async functions of the others, and links "
        "the calls' runtime)\n")


def test_ripper_also_async_treats_another_file_s_function_as_async(tmp_path):
    """The option the link rips again with, on ripper's command line."""
    from conftest import RIPPER
    r = run([RIPPER, "--posix", "--also-async=read_line", os.path.join(DIR, "server.c"),
             "-o", str(tmp_path / "server.rip.c")])
    assert r.returncode == 0, r.stderr.decode()
    text = (tmp_path / "server.rip.c").read_text()
    assert "rip__new_read_line(" in text and "rip__new_next_request(" in text
    assert "rip__new_serve(" in text and "rip__new_checksum" not in text


def test_a_blocking_call_made_async_at_the_link_is_warned_of_there_once(tmp_path):
    """-Wblocking for a function the rip again made async (serve_and_reap,
    through serve); the warning the compile gave (reap_and_read) is not
    given again."""
    cwd = copy_sources(tmp_path)
    (cwd / "reap.c").write_text(
        "#include <termios.h>\n#include <unistd.h>\n#include <sys/wait.h>\n"
        '#include "server.h"\n'
        "int reap_and_read(int fd) { char c; tcdrain(0); "
        "return (int)read(fd, &c, 1); }\n"
        "int serve_and_reap(int fd) { int n = serve(fd); tcdrain(0); "
        "return n; }\n")
    compile_each(cwd)
    r = ripcc(cwd, "-c", "reap.c")
    assert r.returncode == 0
    assert r.stderr.decode().count("warning:") == 1 and "reap.c:5:" in r.stderr.decode()
    r = ripcc(cwd, "main.o", "server.o", "io.o", "reap.o", "-o", "prog")
    assert r.returncode == 0, r.stderr.decode()
    err = r.stderr.decode()
    assert err.count("warning:") == 1
    assert "reap.c:6:49: warning: 'tcdrain' blocks the whole scheduler in async function " \
        "'serve_and_reap' [-Wblocking]" in err
    assert "'serve' is async in server.o, another object of the program" in err


def test_a_call_through_a_declaration_ripper_does_not_read_is_a_clear_error(tmp_path):
    cwd = copy_sources(tmp_path)
    (cwd / "main.c").write_text("int main(void) {\n    int serve(int fd);\n"
                                "    return serve(0) == 0;\n}\n")
    compile_each(cwd)
    r = ripcc(cwd, "main.o", "server.o", "io.o", "-o", "prog")
    assert r.returncode == 1 and not (cwd / "prog").exists()
    assert r.stderr.decode() == (
        "main.c: In function 'main':\n"
        "main.c:3:12: error: 'serve' is async in server.o, but this call names it through a "
        "declaration ripper does not read\n"
        "    3 |     return serve(0) == 0;\n"
        "      |            ^~~~~\n"
        "main.c:3:12: note: declare 'serve' at file scope, with a prototype, before its calls "
        "(not inside a function, nor implicitly)\n"
        "ripcc: error: ripping main.c again for the link, with 'serve' (ripped in server.o) "
        "async, failed (above)\n")


def test_a_rip_again_that_reads_other_headers_than_the_compile_is_an_error(tmp_path):
    """The same source with another io.h found first (CPATH at the link
    differs) would be other C: refused, not linked."""
    cwd = copy_sources(tmp_path)
    for folder in ("inc", "inc2"):
        (cwd / folder).mkdir()
        shutil.copy(os.path.join(DIR, "io.h"), str(cwd / folder / "io.h"))
    os.remove(str(cwd / "io.h"))
    env = dict(os.environ, CPATH="inc")
    for src in SOURCES:
        assert run([RIPCC, "--posix", "-c", src], cwd=str(cwd), env=env).returncode == 0
    link = [RIPCC, "--posix", "main.o", "server.o", "io.o", "-o", "prog"]
    r = run(link, cwd=str(cwd), env=dict(os.environ, CPATH="inc2"))
    assert r.returncode == 1 and not (cwd / "prog").exists()
    assert r.stderr.decode() == (
        "ripcc: error: ripping server.c again for the link read other files than its compile: "
        "server.c, inc2/io.h, server.h, not server.c, inc/io.h, server.h\n"
        "ripcc: note: link in the environment the objects were compiled in, or compile them "
        "again\n")
    assert run(link, cwd=str(cwd), env=env).returncode == 0


def test_a_function_defined_plainly_in_one_object_and_async_in_another_is_an_error(tmp_path):
    """Two definitions of read_line (cc's link would say so): not two
    functions that the calls pick between."""
    cwd = copy_sources(tmp_path)
    (cwd / "dup.c").write_text('#include "io.h"\nssize_t read_line(int fd, char *buf, '
                               "size_t cap) { (void)fd; (void)cap; buf[0] = 0; return 0; }\n")
    compile_each(cwd, SOURCES + ("dup.c",))
    r = ripcc(cwd, "main.o", "server.o", "io.o", "dup.o", "-o", "prog")
    assert r.returncode == 1 and not (cwd / "prog").exists()
    assert r.stderr.decode() == (
        "ripcc: error: 'read_line' is defined twice: in dup.o, and async in io.o\n"
        "ripcc: note: a program defines a function once: remove one\n")


def test_a_library_s_plain_function_of_the_same_name_does_not_take_the_calls(tmp_path):
    """libfallback.a defines a plain read_line too (one that reads nothing):
    server.o's call, ripped again, goes to io.o's async one, as in the
    plain build, where the linker takes io.o's and never the archive's."""
    cwd = copy_sources(tmp_path)
    (cwd / "fallback.c").write_text('#include "io.h"\nssize_t read_line(int fd, char *buf, '
                                    "size_t cap) { (void)fd; (void)cap; buf[0] = 0; "
                                    "return 0; }\n")
    compile_each(cwd, SOURCES + ("fallback.c",))
    assert run(["ar", "rcs", "libfallback.a", "fallback.o"], cwd=str(cwd)).returncode == 0
    r = ripcc(cwd, "main.o", "server.o", "io.o", "libfallback.a", "-o", "prog")
    assert r.returncode == 0, r.stderr.decode()
    got = run([str(cwd / "prog")], input=b"one\ntwo\n", timeout=20)
    assert got.stdout.endswith(b"served 2 lines\n"), got.stdout


def test_a_library_s_name_async_in_another_object_is_not_warned_of_as_the_library_s(tmp_path):
    """getline, defined async by another object of the program, is that
    object's, not stdio's blocking one: no -Wblocking at its calls."""
    from conftest import RIPPER
    (tmp_path / "t.c").write_text(
        "#include <stdio.h>\n"
        "ssize_t first(char **line, size_t *n) { return getline(line, n, stdin); }\n")
    r = run([RIPPER, "--posix", "--also-async=getline", str(tmp_path / "t.c"), "-o",
             str(tmp_path / "t.rip.c")])
    assert r.returncode == 0 and r.stderr == b"", r.stderr.decode()
    assert "rip__new_getline(" in (tmp_path / "t.rip.c").read_text()


def test_an_object_s_plain_function_overrides_an_archive_s_async_one(tmp_path):
    """stub.o's plain read_line (no input, as a test stub) overrides
    libsrv.a(io.o)'s, as the plain link does: nothing is ripped again."""
    cwd = copy_sources(tmp_path)
    (cwd / "stub.c").write_text('#include "io.h"\nssize_t read_line(int fd, char *buf, '
                                "size_t cap) { (void)fd; (void)cap; buf[0] = 0; return 0; }\n")
    compile_each(cwd, SOURCES + ("stub.c",))
    assert run(["ar", "rcs", "libsrv.a", "server.o", "io.o"], cwd=str(cwd)).returncode == 0
    r = ripcc(cwd, "-v", "main.o", "stub.o", "libsrv.a", "-o", "prog")
    assert r.returncode == 0, r.stderr.decode()
    assert "again" not in r.stderr.decode()
    got = run([str(cwd / "prog")], input=b"one\n", timeout=20)
    assert got.stdout == b"hello 99162322\nchecksum 0\nserved 0 lines\n"

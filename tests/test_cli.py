"""The ripper and ripcc commands: exit codes, diagnostics, no partial output."""
import json
import os
import re
import shutil

import pytest

from conftest import CFLAGS, RIPCC, RIPPER, ROOT, run

GOOD = b"""#include <stdio.h>
#include "rip.h"
static void task(void *arg) {
    int n = *(int *)arg;
    rip_yield();
    printf("%d\\n", n);
}
int main(void) { int n = 7; return rip_run(task, &n); }
"""

DIAG = re.compile(r"^(\S+):(\d+):(\d+): error: .+", re.M)


def write(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data)
    return str(p)


def test_ripper_without_arguments_is_a_usage_error():
    r = run([RIPPER])
    assert r.returncode == 2
    assert b"usage" in r.stderr


def test_ripper_help_exits_zero():
    r = run([RIPPER, "--help"])
    assert r.returncode == 0 and b"-o" in r.stdout


def test_ripper_writes_output_with_line_directives(tmp_path):
    src = write(tmp_path, "good.c", GOOD)
    out = str(tmp_path / "good.rip.c")
    r = run([RIPPER, src, "-o", out])
    assert r.returncode == 0, r.stderr
    text = open(out).read()
    assert '\n# 1 "%s"' % src in text
    assert "rip__resume_task" in text


def test_ripper_reads_stdin_and_writes_stdout():
    r = run([RIPPER, "-", "-o", "-"], input=GOOD)
    assert r.returncode == 0, r.stderr
    assert b'\n# 1 "<stdin>"' in r.stdout


def test_syntax_error_is_reported_at_its_place_with_exit_1(tmp_path):
    src = write(tmp_path, "bad.c", b"int main(void) {\n  return 0\n}\n")
    out = tmp_path / "bad.rip.c"
    r = run([RIPPER, src, "-o", str(out)])
    assert r.returncode == 1
    m = DIAG.search(r.stderr.decode())
    assert m and m.group(1) == src and m.group(2) == "2"
    assert b"Traceback" not in r.stderr
    assert not out.exists()


def test_failed_rip_leaves_an_existing_output_untouched(tmp_path):
    src = write(tmp_path, "bad.c", b"int main(void) { return x; }\n")
    out = tmp_path / "out.c"
    out.write_bytes(b"previous contents")
    r = run([RIPPER, src, "-o", str(out)])
    assert r.returncode == 1
    assert out.read_bytes() == b"previous contents"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.c", "out.c"]  # no temporary left


def test_missing_input_file_is_exit_1(tmp_path):
    r = run([RIPPER, str(tmp_path / "nope.c"), "-o", str(tmp_path / "o.c")])
    assert r.returncode == 1
    assert b"nope.c" in r.stderr


def unrippable(tmp_path, body, signature="static void task(void *arg)"):
    src = b'#include "rip.h"\n#include <alloca.h>\nRIP_ASYNC int g(void);\n' + \
        signature.encode() + b" {\n" + body + \
        b"\n}\nint main(void) { return rip_run(task, 0); }\n"
    path = write(tmp_path, "u.c", src)
    r = run([RIPPER, path, "-o", str(tmp_path / "u.rip.c")])
    assert r.returncode == 1
    assert not (tmp_path / "u.rip.c").exists()
    err = r.stderr.decode()
    assert DIAG.search(err), err
    assert "note:" in err       # every unrippable construct comes with a hint
    return err


def test_variable_length_array_in_async_function_is_an_error(tmp_path):
    err = unrippable(tmp_path, b"int n = *(int *)arg; char buf[n]; rip_yield(); buf[0] = 0;")
    assert "variable-length array" in err and "suspension in its scope" in err and "u.c:5:" in err


def test_a_name_in_the_rip__space_is_refused_and_the_note_says_rip_h_reserves_it(tmp_path):
    """rip.h reserves `rip__...` for ripper's own names: a user's local,
    label or parameter there is refused; every other name is the user's."""
    for body in (b"int rip__x = 1; rip_yield(); (void)arg; (void)rip__x;",
                 b"rip__resume_1: rip_yield(); (void)arg;"):
        err = unrippable(tmp_path, body)
        assert "is a name ripper reserves" in err and "u.c:5:" in err, err
        assert "rip.h reserves every name starting 'rip__'" in err, err
    err = unrippable(tmp_path, b"(void)rip__F; rip_yield();", "static void task(void *rip__F)")
    assert "'rip__F' is a name ripper reserves" in err, err


def test_alloca_in_async_function_is_an_error(tmp_path):
    err = unrippable(tmp_path, b"char *p = alloca(10); rip_yield(); p[0] = 0; (void)arg;")
    assert "alloca" in err


def test_labels_as_values_are_an_error(tmp_path):
    err = unrippable(tmp_path, b"void *l = &&there; rip_yield(); goto *l; there: (void)arg;")
    assert "labels as values" in err


def variadic_error(tmp_path, text):
    """ripper's stderr on a file with variadic async function f (`text`
    goes after it), which it must refuse."""
    src = write(tmp_path, "v.c", b'#include <stdarg.h>\n#include "rip.h"\n' + text)
    r = run([RIPPER, src, "-o", str(tmp_path / "v.rip.c")])
    assert r.returncode == 1, r.stderr.decode()
    return r.stderr.decode()


def test_va_list_read_across_a_suspension_is_an_error(tmp_path):
    """va_arg before and after a suspension: the va_list would point into
    a stack that is gone (once only va_start touched it, it is started
    again at each resume: tests/programs/variadic_async_functions.c)."""
    err = variadic_error(tmp_path, b"RIP_ASYNC int f(int n, ...) { va_list ap; va_start(ap, n); "
                         b"int a = va_arg(ap, int); rip_yield(); a += va_arg(ap, int); "
                         b"va_end(ap); return a; }\n")
    assert "va_list 'ap' of async function 'f' is in use across a suspension" in err


def test_va_list_passed_to_an_async_function_is_an_error(tmp_path):
    err = variadic_error(tmp_path, b"RIP_ASYNC int g(va_list ap) { rip_yield(); return va_arg(ap, int); }\n"
                         b"RIP_ASYNC int f(int n, ...) { va_list ap; va_start(ap, n); n = g(ap); "
                         b"va_end(ap); return n; }\n")
    assert "a va_list passed to async function 'g'" in err


def test_variadic_async_function_as_a_value_is_an_error(tmp_path):
    err = variadic_error(tmp_path, b"RIP_ASYNC int f(int n, ...) { rip_yield(); return n; }\n"
                         b"typedef RIP_ASYNC_FN(int, fixed_fn, (int n));\n"
                         b"fixed_fn *p = (fixed_fn *)f;\n")
    assert "variadic async function 'f' used as a value" in err


def test_variadic_async_function_type_is_an_error(tmp_path):
    err = variadic_error(tmp_path, b"typedef RIP_ASYNC_FN(int, log_fn, (const char *fmt, ...));\n")
    assert "RIP_ASYNC_FN type with variadic parameters" in err


def ripped_output(tmp_path, body, head=b""):
    """What the ripped build of a task with `body` prints."""
    src = b'#include <stdio.h>\n#include "rip.h"\n' + head + \
        b"static void task(void *arg) {\n(void)arg;\n" + body + \
        b"\n}\nint main(void) { return rip_run(task, 0); }\n"
    path = write(tmp_path, "p.c", src)
    exe = str(tmp_path / "p")
    r = run([RIPCC] + CFLAGS + [path, "-o", exe])
    assert r.returncode == 0, r.stderr.decode()
    return run([exe]).stdout.decode()


def test_async_calls_in_a_statement_expression_run_in_order(tmp_path):
    head = b"RIP_ASYNC static int g(int v) { rip_yield(); printf(\"g%d \", v); return v; }\n"
    out = ripped_output(tmp_path, b"int x = ({ int a = g(1); a + g(2); }) * 10 + g(3);"
                        b" printf(\"= %d\\n\", x);", head)
    assert out == "g1 g2 g3 = 33\n"


def test_main_calling_async_function_is_an_error(tmp_path):
    src = write(tmp_path, "m.c", b'#include "rip.h"\nint main(void) { rip_yield(); return 0; }\n')
    r = run([RIPPER, src, "-o", str(tmp_path / "m.rip.c")])
    assert r.returncode == 1 and b"outside a task" in r.stderr


def test_compile_commands_database_supplies_flags(tmp_path):
    src = write(tmp_path, "cc.c", GOOD.replace(b"int n = 7;", b"int n = SEVEN;"))
    (tmp_path / "compile_commands.json").write_text(json.dumps([
        {"directory": str(tmp_path), "file": "cc.c", "command": "cc -DSEVEN=7 -c cc.c"}]))
    r = run([RIPPER, "-p", str(tmp_path), src, "-o", str(tmp_path / "cc.rip.c")])
    assert r.returncode == 0, r.stderr
    r = run([RIPPER, src, "-o", str(tmp_path / "cc2.rip.c")])
    assert r.returncode == 1 and b"SEVEN" in r.stderr


def test_compile_commands_written_for_ripcc_are_read_as_ripcc_reads_them(tmp_path):
    # CMake with CC=ripcc and ripcc's options in CMAKE_C_FLAGS: cc knows
    # none of them; ripper -p drops --backend, rips as --all-async and
    # --posix ask, and keeps -Werror=blocking its own
    plain = b"static int twice(int n) { return 2 * n; }\nint main(void) { return twice(SEVEN); }\n"
    posix = b"#include <unistd.h>\nint main(void) { sleep(0); return SEVEN; }\n"
    for options, text in ((["--all-async"], plain), (["--posix"], posix),
                          (["--all-async", "--timeout=30"], plain)):
        src = write(tmp_path, "cc.c", text)
        (tmp_path / "compile_commands.json").write_text(json.dumps([
            {"directory": str(tmp_path), "file": "cc.c",
             "command": "/usr/local/bin/ripcc --backend=rip %s -DSEVEN=7 -o "
                        "CMakeFiles/cc.dir/cc.c.o -c %s" % (" ".join(options), src)}]))
        r = run([RIPPER, "-p", str(tmp_path), src, "-o", str(tmp_path / "db.rip.c")])
        assert r.returncode == 0, r.stderr
        direct = [o for o in options if not o.startswith("--timeout")]
        r = run([RIPPER, "-DSEVEN=7"] + direct + [src, "-o", str(tmp_path / "direct.rip.c")])
        assert r.returncode == 0, r.stderr
        r = run([RIPPER, "-DSEVEN=7", src, "-o", str(tmp_path / "plain.rip.c")])
        assert (tmp_path / "db.rip.c").read_bytes() == (tmp_path / "direct.rip.c").read_bytes()
        assert (tmp_path / "db.rip.c").read_bytes() != (tmp_path / "plain.rip.c").read_bytes()
    blocks = write(tmp_path, "b.c", BLOCKS)
    (tmp_path / "compile_commands.json").write_text(json.dumps([
        {"directory": str(tmp_path), "file": "b.c",
         "arguments": ["ripcc", "--backend", "rip", "-Werror=blocking", "-c",
                       "b.c"]}]))
    r = run([RIPPER, "-p", str(tmp_path), blocks, "-o", str(tmp_path / "b.rip.c")])
    assert r.returncode == 1 and b"[-Werror=blocking]" in r.stderr, r.stderr
    assert b"unrecognized" not in r.stderr and b"backend" not in r.stderr
    # a frame budget in the flags is the rip's too
    src = write(tmp_path, "cc.c", GOOD)
    (tmp_path / "compile_commands.json").write_text(json.dumps([
        {"directory": str(tmp_path), "file": "cc.c",
         "arguments": ["ripcc", "--max-frame=16", "-c", "cc.c"]}]))
    r = run([RIPPER, "-p", str(tmp_path), src, "-o", str(tmp_path / "m.rip.c")])
    assert r.returncode == 1 and b"more than --max-frame=16" in r.stderr, r.stderr


def test_ripcc_unknown_backend_is_a_usage_error(tmp_path):
    src = write(tmp_path, "g.c", GOOD)
    r = run([RIPCC, "--backend=fibers", src, "-o", str(tmp_path / "g")])
    assert r.returncode == 2 and b"fibers" in r.stderr


def test_ripcc_reports_ripper_diagnostics_with_exit_1(tmp_path):
    src = write(tmp_path, "b.c", b"int main(void) { return y; }\n")
    r = run([RIPCC, src, "-o", str(tmp_path / "b")])
    assert r.returncode == 1
    assert DIAG.search(r.stderr.decode())


def test_ripcc_builds_and_runs_every_backend(tmp_path):
    src = write(tmp_path, "g.c", GOOD)
    for backend in ("rip", "ucontext", "threads"):
        exe = str(tmp_path / ("g-" + backend))
        r = run([RIPCC, "--backend=" + backend, "-Wall", "-Wextra", "-Werror", src, "-o", exe])
        assert r.returncode == 0, r.stderr
        assert run([exe]).stdout == b"7\n"


def test_macro_doing_more_than_an_async_call_is_ripped_as_its_expansion(tmp_path):
    out = ripped_output(tmp_path, b"int n = 0;\n#define TWICE() (rip_yield(), n++, rip_yield(), n++)\n"
                        b"TWICE(); printf(\"%d\\n\", n);")
    assert out == "2\n"


def test_a_frame_variable_named_like_a_member_inside_a_macro(tmp_path):
    out = ripped_output(tmp_path, b"struct s { int n; } v = { 1 }; int n = 2;\n"
                        b"#define BOTH(a, b) ((a) + (b))\n"
                        b"rip_yield(); n = BOTH(n, v.n); printf(\"%d\\n\", n);")
    assert out == "3\n"


def test_async_function_as_a_plain_function_pointer_is_an_error(tmp_path):
    err = unrippable(tmp_path, b"int v[2] = {2, 1}; (void)arg; qsort(v, 2, sizeof v[0], cmp);",
                     signature=b"#include <stdlib.h>\nstatic int cmp(const void *a, const void *b) "
                     b"{ rip_yield(); return *(const int *)a - *(const int *)b; }\n"
                     b"static void task(void *arg)".decode())
    assert "qsort" in err and "'cmp'" in err


def test_stats_prints_frame_size_and_suspension_points(tmp_path):
    src = write(tmp_path, "s.c", GOOD)
    r = run([RIPPER, "--stats", src, "-o", str(tmp_path / "s.rip.c")])
    assert r.returncode == 0
    lines = r.stderr.decode().splitlines()
    assert lines[0].split()[:2] == ["async", "function"]
    name, frame_bytes, suspensions, in_frame, c_locals, chain = lines[1].split()
    # task: arg (a parameter) and n (read after rip_yield) after a 24-byte header
    assert (name, frame_bytes, suspensions, in_frame, c_locals, chain) == \
        ("task", "40", "1", "2", "0", "40")


# Frames of every kind of part, a chain of calls and a recursion.
BUDGET = b"""#include <stdio.h>
#include "rip.h"
RIP_ASYNC static int depth(int n) {
    char pad[200];
    pad[0] = (char)n;
    rip_yield();
    return n ? depth(n - 1) + pad[0] : 0;
}
RIP_ASYNC static long sum(int n) {
    long total = 0;
    for (int i = 0; i < n; i++) { long sq = (long)i * i; rip_yield(); total += sq; }
    return total;
}
RIP_ASYNC static long twice(int n) { int kept = n; int *p = &kept; rip_yield(); return sum(*p) * 2; }
static void task(void *arg) {
    char buf[64];
    snprintf(buf, sizeof buf, "%ld %d", twice(*(int *)arg), depth(3));
    rip_sleep_ms(1);
    puts(buf);
}
int main(void) { int n = 4; return rip_run(task, &n); }
"""


def stats_of(tmp_path, *flags):
    write(tmp_path, "b.c", BUDGET)
    r = run([RIPPER, "--stats", "b.c", "-o", "b.rip.c"] + list(flags), cwd=str(tmp_path))
    assert r.returncode == 0, r.stderr.decode()
    return r.stderr.decode()


def frame_parts(said):
    """{function: {part: (bytes, why)}} from --stats' text."""
    out, function = {}, None
    for line in said.splitlines()[1:]:
        if line.startswith("chains"):
            break
        if not line.startswith(" "):
            function = out.setdefault(line.split()[0], {})
        else:
            name, size, why = line.split(None, 2)
            function[name] = (int(size), why)
    return out


def test_stats_say_why_each_variable_is_in_the_frame(tmp_path):
    parts = frame_parts(stats_of(tmp_path))
    assert parts["depth"]["pad"] == (200, "an array, or holds one")
    assert parts["depth"]["n"] == (4, "parameter, held across rip_yield() at b.c:6")
    assert parts["sum"]["total"] == (8, "held across rip_yield() at b.c:11")
    # sq is written before the suspension and read after it; i is read after it too
    assert parts["sum"]["sq"] == (8, "held across rip_yield() at b.c:11")
    assert parts["sum"]["i"] == (4, "held across rip_yield() at b.c:11")
    assert parts["twice"]["kept"] == (4, "its address is taken")
    assert parts["twice"]["n"] == (4, "parameter")      # read before the suspension only
    assert parts["twice"]["(header)"][0] == 24
    assert parts["task"]["(temporary)"][1] == "held across twice() at b.c:17, depth() at b.c:17"


def test_stats_add_frames_along_the_calls_and_call_recursion_unbounded(tmp_path):
    said = stats_of(tmp_path)
    rows = {line.split()[0]: line.split() for line in said.splitlines()[1:]
            if not line.startswith(" ") and len(line.split()) == 6}
    sizes = {name: int(row[1]) for name, row in rows.items()}
    assert rows["sum"][5] == str(sizes["sum"])
    assert rows["twice"][5] == str(sizes["twice"] + sizes["sum"])
    assert rows["depth"][5] == rows["task"][5] == "unbounded"
    assert "    twice: %d bytes: twice -> sum" % (sizes["twice"] + sizes["sum"]) in said
    assert "    task: unbounded (recursion): task -> depth -> depth" in said


def test_stats_json_holds_what_stats_prints(tmp_path):
    said = stats_of(tmp_path, "--stats-json", str(tmp_path / "b.json"))
    data = json.loads((tmp_path / "b.json").read_text())
    functions = {f["name"]: f for f in data["functions"]}
    for line in said.splitlines()[1:]:
        row = line.split()
        if len(row) == 6 and row[0] in functions:
            f = functions[row[0]]
            assert [str(f["frame_bytes"]), str(f["suspensions"]), str(f["in_frame"]),
                    str(f["c_locals"])] == row[1:5]
    assert functions["depth"]["chain_bytes"] is None
    assert functions["twice"]["chain"] == ["twice", "sum"] and functions["twice"]["calls"] == \
        ["sum"]
    assert {"name": "pad", "bytes": 200, "why": "an array, or holds one"} in \
        functions["depth"]["parts"]
    assert functions["depth"]["line"] == 3 and functions["depth"]["file"] == "b.c"


@pytest.mark.parametrize("tool", ["ripper", "ripcc"])
def test_max_frame_fails_the_build_naming_the_function_and_its_biggest_part(tmp_path, tool):
    src = write(tmp_path, "b.c", BUDGET)
    out = str(tmp_path / ("b.rip.c" if tool == "ripper" else "b.o"))
    cmd = [RIPPER, src, "-o", out] if tool == "ripper" else [RIPCC, "-c", src, "-o", out]
    r = run(cmd + ["--max-frame=128"])
    assert r.returncode == 1 and not os.path.exists(out)
    err = r.stderr.decode()
    assert "b.c:3:22: error: the frame of 'depth' is 232 bytes, more than --max-frame=128" \
        in err, err
    assert "note: most of it: pad, 200 bytes (an array, or holds one)" in err, err
    assert err.count("error:") == 1         # the others fit
    assert run(cmd + ["--max-frame", "232"]).returncode == 0    # at the limit: fits
    assert os.path.exists(out)
    r = run(cmd + ["--max-frame=lots"])
    assert r.returncode == 2 and b"'lots' is not a number of bytes" in r.stderr


LAYOUTS = b"""#include "rip.h"
struct wide { long double x; char c; };
static rip_chan *ch;
RIP_ASYNC static long double ld(long double v) { rip_yield(); return v; }
RIP_ASYNC static char small(char c) { rip_yield(); return c; }
RIP_ASYNC static struct wide w(int i) { struct wide r = { 1.0L, 'x' }; rip_yield(); r.c += i; return r; }
RIP_ASYNC static int waits(void) { int v; return rip_chan_recv(ch, &v) ? v : 0; }
static void task(void *arg) { (void)arg; ld(1.0L); small('a'); w(1); waits(); }
int main(void) { return rip_run(task, 0); }
"""


def test_stats_frame_sizes_are_the_compilers(tmp_path):
    """--stats computes each frame's size from the layout; the C compiler agrees."""
    src = write(tmp_path, "l.c", LAYOUTS)
    out = str(tmp_path / "l.rip.c")
    r = run([RIPPER, "--stats", src, "-o", out])
    assert r.returncode == 0, r.stderr.decode()
    sizes = {line.split()[0]: int(line.split()[1]) for line in r.stderr.decode().splitlines()[1:]
             if not line.startswith(" ") and len(line.split()) == 6}   # a row per function
    assert set(sizes) == {"ld", "small", "w", "waits", "task"}
    with open(out, "a") as f:
        for name, size in sizes.items():
            f.write("_Static_assert(sizeof(struct rip__frame_%s) == %d, \"%s\");\n"
                    % (name, size, name))
    r = run(["cc", "-std=gnu11", "-c", out, "-o", out + ".o", "-I", os.path.join(ROOT, "runtime",
             "include"), "-I", os.path.join(ROOT, "runtime", "src", "rip")])
    assert r.returncode == 0, r.stderr.decode()


def test_parameters_only_cast_to_void_take_no_frame_space(tmp_path):
    src = write(tmp_path, "p.c", b"""#include <stdio.h>
#include "rip.h"
#define UNUSED(x) (void)(x)
RIP_ASYNC static int f(int used, int unused, int in_macro) {
    (void)unused; UNUSED(in_macro); rip_yield(); return used; }
static void task(void *arg) { (void)arg; int v = f(7, 8, 9); printf("%d\\n", v); }
int main(void) { return rip_run(task, 0); }
""")
    r = run([RIPPER, "--stats", src, "-o", str(tmp_path / "p.rip.c")])
    assert r.returncode == 0, r.stderr.decode()
    rows = {line.split()[0]: line.split()[1:5] for line in r.stderr.decode().splitlines()[1:]
            if not line.startswith(" ") and len(line.split()) == 6}     # a row per function
    assert rows["f"] == ["32", "1", "1", "0"]    # header, result, `used`
    assert rows["task"] == ["24", "1", "0", "1"]    # v: a C local
    assert run([RIPCC] + CFLAGS + [src, "-o", str(tmp_path / "p")]).returncode == 0
    assert run([str(tmp_path / "p")]).stdout == b"7\n"


def test_output_to_a_fifo_is_written_not_replaced(tmp_path):
    import stat
    import threading
    src = write(tmp_path, "g.c", GOOD)
    fifo = str(tmp_path / "out.fifo")
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
    reader.start()
    r = run([RIPPER, src, "-o", fifo])
    reader.join(30)
    assert r.returncode == 0
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)      # still a FIFO
    assert b"rip__resume_task" in got[0]


def test_output_keeps_the_mode_of_the_file_it_replaces(tmp_path):
    src = write(tmp_path, "g.c", GOOD)
    out = tmp_path / "o.c"
    out.write_bytes(b"old")
    os.chmod(out, 0o640)
    assert run([RIPPER, src, "-o", str(out)]).returncode == 0
    assert os.stat(out).st_mode & 0o777 == 0o640


def test_ripcc_passes_gcc_only_flags_to_cc_and_split_include_flags_to_ripper(tmp_path):
    inc = tmp_path / "inc"
    inc.mkdir()
    (inc / "seven.h").write_text("#define SEVEN 7\n")
    src = write(tmp_path, "s.c", GOOD.replace(b"int n = 7;", b"int n = SEVEN;")
                .replace(b'#include "rip.h"', b'#include "rip.h"\n#include "seven.h"'))
    exe = str(tmp_path / "s")
    r = run([RIPCC, "-fmax-errors=5", "-fanalyzer", "-I", str(inc), src, "-o", exe])
    assert r.returncode == 0, r.stderr
    assert run([exe]).stdout == b"7\n"


def test_ripcc_compiles_ripped_text_without_the_preprocessors_flags(tmp_path):
    """The ripped file is preprocessed already: -I, -D and -include given to
    ripcc reach ripper, not the compile of its output, where clang would
    warn that they are unused (an error under -Werror)."""
    (tmp_path / "seven.h").write_text("#define SEVEN 7\n")
    src = write(tmp_path, "s.c", GOOD.replace(b"int n = 7;", b"int n = SEVEN + K;"))
    exe, obj = str(tmp_path / "s"), str(tmp_path / "s.o")
    env = dict(os.environ, RIPCC_CC="clang" if shutil.which("clang") else "cc")
    r = run([RIPCC, "-c", "-Wall", "-Werror", "-I", str(tmp_path), "-DK=1", "-include",
             "seven.h", src, "-o", obj], env=env)
    assert r.returncode == 0, r.stderr
    assert b"unused" not in r.stderr
    assert run([RIPCC, obj, "-o", exe], env=env).returncode == 0
    assert run([exe]).stdout == b"8\n"


def test_ripcc_usage_names_its_own_compiler_variable():
    out = run([RIPCC, "--help"]).stdout.decode()
    assert "RIPCC_CC" in out and "($CC" not in out


# -- compiler flags and gcc-like diagnostics ---------------------------------

TWO_ERRORS = b"""#include "rip.h"
RIP_ASYNC int f(void);
int k(void) { return f(); }
void g(int n) {
    int buf[n];
    buf[0] = k();
}
void h(void) {
    f();
    __builtin_setjmp(0);
}
"""


def test_ripper_takes_compiler_flags_before_the_input(tmp_path):
    write(tmp_path, "cfg.h", b"#define N 7\n")
    src = write(tmp_path, "uses_n.c", b"int n(void) { return N; }\n")
    out = str(tmp_path / "out.c")
    r = run([RIPPER, "-include", str(tmp_path / "cfg.h"), "-std=gnu99", "-O2", "-Wall",
             "-U", "NDEBUG", "-isystem", str(tmp_path), src, "-o", out])
    assert r.returncode == 0, r.stderr.decode()
    assert b"return 7" in open(out, "rb").read()
    r = run([RIPPER, src, "-o", out])
    # and without it, N is unknown: the compiler's error (gcc quotes N in ‘’ or '')
    assert r.returncode == 1 and re.search(r"uses_n.c:1:22: error: .N. undeclared",
                                           r.stderr.decode()), r.stderr.decode()


def test_an_error_quotes_its_source_line_with_a_caret(tmp_path):
    src = write(tmp_path, "two.c", TWO_ERRORS)
    r = run([RIPPER, src, "-o", str(tmp_path / "out.c")])
    lines = r.stderr.decode().splitlines()
    at = lines.index(next(x for x in lines if ":5:5: error:" in x))
    assert lines[at + 1] == "    5 |     int buf[n];"
    assert lines[at + 2] == "      |     ^~~"          # gcc: under the token


def test_every_error_of_a_run_is_reported(tmp_path):
    src = write(tmp_path, "two.c", TWO_ERRORS)
    r = run([RIPPER, src, "-o", str(tmp_path / "out.c")])
    assert r.returncode == 1
    places = [(m.group(2), m.group(3)) for m in DIAG.finditer(r.stderr.decode())]
    assert places == [("5", "5"), ("10", "5")]


def test_an_error_in_an_async_function_says_why_it_is_async(tmp_path):
    src = write(tmp_path, "two.c", TWO_ERRORS)
    r = run([RIPPER, src, "-o", str(tmp_path / "out.c")])
    assert "note: 'g' is async: 'g' calls async 'k' (line 6); 'k' calls async 'f' (line 3)" \
        in r.stderr.decode()


def test_colour_only_when_asked_or_on_a_terminal(tmp_path):
    src = write(tmp_path, "two.c", TWO_ERRORS)
    plain = run([RIPPER, src, "-o", str(tmp_path / "out.c")])
    assert b"\x1b[" not in plain.stderr                 # a pipe: no colour
    asked = run([RIPPER, "-fdiagnostics-color=always", src, "-o", str(tmp_path / "out.c")])
    assert b"\x1b[01;31m\x1b[Kerror: \x1b[m\x1b[K" in asked.stderr     # gcc 12's bytes


FALLS_THROUGH = b"""#include "rip.h"
int step(int x) {
    switch (x) {
    case 1:
        rip_yield();
        x++;
        /* fall through */
    case 2:
        x++;
    }
    return x;
}
"""


def test_a_file_ripped_without_warning_flags_compiles_warning_free_with_them(tmp_path):
    """Without -Wextra ripper drops comments (one preprocessor run): the
    fall-through comment goes too, and the warning that reads it with it."""
    src = write(tmp_path, "ft.c", FALLS_THROUGH)
    out = str(tmp_path / "ft.rip.c")
    assert run([RIPPER, src, "-o", out]).returncode == 0
    r = run(["cc", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-c", out, "-o",
             str(tmp_path / "ft.o")])
    assert r.returncode == 0, r.stderr.decode()


def test_a_file_ripped_with_wextra_keeps_its_fallthrough_comment(tmp_path):
    src = write(tmp_path, "ft.c", FALLS_THROUGH)
    out = str(tmp_path / "ft.rip.c")
    assert run([RIPPER, "-Wextra", src, "-o", out]).returncode == 0
    text = open(out, "rb").read()
    assert b"/* fall through */" in text and b"ignored \"-Wimplicit-fallthrough\"" not in text
    r = run(["cc", "-std=gnu11", "-Wall", "-Wextra", "-Werror", "-c", out, "-o",
             str(tmp_path / "ft.o")])
    assert r.returncode == 0, r.stderr.decode()


def copy_of_rip_h(tmp_path, change=b""):
    """A folder holding a copy of the runtime's rip.h (as `make install`
    leaves one), with `change` appended."""
    folder = tmp_path / "installed-include"
    folder.mkdir()
    with open(os.path.join(ROOT, "runtime", "include", "rip.h"), "rb") as f:
        (folder / "rip.h").write_bytes(f.read() + change)
    return str(folder)


def test_a_copy_of_rip_h_first_on_the_include_path_is_the_runtimes(tmp_path):
    src = write(tmp_path, "g.c", GOOD)
    exe = str(tmp_path / "g")
    r = run([RIPCC, "-I", copy_of_rip_h(tmp_path), "-Wall", "-Wextra", "-Werror", src,
             "-o", exe])
    assert r.returncode == 0, r.stderr.decode()
    assert run([exe]).stdout == b"7\n"


def test_another_versions_rip_h_is_an_error_that_names_it(tmp_path):
    src = write(tmp_path, "g.c", GOOD)
    folder = copy_of_rip_h(tmp_path, b"/* another version */\n")
    r = run([RIPPER, "-I", folder, src, "-o", str(tmp_path / "g.rip.c")])
    assert r.returncode == 1
    err = r.stderr.decode()
    assert "%s/rip.h is not the rip.h of ripper" % folder in err, err
    assert "ripcc --print-include-dir" in err


def test_no_compiler_is_an_error_that_names_ripper(tmp_path):
    src = write(tmp_path, "g.c", GOOD)
    env = dict(os.environ, RIPCC_CC="no-such-cc -O2")
    r = run([RIPPER, src, "-o", str(tmp_path / "g.rip.c")], env=env)
    assert r.returncode == 1
    assert r.stderr.decode().startswith("ripper: error: no C compiler"), r.stderr
    env["RIPCC_CC"] = str(tmp_path / "g.c")          # a path, but not a program
    assert run([RIPPER, src, "-o", str(tmp_path / "g.rip.c")], env=env).returncode == 1


def test_ripped_code_of_another_abi_version_fails_to_link(tmp_path):
    """A ripped object names its frame ABI's version in a symbol that the
    runtime defines: one kept from a ripper with other layouts (frames,
    waiters, the channel the intrinsics inline) fails to link, not to run."""
    from ripper import abi
    src = tmp_path / "p.c"
    src.write_text('#include "rip.h"\n'
                   "static void task(void *arg) { (void)arg; rip_yield(); }\n"
                   "int main(void) { return rip_run(task, 0); }\n")
    obj, old = str(tmp_path / "p.o"), str(tmp_path / "old.o")
    assert run([RIPCC, "-c", str(src), "-o", obj]).returncode == 0
    assert run([RIPCC, obj, "-o", str(tmp_path / "p")]).returncode == 0
    symbol = "rip__abi_v%d" % abi.ABI_VERSION
    assert run(["objcopy", "--redefine-sym", symbol + "=rip__abi_v0", obj, old]).returncode == 0
    r = run([RIPCC, old, "-o", str(tmp_path / "old")])
    assert r.returncode != 0 and b"rip__abi_v0" in r.stderr, r.stderr.decode()


def same_file_cases(tmp_path):
    """(input, output) pairs that are one file by another name."""
    src = write(tmp_path, "s.c", GOOD)
    os.symlink("s.c", str(tmp_path / "link.c"))
    os.link(src, str(tmp_path / "hard.c"))
    return src, [(src, src), (src, str(tmp_path / "link.c")), (str(tmp_path / "hard.c"), src),
                 (str(tmp_path / "link.c"), str(tmp_path / ".." / tmp_path.name / "s.c"))]


def test_ripper_refuses_an_output_that_is_its_input_by_any_name(tmp_path):
    """The issue: `ripper s.c -o s.c` wrote the ripped text over the
    source, exit 0.  The same path, a symlink or a hard link: refused as a
    usage error (exit 2), nothing written."""
    src, cases = same_file_cases(tmp_path)
    for i, o in cases:
        r = run([RIPPER, i, "-o", o])
        assert r.returncode == 2, (i, o)
        assert r.stderr.decode() == \
            "ripper: error: input file '%s' is the same as output file\n" % i
        assert open(src, "rb").read() == GOOD
    assert sorted(os.listdir(tmp_path)) == ["hard.c", "link.c", "s.c"]


def test_ripcc_refuses_an_output_that_is_an_input_by_any_name(tmp_path):
    """The issue: `ripcc s.c -o s.c` put an ELF binary over the source."""
    src, cases = same_file_cases(tmp_path)
    other = write(tmp_path, "t.c", b"int t;\n")
    for backend in ("rip", "ucontext"):
        for i, o in cases:
            for argv in ([i, "-o", o], ["-c", i, "-o", o], ["-S", i, "-o", o],
                         ["-c", other, i, "-o", o], ["-E", i, "-o", o],
                         ["-c", i, "-MD", "-MF", o]):
                r = run([RIPCC, "--backend=" + backend] + argv)
                assert r.returncode == 2, (argv, r.stderr.decode())
                assert "ripcc: error: input file '%s' is the same as output file" % i in \
                    r.stderr.decode(), (argv, r.stderr.decode())
                assert open(src, "rb").read() == GOOD, argv
    assert sorted(os.listdir(tmp_path)) == ["hard.c", "link.c", "s.c", "t.c"]


def test_ripcc_refuses_to_write_an_object_over_an_input_named_like_it(tmp_path):
    """cc names the object of x.c x.o in the working folder: with x.o an
    input too (-x c makes it a source), that is the input."""
    obj = write(tmp_path, "x.o", GOOD)
    r = run([RIPCC, "-c", "-x", "c", "x.o"], cwd=str(tmp_path))
    assert r.returncode == 2, r.stderr.decode()
    assert open(obj, "rb").read() == GOOD


# -- plain blocking calls in async functions (-Wblocking) ---------------------

BLOCKS = b"""#include <stdio.h>
#include <unistd.h>
#include "rip.h"
#define NAP() sleep(0)
static void task(void *arg) {
    char buf[4];
    ssize_t n = read(0, buf, sizeof buf);
    (void)arg;
    NAP(); NAP();
    rip_yield();
    printf("%d\\n", (int)n);
}
int main(void) { return rip_run(task, 0); }
"""
WARNING = re.compile(r"^(\S+):(\d+):(\d+): (warning|error): (.+)$", re.M)


def test_a_blocking_call_in_an_async_function_is_a_warning_with_its_line_caret_and_hint(tmp_path):
    src = write(tmp_path, "b.c", BLOCKS)
    out = tmp_path / "b.rip.c"
    r = run([RIPPER, src, "-o", str(out)])
    assert r.returncode == 0 and out.exists()
    lines = r.stderr.decode().splitlines()
    at = lines.index("%s:7:17: warning: 'read' blocks the whole scheduler in async function "
                     "'task' [-Wblocking]" % src)
    assert lines[at + 1] == "    7 |     ssize_t n = read(0, buf, sizeof buf);"
    assert lines[at + 2] == "      |                 ^~~~"
    assert lines[at + 3] == "%s:7:17: note: use rip_read(fd, buf, len) (like read(2)): it " \
        "suspends only this task; or rip the program with --posix, which makes 'read' " \
        "suspend as written" % src


def test_a_blocking_call_a_macro_expands_to_is_a_warning_at_each_use_of_the_macro(tmp_path):
    src = write(tmp_path, "b.c", BLOCKS)
    r = run([RIPPER, src, "-o", str(tmp_path / "b.rip.c")])
    places = [(m.group(2), m.group(3)) for m in WARNING.finditer(r.stderr.decode())
              if "'sleep' (in the expansion of macro 'NAP')" in m.group(5)]
    assert places == [("9", "5"), ("9", "12")]


def test_wno_blocking_silences_the_warning(tmp_path):
    src = write(tmp_path, "b.c", BLOCKS)
    r = run([RIPPER, "-Wno-blocking", src, "-o", str(tmp_path / "b.rip.c")])
    assert r.returncode == 0 and r.stderr == b""


def test_werror_blocking_is_an_error_exit_1_and_no_output(tmp_path):
    src = write(tmp_path, "b.c", BLOCKS)
    out = tmp_path / "b.rip.c"
    r = run([RIPPER, "-Werror=blocking", src, "-o", str(out)])
    assert r.returncode == 1 and not out.exists()
    found = WARNING.findall(r.stderr.decode())
    assert len(found) == 3 and all(f[3] == "error" for f in found)
    assert all(f[4].endswith("[-Werror=blocking]") for f in found)


def test_werror_alone_leaves_the_blocking_check_a_warning(tmp_path):
    src = write(tmp_path, "b.c", BLOCKS)
    r = run([RIPPER, "-Werror", src, "-o", str(tmp_path / "b.rip.c")])
    assert r.returncode == 0 and b"warning: 'read'" in r.stderr


def test_blocking_options_after_dash_dash_or_in_compile_commands_are_rippers_not_ccs(tmp_path):
    src = write(tmp_path, "b.c", BLOCKS)
    out = tmp_path / "b.rip.c"
    # gcc -E would fail on -Wblocking ("unrecognized command-line option")
    r = run([RIPPER, src, "-o", str(out), "--", "-Wblocking", "-Wno-blocking"])
    assert r.returncode == 0 and r.stderr == b"", r.stderr
    (tmp_path / "compile_commands.json").write_text(json.dumps([
        {"directory": str(tmp_path), "file": "b.c",
         "command": "ripcc -Werror=blocking -c b.c"}]))
    r = run([RIPPER, "-p", str(tmp_path), src, "-o", str(out)])
    assert r.returncode == 1 and b"[-Werror=blocking]" in r.stderr
    assert b"unrecognized" not in r.stderr and b"no option" not in r.stderr


BLOCKING_OPTION = re.compile(r"-W(no-)?(error=)?blocking\b")


def logging_cc(tmp_path):
    """A C compiler (for RIPCC_CC) that logs its arguments and fails on
    any -W...blocking option, as gcc does."""
    log = tmp_path / "cc.log"
    cc = tmp_path / "logcc"
    cc.write_text('#!/bin/sh\necho "$@" >> %s\nfor a; do case "$a" in -W*blocking) '
                  'echo "cc: error: $a" >&2; exit 1;; esac; done\nexec cc "$@"\n' % log)
    cc.chmod(0o755)
    return str(cc), log


def test_ripcc_werror_blocking_compiles_nothing_and_cc_never_sees_the_flag(tmp_path):
    src = write(tmp_path, "b.c", BLOCKS)
    cc, log = logging_cc(tmp_path)
    exe = tmp_path / "b"
    r = run([RIPCC, "-Werror=blocking", src, "-o", str(exe)], env=dict(os.environ, RIPCC_CC=cc))
    assert r.returncode == 1 and not exe.exists()
    assert b"error: 'read' blocks the whole scheduler" in r.stderr
    calls = log.read_text().splitlines() if log.exists() else []
    assert not any(BLOCKING_OPTION.search(c) for c in calls)
    assert not any(" -c " in " %s " % c for c in calls)     # preprocessing only


def test_ripcc_ucontext_checks_blocking_calls_as_rip_does(tmp_path):
    """ucontext compiles the source as written, but a blocking call in a
    task stalls its scheduler there too: the same check, the same text."""
    src = write(tmp_path, "u.c", BLOCKS)
    said = {}
    for backend in ("rip", "ucontext"):
        r = run([RIPCC, "--backend=" + backend, src, "-o", str(tmp_path / backend)])
        assert r.returncode == 0, r.stderr
        said[backend] = r.stderr.decode()
    assert "u.c:7:17: warning: 'read' blocks the whole scheduler in async function 'task'" in \
        said["ucontext"]
    assert said["ucontext"] == said["rip"]
    r = run([RIPCC, "--backend=ucontext", "-Werror=blocking", src, "-o", str(tmp_path / "e")])
    assert r.returncode == 1 and not (tmp_path / "e").exists()
    assert b"error: 'read' blocks the whole scheduler" in r.stderr
    # -c: the file is compiled before it is checked; the error takes the object back
    r = run([RIPCC, "--backend=ucontext", "-Werror=blocking", "-c", src, "-o",
             str(tmp_path / "e.o")])
    assert r.returncode == 1 and not (tmp_path / "e.o").exists(), r.stderr.decode()
    plain = write(tmp_path, "plain.c", b"#include <unistd.h>\nint main(void) { return sleep(0); }\n")
    r = run([RIPCC, "--backend=ucontext", plain, "-o", str(tmp_path / "p")])
    assert r.returncode == 0 and r.stderr == b""


def test_ripcc_compiles_a_file_without_rip_h_once_and_checks_one_with_it(tmp_path):
    """A file that includes no rip.h (most files of a build) has no async
    function: on rip and ucontext it costs one compile, no preprocessor run
    (the compile's own list of the headers it read says so), even under
    -Wextra; a file that has one is ripped, or checked on ucontext, as
    before, its warning at the user's column."""
    cc, log = logging_cc(tmp_path)
    plain = write(tmp_path, "plain.c", b"#include <stdio.h>\nint main(void) { return 0; }\n")
    for backend in ("rip", "ucontext"):
        r = run([RIPCC, "--backend=" + backend, "-Wextra", "-c", plain, "-o",
                 str(tmp_path / "p.o")], env=dict(os.environ, RIPCC_CC=cc))
        assert r.returncode == 0 and r.stderr == b""
        calls = log.read_text().splitlines()
        assert [" -c " in " %s " % c and " -E " not in " %s " % c for c in calls] == [True], calls
        log.unlink()
    src = write(tmp_path, "u.c", BLOCKS.replace(b"read(", b"/* c */ read("))
    said = {}
    for backend in ("rip", "ucontext"):
        r = run([RIPCC, "--backend=" + backend, "-Wextra", "-c", src, "-o",
                 str(tmp_path / (backend + ".o"))], env=dict(os.environ, RIPCC_CC=cc))
        assert r.returncode == 0, r.stderr
        said[backend] = r.stderr.decode()
    assert "u.c:7:25: warning: 'read' blocks the whole scheduler" in said["ucontext"], said
    assert said["ucontext"] == said["rip"]


def test_ripcc_passes_the_warning_through_and_still_builds(tmp_path):
    src = write(tmp_path, "b.c", BLOCKS)
    cc, log = logging_cc(tmp_path)
    exe = tmp_path / "b"
    for backend in ("rip", "ucontext", "threads"):
        r = run([RIPCC, "--backend=" + backend, "-Wblocking", "-Wno-error=blocking", src,
                 "-o", str(exe)], env=dict(os.environ, RIPCC_CC=cc))
        assert r.returncode == 0, r.stderr
        # threads: a task is a thread, which a blocking call blocks alone
        assert (b"warning: 'read' blocks" in r.stderr) == (backend != "threads")
        assert run([str(exe)], input=b"").stdout == b"0\n"
    assert not BLOCKING_OPTION.search(log.read_text())


REDECLARED = rb"""
#include <stdio.h>
#include "rip.h"
RIP_ASYNC int ticks(int n);
RIP_ASYNC int ticks(int  n);       /* the user's own second declaration */
int later(int n);
RIP_ASYNC int ticks(int n) { rip_yield(); return n + 1; }
int later(int n) { return ticks(n) * 2; }
static void task(void *arg) { (void)arg; printf("%d\n", later(ticks(1))); }
int main(void) { return rip_run(task, NULL); }
"""


def test_ripped_code_declares_each_constructor_once(tmp_path):
    """A function declared (in a header, say) before its definition: its
    constructor's prototype is written once, so -Wredundant-decls finds
    nothing ripper added."""
    src = write(tmp_path, "r.c", REDECLARED)
    exe = str(tmp_path / "r")
    r = run([RIPCC, "-Wall", "-Wextra", "-Wredundant-decls", "-Wmissing-prototypes",
             src, "-o", exe])
    assert r.returncode == 0, r.stderr.decode()
    complaints = [l for l in r.stderr.decode().splitlines() if "warning" in l]
    assert all("'ticks'" in l or "‘ticks’" in l for l in complaints), complaints  # the user's own
    assert run([exe]).stdout == b"6\n"


def test_stats_json_never_overwrites_the_input_or_the_output(tmp_path):
    src = write(tmp_path, "b.c", BUDGET)
    out = tmp_path / "b.rip.c"
    for target in (src, str(out)):
        r = run([RIPPER, src, "-o", str(out), "--stats-json", target])
        assert r.returncode == 2 and b"--stats-json file" in r.stderr, r.stderr
    assert (tmp_path / "b.c").read_bytes() == BUDGET and not out.exists()
    r = run([RIPPER, src, "-o", "-", "--stats-json=-"])
    assert r.returncode == 2 and b"standard output" in r.stderr
    r = run([RIPPER, src, "-o", str(out), "--stats-json", str(tmp_path / "no" / "s.json")])
    assert r.returncode == 1 and b"cannot write %s" % str(tmp_path / "no" / "s.json").encode() \
        in r.stderr and not out.exists()


def test_max_frame_holds_when_the_posix_link_rips_an_object_again(tmp_path):
    """--posix: b.c's g calls a.c's f plainly, compiled apart; at the link
    f is async, g is ripped again with a 4,000-byte array in its frame."""
    write(tmp_path, "a.c", b"#include <unistd.h>\n"
                           b"int f(void) { char c; return (int)read(0, &c, 1); }\n")
    write(tmp_path, "b.c", b"#include <string.h>\nint f(void);\n"
                           b"int g(void) { char big[4000]; memset(big, 1, sizeof big); "
                           b"int r = f(); return big[r + 5]; }\n"
                           b"int main(void) { return g(); }\n")
    for name in ("a.c", "b.c"):
        r = run([RIPCC, "--posix", "--max-frame=100", "-c", name], cwd=str(tmp_path))
        assert r.returncode == 0, r.stderr.decode()
    r = run([RIPCC, "--posix", "a.o", "b.o", "-o", "prog"], cwd=str(tmp_path))
    assert r.returncode == 1, r.stderr.decode()
    assert b"b.c:3:5: error: the frame of 'g' is" in r.stderr and \
        b"more than --max-frame=100" in r.stderr, r.stderr.decode()
    assert not (tmp_path / "prog").exists()

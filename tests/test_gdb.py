"""gdb on a ripped program (issue 24): every program carries the runtime's
gdb script (runtime/src/shared/rip-gdb.py, in its .debug_gdb_scripts
section), which gdb loads with it: `rip tasks` lists what the program's own
rip_dump_tasks lists, from a live process and from a core file; `rip bt N`
shows one task's chain with its variables by their source names; `rip
print` finds a ripped function's variables by their source names; `bt`
names ripped functions as the source does, with their suspended callers."""
import re
import resource
import shutil
import subprocess

import pytest

from conftest import BACKENDS, SAN, run
from test_task_dump import PROGRAM, SLEEP_CUT, line_of

pytestmark = [
    pytest.mark.skipif(shutil.which("gdb") is None, reason="gdb is not installed"),
    # what these check is the gdb script, which no sanitizer looks at; and
    # LeakSanitizer stops with an error under ptrace
    pytest.mark.skipif(SAN, reason="gdb's view, not run under the sanitizers (make test SAN=1)"),
]

# gdb loads a program's scripts only from folders on its `auto-load
# safe-path` (the README says how to add one); -nx: no user's gdbinit.
GDB = ["gdb", "-nx", "-batch", "-iex", "set auto-load safe-path /"]


def gdb(args, timeout=120):
    r = run(GDB + args, timeout=timeout)
    return r.stdout.decode() + r.stderr.decode()


def listing(text):
    """The lines of a `rip tasks` or rip_dump_tasks output, with the task
    numbers `rip tasks` adds dropped and the times that differ from one
    look to the next made N."""
    out = []
    for line in text.splitlines():
        if not line.startswith(("rip: tasks", "rip: stats", "task ", "    ")):
            continue
        line = re.sub(r"^task \d+ 0x", "task 0x", line)
        line = re.sub(r"due in \d+ ms", "due in N ms", line)
        line = re.sub(r"due at \d+ ms \(the program's monotonic clock\)", "due in N ms", line)
        line = re.sub(r", (waited|waiting since) \d+ ms", "", line)
        out.append(line)
    return out


@pytest.fixture(scope="module")
def dump_program(tmp_path_factory):
    path = tmp_path_factory.mktemp("gdb") / "dump.c"
    path.write_text(PROGRAM.replace(SLEEP_CUT, "rip_sleep_ms(1500)"))
    return path


def stopped_in_the_dump(ripcc, dump_program, backend, tmp_path, more=(), core=False):
    """(gdb's output, the program's own output, the program, the core gdb
    wrote if asked): the program stopped where it calls rip_dump_tasks,
    `rip tasks` asked, then the program's own dump let run."""
    exe = ripcc(str(dump_program), backend)
    out, core_file = tmp_path / "out.txt", tmp_path / "core"
    text = gdb(["-ex", "break rip_dump_tasks", "-ex", "run > %s" % out, "-ex", "rip tasks"] +
               [x for c in more for x in ("-ex", c)] +
               (["-ex", "gcore %s" % core_file] if core else []) + ["-ex", "continue", exe])
    return text, out.read_text(), exe, core_file if core else None


@pytest.mark.parametrize("backend", BACKENDS)
def test_rip_tasks_lists_what_the_programs_own_dump_lists(ripcc, dump_program, backend, tmp_path):
    """Stopped where the program dumps its tasks, `rip tasks` prints the very
    dump the program then prints (read by gdb from the runtime's structures,
    no call into the program), but for the task numbers it adds; on threads
    the chains are the task threads' stacks, which the program cannot walk."""
    text, own, _, _ = stopped_in_the_dump(ripcc, dump_program, backend, tmp_path)
    mine, theirs = listing(text), listing(own)
    assert re.search(r"^task 1 0x[0-9a-f]+: running$", text, re.M), text
    waiting = re.findall(r"^task \d+ 0x[0-9a-f]+: waiting .*$", text, re.M)
    assert len(waiting) == 5 and all(re.search(r", waited \d+ ms$", x) for x in waiting), text
    if backend == "rip":
        assert mine == theirs, text
        assert len(mine) > 9
        return
    # ucontext: the chain from each task's saved registers; threads: from
    # each task's thread
    source = dump_program.read_text()
    at = lambda fn, mark: "    %s (%s:%d)" % (fn, dump_program, line_of(source, mark))
    for chain in ([at("reader", "L_read"), at("waiter", "L_reader"), at("task", "L_waiter")],
                  [at("waiter", "L_recv"), at("task", "L_waiter")],
                  [at("waiter", "L_sleep"), at("task", "L_waiter")],
                  [at("spinner", "L_yield")]):
        assert "\n".join(chain) in "\n".join(mine), text
    tasks = [x for x in mine if not x.startswith("    ")]
    if backend == "ucontext":
        assert tasks == [x for x in theirs if not x.startswith("    ")], text + own
    else:
        # its threads run on between gdb's look and the program's: each task
        # the program lists, gdb lists alike (the stats may differ)
        tasks = [x for x in tasks if x.startswith("task ")]
        assert len(tasks) == 7 and set(x for x in theirs if x.startswith("task ")) <= set(tasks), \
            text + own


def kernel_core(exe, tmp_path):
    """(gdb's `rip tasks` of the program stopped where it dumps, a core
    the kernel wrote of it there on SIGABRT), or (None, None) where the
    kernel writes cores elsewhere (a core_pattern piped to a collector)."""
    with open("/proc/sys/kernel/core_pattern") as f:
        pattern = f.read().strip()
    if pattern.startswith("|") or "/" in pattern:
        return None, None
    r = subprocess.run(GDB + ["-ex", "break rip_dump_tasks", "-ex", "run > out.txt",
                              "-ex", "rip tasks", "-ex", "signal SIGABRT", exe],
                       cwd=str(tmp_path), capture_output=True, timeout=120,
                       preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_CORE,
                                                             (resource.RLIM_INFINITY,) * 2))
    cores = [p for p in tmp_path.iterdir() if p.name.startswith("core")]
    return (r.stdout.decode(), cores[0]) if cores else (None, None)


@pytest.mark.parametrize("backend", BACKENDS)
def test_rip_tasks_reads_a_core_file(ripcc, dump_program, backend, tmp_path):
    """The same listing from a core file of the stopped program (the
    kernel's, where it writes one here; else gdb's gcore), with a timer's
    due time as the program's clock read it (a core has no now)."""
    exe = ripcc(str(dump_program), backend)
    text, core = kernel_core(exe, tmp_path)
    if core is None:
        if backend == "ucontext":
            pytest.skip("no kernel core here, and gcore cannot read a chunk of task stacks "
                        "with guard pages in it")
        text, _, exe, core = stopped_in_the_dump(ripcc, dump_program, backend, tmp_path,
                                                 core=True)
    try:
        from_core = gdb(["-ex", "rip tasks", exe, str(core)])
    finally:
        core.unlink()               # hundreds of MB (gcore writes every thread's arena whole)
    assert "due at " in from_core, from_core
    waiting = re.findall(r"^task \d+ 0x[0-9a-f]+: waiting .*$", from_core, re.M)
    assert waiting and all(re.search(r", waiting since \d+ ms$", x) for x in waiting), from_core
    live = [x for x in listing(text) if "running" not in x]
    dead = [x for x in listing(from_core) if "running" not in x]
    assert live == dead and len(dead) > 5, from_core


def test_rip_bt_on_ucontext_walks_a_switched_out_tasks_stack(ripcc, dump_program, tmp_path):
    """`rip bt N` on ucontext: the task's own stack, from the registers its
    context saved, each level with its variables."""
    text, _, _, _ = stopped_in_the_dump(ripcc, dump_program, "ucontext", tmp_path,
                                        more=["rip bt 3", "bt 1"])
    source = dump_program.read_text()
    bt = text[text.index("\ntask 3 "):]
    assert re.search(r"#0 reader \(\S*dump\.c:%d\)\n        b = 0 '\\000'\n#1 waiter \(\S*dump\.c:%d\)\n"
                     % (line_of(source, "L_read"), line_of(source, "L_reader")), bt), text
    assert "#0  rip_dump_tasks" in bt, text      # gdb's own unwinding is itself again after


def test_rip_bt_shows_a_suspended_tasks_levels_with_their_variables(ripcc, dump_program, tmp_path):
    """`rip bt N` on rip: each level of the chain, innermost first, with the
    variables of its frame by their source names (the chain's numbers are
    the ones `rip tasks` gives)."""
    text, _, _, _ = stopped_in_the_dump(ripcc, dump_program, "rip", tmp_path,
                                        more=["rip bt 5"])
    source = dump_program.read_text()
    bt = text[text.index("\ntask 5 "):]
    assert re.search(r"#0 waiter \(\S*dump\.c:%d\)\n        kind = 1\n        x = 0\n        y = 0\n"
                     r"#1 task \(\S*dump\.c:%d\)\n        arg = 0x1\n"
                     % (line_of(source, "L_recv"), line_of(source, "L_waiter")), bt), text


SHADOWS = r"""#include <stdio.h>
#include "rip.h"

static rip_chan *ch;

RIP_ASYNC static int inner(int depth, const char *tag) {
    int got = 0;
    char buf[16];
    snprintf(buf, sizeof buf, "%s%d", tag, depth);
    rip_chan_recv(ch, &got);
    {
        int got = depth * 2;
        rip_yield();
        printf("%s %d\n", buf, got); /* L_stop */
    }
    return got + depth;
}
RIP_ASYNC static int outer(int n) {
    int total = inner(n, "t"); /* L_inner */
    return total;
}
static void task(void *arg) {
    printf("%d\n", outer((int)(long)arg)); /* L_outer */
}
static void sender(void *arg) {
    int v = 7;
    (void)arg;
    rip_chan_send(ch, &v);
}
int main(void) {
    ch = rip_chan_new(sizeof(int), 0);
    rip_spawn(sender, 0);
    return rip_run(task, (void *)5);
}
"""


@pytest.fixture(scope="module")
def stopped_in_a_block(ripcc, tmp_path_factory):
    """gdb's output, stopped in a ripped function's inner block after it
    resumed, and the source's lines."""
    path = tmp_path_factory.mktemp("shadows") / "shadows.c"
    path.write_text(SHADOWS)
    exe = ripcc(str(path), "rip")
    where = "shadows.c:%d" % line_of(SHADOWS, "L_stop")
    return gdb(["-ex", "break " + where, "-ex", "run", "-ex", "rip print got",
                "-ex", "rip print got + depth * 100", "-ex", "rip print buf",
                "-ex", "rip p sizeof buf", "-ex", "bt 1", "-ex", "bt full 1", exe])


def test_rip_print_finds_the_innermost_variable_of_that_name(stopped_in_a_block):
    """In a ripped function, `rip print` reads the user's variables where
    they live (its frame), the block's `got` shadowing the function's, and
    takes whole expressions."""
    out = stopped_in_a_block
    assert "$1 = 10\n" in out, out           # the block's got: depth * 2
    assert "$2 = 510\n" in out, out
    assert '$3 = "t5"' in out, out
    assert "$4 = 16\n" in out, out


def test_bt_names_ripped_functions_as_the_source_does_with_their_callers(stopped_in_a_block):
    """`bt` shows `inner (depth=5, tag=...)`, not `rip__resume_inner
    (rip__self=...)`, and after it the callers that suspended (not on the
    C stack: the scheduler resumed inner), each at the line of its call;
    `bt full` lists the variables in scope by their source names."""
    out = stopped_in_a_block
    stop, inner, outer = (line_of(SHADOWS, m) for m in ("L_stop", "L_inner", "L_outer"))
    assert re.search(r'#0  inner \(depth=5, tag=0x[0-9a-f]+ "t"\) at \S*shadows\.c:%d\n'
                     r"    outer \(n=5\) at \S*shadows\.c:%d\n"
                     r"    task \(arg=0x5\) at \S*shadows\.c:%d\n" % (stop, inner, outer), out), out
    full = out[out.rindex("#0  inner"):]
    assert re.search(r"\n        got = 10\n        buf = \"t5\"", full), out
    assert "rip__resume_inner (" not in out.split("Breakpoint 1, ")[-1].split("\n", 2)[2], out


@pytest.mark.parametrize("backend", BACKENDS)
def test_every_program_carries_the_script_and_gdb_loads_it(tmp_path, ripcc, backend):
    """The script is in the program (so it matches the runtime it was built
    with, with nothing installed); gdb loads it once its folder is trusted."""
    src = tmp_path / "tiny.c"
    src.write_text('#include "rip.h"\nstatic void t(void *a) { (void)a; rip_yield(); }\n'
                   'int main(void) { return rip_run(t, 0); }\n')
    exe = ripcc(str(src), backend)
    out = gdb(["-ex", "info auto-load python-scripts", "-ex", "help rip", exe])
    assert re.search(r"Yes\s+gdb\.inlined-script\.rip-gdb", out), out
    for command in ("rip tasks", "rip bt", "rip print"):
        assert command in out, out


def test_gdb_declines_the_script_of_an_untrusted_folder_and_says_how(tmp_path, ripcc):
    """gdb's own safety rule: without the folder on its safe-path it loads
    nothing, and says which line to add (the README's set-up step)."""
    src = tmp_path / "tiny.c"
    src.write_text('#include "rip.h"\nstatic void t(void *a) { (void)a; }\n'
                   'int main(void) { return rip_run(t, 0); }\n')
    exe = ripcc(str(src), "rip")
    r = run(["gdb", "-nx", "-batch", "-ex", "rip tasks", exe], timeout=60)
    out = r.stdout.decode() + r.stderr.decode()
    assert "add-auto-load-safe-path" in out, out


def test_readme_gdb_session_is_what_gdb_prints(tmp_path):
    """README's gdb session on its stuck.c, built as README says, prints what
    README shows (addresses and the pool's bytes aside)."""
    import os
    from conftest import RIPCC, ROOT
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    source = next(block for block in re.findall(r"```c\n(.*?)```", readme, re.S)
                  if block.startswith("/* stuck.c"))
    session = re.search(r"```\n(\$ gdb -q ./stuck\n.*?)```", readme, re.S).group(1)
    commands = [line[len("(gdb) "):] for line in session.splitlines() if line.startswith("(gdb) ")]
    shown = [line for line in session.splitlines()[1:] if not line.startswith("(gdb) ")]
    (tmp_path / "stuck.c").write_text(source)
    assert run([RIPCC, "-g", "stuck.c", "-o", "stuck"], cwd=str(tmp_path)).returncode == 0
    r = run(GDB + ["-q"] + [x for c in commands for x in ("-ex", c)] + ["./stuck"],
            cwd=str(tmp_path), timeout=60)
    printed = [line for line in r.stdout.decode().splitlines()
               if line and not line.startswith(("[", "Breakpoint 1 at ")) and
               "libthread_db" not in line]

    def same(lines):
        return [re.sub(r"frames \d+ bytes, pooled \d+ bytes", "frames F",
                       re.sub(r"0x[0-9a-f]+", "ADDR", line)) for line in lines]
    assert same(printed) == same(shown), r.stdout.decode() + r.stderr.decode()

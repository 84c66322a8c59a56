"""rip_speed.py -- how fast ripper is, against gcc -O2 -c on the same file.

Generates a C file of about LINES lines (async functions with loops,
conditions, async calls inside expressions, locals live and dead across
suspensions), then times, each as the median of RUNS runs: `gcc -O2 -c`
of the file (the goal: ripping takes no longer), a bare libclang parse of
its preprocessed text, and ripper's whole pipeline, stage by stage
(preprocess, parse, analysis, lowering: normalize, liveness, printing;
render), and the peak memory of the `ripper` command beside gcc's.  Then
real files, as a build pays for them: the `ripper` command (Python's
start and imports included) beside `gcc -O2 -c`, seconds and peak memory, for
examples/httpd.c and zlib's largest files (from Debian's gcc-12-source,
when installed), plain and --all-async.  Also any files given with --file.
Last, SQLite (npm's sqlite3 package carries its amalgamation; fetched by
fuzz/real_libs.py): sqlite3.c, shell.c, and the two as one translation
unit, each once, `ripper --all-async` beside `gcc -O2 -c` (seconds and
peak memory), then gcc on the ripped text; the unit's ripping time
against the sum of its parts' says whether ripping grows linearly.

    python bench/rip_speed.py [LINES] [--file F.c ...] [--no-sqlite]    (make bench-ripper)
"""
import gc
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

import clang.cindex as ci

from ripper.analysis import Analysis
from ripper.lower import lower
from ripper.parse import LENIENT, parse
from ripper.preprocess import RUNTIME_INCLUDE, compiler, preprocess

RUNS = 5

FUNCTION = """
RIP_ASYNC int step_{i}(int n, int *acc) {{
    int local = n * 2, dead = 0;
    char buf[16];
    for (int k = 0; k < n; k++) {{
        dead = k + local;
        buf[k % 16] = (char)dead;
        if (k % 3 == 0 && step_{prev}(k - 1, acc) > 2)
            *acc += buf[0];
        else
            rip_yield();
    }}
    while (rip_chan_recv(chan, &local) && local > 0)
        local = local - 1 + (n ? step_{prev}(n - 1, acc) : 0);
    switch (n) {{
    case 0:
        rip_yield();
        break;
    default:
        *acc += n;
    }}
    return local + buf[1];
}}
"""


def generate(lines):
    out = ['#include "rip.h"', "static rip_chan *chan;",
           "RIP_ASYNC int step_0(int n, int *acc) { (void)acc; rip_yield(); return n; }"]
    i = 1
    while sum(s.count("\n") + 1 for s in out) < lines:
        out.append(FUNCTION.format(i=i, prev=i - 1))
        i += 1
    return "\n".join(out) + "\n", i - 1


def median_seconds(fn):
    times = []
    for _ in range(RUNS):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def stage_times(path, source, flags, all_async):
    """Seconds per stage of one rip of `path` (the collector off, as ripper
    runs)."""
    gc.disable()
    try:
        return _stage_times(path, source, flags, all_async)
    finally:
        gc.enable()


def _stage_times(path, source, flags, all_async):
    times = {}
    t = time.perf_counter()
    pre = preprocess(path, source, flags)
    times["preprocess"] = time.perf_counter() - t
    t = time.perf_counter()
    unit = parse(pre)
    times["parse (libclang and tree)"] = time.perf_counter() - t
    t = time.perf_counter()
    analysis = Analysis(unit, all_async)
    times["analysis"] = time.perf_counter() - t
    t = time.perf_counter()
    rw = lower(unit, analysis, all_async)
    times["lower"] = time.perf_counter() - t
    t = time.perf_counter()
    rw.render()
    times["render"] = time.perf_counter() - t
    return times, pre


def report(path, source, label, flags=(), all_async=False):
    runs = [stage_times(path, source, flags, all_async) for _ in range(RUNS)]
    pre = runs[0][1]
    stages = {k: statistics.median(r[0][k] for r in runs) for k in runs[0][0]}
    total = statistics.median(sum(r[0].values()) for r in runs)
    name = path + ".i"
    bare = median_seconds(lambda: ci.Index.create().parse(
        name, args=["-x", "cpp-output"] + LENIENT, unsaved_files=[(name, pre.text)]))
    with tempfile.TemporaryDirectory() as tmp:
        gcc = median_seconds(lambda: subprocess.run(
            compiler() + ["-O2", "-w", "-c", path, "-o", os.path.join(tmp, "o.o"),
                          "-I", RUNTIME_INCLUDE] + list(flags), check=True))
    lines = source.count(b"\n")
    print("%s: %d lines (median of %d runs)" % (label, lines, RUNS))
    print("| step                          | seconds |")
    print("|-------------------------------|--------:|")
    print("| gcc -O2 -c                    | %7.3f |" % gcc)
    print("| bare libclang parse           | %7.3f |" % bare)
    for k, v in stages.items():
        print("| ripper: %-21s | %7.3f |" % (k, v))
    print("| ripper, all of it             | %7.3f |" % total)
    print("ripper takes %.2fx the time of gcc -O2 -c, %.1fx a bare libclang parse"
          % (total / gcc, total / bare))
    with tempfile.TemporaryDirectory() as tmp:
        gcc_mb = peak_memory(compiler() + ["-O2", "-w", "-c", path, "-o", os.path.join(tmp, "o.o"),
                                           "-I", RUNTIME_INCLUDE] + list(flags))[1]
        rip_mb = peak_memory([os.path.join(os.path.dirname(sys.executable), "ripper"),
                              "-I", RUNTIME_INCLUDE] + list(flags) +
                             [path, "-o", os.path.join(tmp, "o.c")])[1]
    print("peak memory: gcc -O2 -c %s MB, the ripper command %s MB\n" % (gcc_mb, rip_mb))


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ZLIB_FILES = ("deflate.c", "inflate.c", "trees.c", "gzlib.c")


def zlib_files():
    """zlib's largest files, from gcc-12-source's tarball (fuzz/torture.py
    extracts it once); [] when the package is not installed."""
    sys.path.insert(0, os.path.join(ROOT, "fuzz"))
    from torture import zlib_folder
    folder = zlib_folder()
    return [] if folder is None else [os.path.join(folder, f) for f in ZLIB_FILES]


def installed_ripper(tmp):
    """The `ripper` command of a wheel built from this clone and installed
    in a fresh virtualenv under `tmp`, as a user has it: the clone's own
    editable install adds some 14 ms to every start (setuptools' import
    finder loads pathlib and more).  libclang is linked in from this
    virtualenv, so no network is needed.  The clone's command if the wheel
    cannot be built here."""
    here = os.path.join(os.path.dirname(sys.executable), "ripper")
    venv = os.path.join(tmp, "venv")
    steps = [[sys.executable, "-m", "build", "--wheel", "--no-isolation", "-o", tmp, ROOT],
             [sys.executable, "-m", "venv", venv]]
    for step in steps:
        if subprocess.run(step, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode:
            print("(the wheel could not be built or installed: timing the clone's ripper)")
            return here
    wheel = [os.path.join(tmp, f) for f in os.listdir(tmp) if f.endswith(".whl")][0]
    subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "--no-deps",
                    "--no-index", wheel], check=True)
    site = subprocess.check_output([os.path.join(venv, "bin", "python"), "-c",
                                    "import sysconfig; print(sysconfig.get_path('purelib'))"],
                                   text=True).strip()
    os.symlink(os.path.dirname(ci.__file__), os.path.join(site, "clang"))
    return os.path.join(venv, "bin", "ripper")


def command_table(files):
    """The `ripper` command, installed from a wheel, against `gcc -O2 -c`,
    end to end, per file and mode: what a build pays."""
    with tempfile.TemporaryDirectory() as tmp:
        _command_table(files, installed_ripper(tmp))


def _command_table(files, ripper):
    include = ["-I", RUNTIME_INCLUDE, "-I", os.path.join(ROOT, "examples")]
    print("The ripper command (installed from a wheel), end to end (median of %d runs, side "
          "by side):" % RUNS)
    print("(the ripping alone: the stages in this process, without Python's start-up and "
          "the fork the command pays)")
    print("(peak memory: of the largest process each command ran, one run)")
    print("| file | lines | mode | gcc -O2 -c (s) | ripper (s) | ripper / gcc | "
          "ripping alone / gcc | gcc peak (MB) | ripper peak (MB) |")
    print("|---|--:|---|--:|--:|--:|--:|--:|--:|")
    peaks = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            with open(path, "rb") as f:
                source = f.read()
            for mode in ([], ["--all-async"]):
                gcc, rip, alone = [], [], []
                for _ in range(RUNS):       # alternated: the machine's noise hits both
                    gcc.append(timed(compiler() + ["-O2", "-w", "-c", path, "-o",
                                                   os.path.join(tmp, "o.o")] + include))
                    rip.append(timed([ripper] + mode + include + [path, "-o",
                                                                  os.path.join(tmp, "o.c")]))
                    alone.append(sum(stage_times(path, source, include, bool(mode))[0].values()))
                g, r, a = (statistics.median(x) for x in (gcc, rip, alone))
                gcc_mb = peak_memory(compiler() + ["-O2", "-w", "-c", path, "-o",
                                                   os.path.join(tmp, "o.o")] + include)[1]
                rip_mb = peak_memory([ripper] + mode + include + [path, "-o",
                                                                  os.path.join(tmp, "o.c")])[1]
                peaks.append((gcc_mb, rip_mb))
                print("| %s | %d | %s | %.3f | %.3f | %.2f | %.2f | %s | %s |" % (
                    os.path.relpath(path, ROOT), source.count(b"\n"),
                    " ".join(mode) or "plain", g, r, r / g, a / g, gcc_mb, rip_mb))
    print(memory_verdict(peaks) + "\n")


def sqlite_files(tmp):
    """(label, path, extra flags) of sqlite3.c, shell.c and both as one
    unit, or [] when SQLite cannot be fetched."""
    sys.path.insert(0, os.path.join(ROOT, "fuzz"))
    import real_libs
    try:
        src = real_libs.sqlite_source()
    except real_libs.Skip as s:
        print("(no SQLite: %s)" % s)
        return []
    shell = os.path.join(src, "shell.c")
    unit = real_libs.unity(os.path.join(tmp, "sqlite_shell.c"),
                           [os.path.join(src, "sqlite3.c"), shell],
                           before={shell: "#define appendText shell_appendText\n"})
    flags = [f for f in real_libs.SQLITE_FLAGS if f != "-O2"] + ["-I", src]
    return [("sqlite3.c", os.path.join(src, "sqlite3.c"), flags),
            ("shell.c", shell, flags), ("sqlite3.c + shell.c, one unit", unit, flags)]


def big_table(ripper):
    """SQLite, each file once, side by side: ripping beside compiling, and
    gcc's time on what ripper wrote."""
    with tempfile.TemporaryDirectory() as tmp:
        files = sqlite_files(tmp)
        if not files:
            return
        print("SQLite 3.52 (one run each; ripper --all-async, as fuzz-reallibs rips it):")
        print("(seconds, and the peak memory of the largest process each command ran)")
        print("| file | lines | gcc -O2 -c | ripper --all-async | ripper / gcc | "
              "gcc -O2 -c of the ripped text |")
        print("|---|--:|--:|--:|--:|--:|")
        rip_seconds, total_lines, peaks = {}, 0, []
        for label, path, flags in files:
            with open(path, "rb") as f:
                lines = f.read().count(b"\n")
            lines = lines if "one unit" not in label else total_lines    # the parts' lines
            total_lines += lines
            out_o, out_c = os.path.join(tmp, "o.o"), os.path.join(tmp, "o.c")
            gcc = peak_memory(compiler() + ["-O2", "-w", "-c", path, "-o", out_o] + flags)
            rip = peak_memory([ripper, "--all-async"] + flags + [path, "-o", out_c])
            again = peak_memory(compiler() + ["-O2", "-w", "-c", out_c, "-o", out_o]) \
                if os.path.exists(out_c) else None
            peaks.append((gcc[1], rip[1]))
            rip_seconds[label] = rip[0]
            print("| %s | %d | %s | %s | %.2f | %s |" % (
                label, lines, shown(gcc), shown(rip), rip[0] / gcc[0],
                shown(again) if again else "(not ripped)"))
            if os.path.exists(out_c):
                os.unlink(out_c)
        print(memory_verdict(peaks))
        parts = rip_seconds.get("sqlite3.c", 0) + rip_seconds.get("shell.c", 0)
        whole = rip_seconds.get("sqlite3.c + shell.c, one unit", 0)
        if parts and whole:
            print("the unit takes %.2fx the sum of its parts to rip (1.00: linear)\n"
                  % (whole / parts))


def peak_memory(cmd):
    """(seconds, peak RSS in MB) of one run of `cmd`, the RSS of the
    largest process it ran (real_libs.measured: ripper rips in a child,
    gcc compiles in cc1); the RSS is "?" when it could not be measured."""
    sys.path.insert(0, os.path.join(ROOT, "fuzz"))
    from real_libs import measured
    ran, text = measured(cmd)
    m = re.search(r"([\d.]+) s, peak (\d+) MB", text)
    return (float(m.group(1)), m.group(2)) if m else (0.0, "?")


def shown(measure):
    """peak_memory's (seconds, RSS) as a table cell."""
    return "%.1f s, %s MB" % measure


FLOOR_MB = 60                   # a peak under this is ripper's fixed floor, not the file's


def memory_verdict(peaks):
    """What a table's memory column says, of [(gcc's peak, ripper's)]."""
    known = [(int(g), int(r)) for g, r in peaks if "?" not in (g, r)]
    over = [r - g for g, r in known if r > g]
    floor = all(r < FLOOR_MB for g, r in known if r > g)
    return ("ripper's peak at or below gcc's on %d of %d runs%s%s" % (
        len(known) - len(over), len(known),
        "" if not over else "; over by %d to %d MB on the others" % (min(over), max(over)),
        "" if not over or not floor else ", small files, where Python and libclang set "
        "ripper's floor (some 46 MB: 29 of them libclang's code, read from its file and "
        "shared by every ripper running at once)"))


def timed(args):
    t = time.perf_counter()
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - t


def main():
    args = sys.argv[1:]
    files = []
    sqlite = "--no-sqlite" not in args
    if not sqlite:
        args.remove("--no-sqlite")
    while "--file" in args:
        i = args.index("--file")
        files.append(args[i + 1])
        del args[i:i + 2]
    lines = int(args[0]) if args else 10000
    text, functions = generate(lines)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "big.c")
        with open(path, "w") as f:
            f.write(text)
        report(path, text.encode(), "a generated file, %d async functions" % functions)
    command_table([os.path.join(ROOT, "examples", "httpd.c"),
                   os.path.join(ROOT, "examples", "echo.c")] + zlib_files() + files)
    if sqlite:
        big_table(os.path.join(os.path.dirname(sys.executable), "ripper"))


if __name__ == "__main__":
    main()

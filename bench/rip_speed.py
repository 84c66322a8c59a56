"""rip_speed.py -- how fast ripper is, against gcc -O2 -c on the same file.

Generates a C file of about LINES lines (async functions with loops,
conditions, async calls inside expressions, locals live and dead across
suspensions), then times, each as the median of RUNS runs: `gcc -O2 -c`
of the file (the goal: ripping takes no longer), a bare libclang parse of
its preprocessed text, and ripper's whole pipeline, stage by stage
(preprocess, parse, analysis, lowering: normalize, liveness, printing;
render).  Also the same for any files given with --file.

    python bench/rip_speed.py [LINES] [--file F.c ...]    (make bench-ripper)
"""
import gc
import os
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
    print("ripper takes %.2fx the time of gcc -O2 -c, %.1fx a bare libclang parse\n"
          % (total / gcc, total / bare))


def main():
    args = sys.argv[1:]
    files = []
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
    for f in files:
        with open(f, "rb") as fh:
            report(f, fh.read(), f + " --all-async", all_async=True)


if __name__ == "__main__":
    main()

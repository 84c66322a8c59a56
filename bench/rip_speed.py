"""rip_speed.py -- how fast ripper is, against a bare libclang parse.

Generates a C file of about LINES lines (async functions with loops,
conditions, async calls inside expressions, locals live and dead across
suspensions), then times, each as the median of RUNS runs in this one
process: a bare libclang parse of the file, and ripper's whole pipeline
(parse, analysis, liveness, lowering, emit).

    python bench/rip_speed.py [LINES]        (make bench-ripper)
"""
import os
import statistics
import sys
import tempfile
import time

import clang.cindex as ci

from ripper.cli import rip_source
from ripper.parse import _clang_args

RUNS = 5

FUNCTION = """
RIP_ASYNC static int step_{i}(int n, int *acc) {{
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
           "RIP_ASYNC static int step_0(int n, int *acc) { (void)acc; rip_yield(); return n; }"]
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


def main():
    lines = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    text, functions = generate(lines)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "big.c")
        with open(path, "w") as f:
            f.write(text)
        source = text.encode()
        nlines = text.count("\n")
        args = _clang_args(())
        bare = median_seconds(lambda: ci.Index.create().parse(
            path, args=args, unsaved_files=[(path, source)]))
        ripped = median_seconds(lambda: rip_source(path, source))
    print("ripping a generated file: %d lines, %d async functions (median of %d runs)"
          % (nlines, functions, RUNS))
    print("| step                       | seconds | lines/s |")
    print("|----------------------------|--------:|--------:|")
    print("| bare libclang parse        | %7.3f | %7.0f |" % (bare, nlines / bare))
    print("| ripper (parse ... emit)    | %7.3f | %7.0f |" % (ripped, nlines / ripped))
    print("ripper takes %.1fx the time of a bare parse" % (ripped / bare))


if __name__ == "__main__":
    main()

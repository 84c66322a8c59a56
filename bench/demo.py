"""demo.py -- the main job, short: the ping-pong example built three ways
(rip, ucontext, threads) and run side by side; prints switches per second
(median of RUNS runs) and how many times faster rip is.

    python bench/demo.py BUILD_DIR      (make demo builds and runs it)"""
import os
import re
import statistics
import subprocess
import sys

RUNS = 3
# Round trips per backend: each run takes a fraction of a second.
ROUNDS = {"rip": 1000000, "ucontext": 200000, "threads": 20000}
LINE = re.compile(r"^(\w+)\s+(\d+) switches in ([\d.]+) s")


def measure(exe, rounds):
    """{'channel': ns per switch, 'yield': ns per switch} of one run."""
    out = subprocess.run([exe, str(rounds)], capture_output=True, text=True,
                         timeout=300, check=True).stdout
    result = {}
    for line in out.splitlines():
        m = LINE.match(line)
        if m:
            result[m.group(1)] = float(m.group(3)) * 1e9 / int(m.group(2))
    return result


def main(build):
    table = {}
    for backend, rounds in ROUNDS.items():
        exe = os.path.join(build, "pingpong-" + backend)
        print("running %s x%d ..." % (exe, RUNS), file=sys.stderr, flush=True)
        runs = [measure(exe, rounds) for _ in range(RUNS)]
        table[backend] = {k: statistics.median(r[k] for r in runs) for k in runs[0]}
    print()
    print("ping-pong, median of %d runs (ns per switch; switches per second)" % RUNS)
    print()
    print("| backend  | channel ns | channel switches/s | yield ns | yield switches/s |")
    print("|----------|-----------:|-------------------:|---------:|-----------------:|")
    for backend, r in table.items():
        print("| %-8s | %10.1f | %18s | %8.1f | %16s |" % (
            backend, r["channel"], "{:,.0f}".format(1e9 / r["channel"]),
            r["yield"], "{:,.0f}".format(1e9 / r["yield"])))
    print()
    rip = table["rip"]
    for other in ("ucontext", "threads"):
        print("rip is %.1fx faster than %s on channel switches, %.1fx on yields" % (
            table[other]["channel"] / rip["channel"], other,
            table[other]["yield"] / rip["yield"]))
    print("(2004 reference: pthreads 117-253 K switches/s, ucontext 758-1320 K/s)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "build")

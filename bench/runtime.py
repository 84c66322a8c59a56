"""runtime.py -- `make bench-runtime`: the runtime's costs beside the
practical limit and stackful peers, each the median of RUNS runs in one
sitting, with issue 4's goals as ratios measured side by side.

    python bench/runtime.py BUILD_DIR

Builds the peers from Debian's libst-dev and libboost-context-dev (installed
with apt-get when missing and running as root; otherwise skipped, saying
what to install)."""
import os
import re
import shutil
import statistics
import subprocess
import sys

RUNS = 5
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
RIPCC = os.path.join(os.path.dirname(sys.executable), "ripcc")
NS = re.compile(r"^(\S+) ([\d.]+) ns/(?:switch|call)", re.M)
DUMP = re.compile(r"^dump \d+ tasks in (\d+) ms", re.M)
SPAWN = re.compile(r"spawn ([\d.]+) ns/task, (\d+) bytes per blocked task")


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


PEERS = {"libst-dev": "/usr/include/st.h",           # package -> a file it installs
         "libboost-context-dev": "/usr/include/boost/context/detail/fcontext.hpp"}


def ensure_peers():
    """Install the stackful peers' packages if we can; return those missing."""
    missing = [p for p, f in PEERS.items() if not os.path.exists(f)]
    if missing and os.geteuid() == 0 and shutil.which("apt-get"):
        print("installing %s ..." % " ".join(missing), file=sys.stderr, flush=True)
        sh(["apt-get", "update", "-qq"])
        sh(["apt-get", "install", "-y", "-qq"] + missing,
           env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
    return [p for p in missing if not os.path.exists(PEERS[p])]


def build(out):
    """{name: path} of every benchmark program that builds here."""
    src = os.path.join(HERE, "runtime")
    cc = os.environ.get("CC", "cc")
    steps = {
        "statemachine": [cc, "-O2", os.path.join(src, "statemachine.c")],
        "st": [cc, "-O2", os.path.join(src, "st_pingpong.c"), "-lst"],
        "boost": ["c++", "-O2", os.path.join(src, "boost_jump.cpp"), "-lboost_context"],
        "callcost": [RIPCC, "-O2", os.path.join(src, "callcost.c")],
    }
    for backend in ("rip", "ucontext", "threads"):
        steps["dumpcost-" + backend] = [RIPCC, "--backend=" + backend, "-O2",
                                        os.path.join(src, "dumpcost.c")]
    progs = {}
    for name, cmd in steps.items():
        exe = os.path.join(out, "bench-" + name)
        if sh(cmd + ["-o", exe]).returncode == 0:
            progs[name] = exe
    return progs


def median_of(cmd, pattern=NS):
    values = {}
    for _ in range(RUNS):
        out = sh(cmd, timeout=600).stdout
        for m in pattern.finditer(out):
            values.setdefault(m.group(1), []).append(float(m.group(2)))
    return {k: statistics.median(v) for k, v in values.items()}


def main(build_dir):
    missing = ensure_peers()
    progs = build(build_dir)
    rows = {}
    print("measuring (median of %d runs each) ..." % RUNS, file=sys.stderr, flush=True)
    if "statemachine" in progs:
        rows.update(median_of([progs["statemachine"], "50000000"]))
    if "st" in progs:
        rows.update(median_of([progs["st"], "2000000"]))
    if "boost" in progs:
        rows.update(median_of([progs["boost"], "20000000"]))
    for backend, rounds in (("rip", "2000000"), ("ucontext", "200000"), ("threads", "20000")):
        exe = os.path.join(build_dir, "pingpong-" + backend)
        for line, ns in median_of([exe, rounds], re.compile(
                r"^(\w+)\s+\d+ switches in [\d.]+ s: \d+ switches/s, ([\d.]+) ns", re.M)).items():
            rows["%s-%s" % (backend, line)] = ns
    if "callcost" in progs:
        rows.update(median_of([progs["callcost"], "20000000"]))
    spawn = {}
    for backend, n in (("rip", "1000000"), ("ucontext", "100000"), ("threads", "10000")):
        runs = [SPAWN.search(sh([os.path.join(build_dir, "spawnmany-" + backend), n],
                                timeout=600).stdout) for _ in range(RUNS)]
        runs = [m for m in runs if m]
        if runs:
            spawn[backend] = (int(n), statistics.median(float(m.group(1)) for m in runs),
                              statistics.median(int(m.group(2)) for m in runs))

    dump = {}
    for backend, n in (("rip", "1000000"), ("ucontext", "30000"), ("threads", "10000")):
        if "dumpcost-" + backend in progs:
            runs = [DUMP.search(sh([progs["dumpcost-" + backend], n], timeout=600).stdout)
                    for _ in range(RUNS)]
            runs = [int(m.group(1)) for m in runs if m]
            if runs:
                dump[backend] = (int(n), statistics.median(runs))

    print("\n| what | ns per switch or call |\n|---|---:|")
    for name in sorted(rows):
        print("| %s | %.2f |" % (name, rows[name]))
    print("\n| backend | tasks | spawn ns/task | bytes per blocked task |\n|---|---:|---:|---:|")
    for backend, (n, ns, b) in spawn.items():
        print("| %s | %d | %.1f | %d |" % (backend, n, ns, b))
    print("\n| backend | tasks blocked | rip_dump_tasks ms |\n|---|---:|---:|")
    for backend, (n, ms) in dump.items():
        print("| %s | %d | %d |" % (backend, n, ms))
    print("\nGoals (ratios from this run):")
    def ratio(a, b, text):
        if a in rows and b in rows:
            print("- %s: %.2fx" % (text, rows[a] / rows[b]))
    ratio("st-cond", "rip-channel",
          "State Threads cond switch / rip channel switch (goal: above 1, rip faster)")
    ratio("ucontext-channel", "rip-channel",
          "ucontext channel switch / rip channel switch (goal: at least 20)")
    ratio("rip-yield", "boost-jump", "rip yield / bare boost.context jump (goal: at most 2)")
    ratio("rip-yield", "statemachine-yield",
          "rip yield / hand-written state machine (goal: at most 2)")
    ratio("async-call", "plain-call",
          "async call that does not suspend / plain call (goal: at most 3)")
    if "rip" in spawn:
        print("- rip spawn: %.1f ns/task (goal <= 25); %d bytes per blocked task "
              "(goal: <= 64 beyond the task's live locals)" % (spawn["rip"][1], spawn["rip"][2]))
    if "rip" in dump:
        print("- rip_dump_tasks of %d blocked tasks: %d ms (goal: under 1000 for 10^6)"
              % dump["rip"])
    if missing:
        print("\n(not measured: install %s)" % " ".join(missing))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "build")

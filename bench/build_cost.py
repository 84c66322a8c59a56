"""build_cost.py -- what ripcc costs a real build, beside cc.

Builds real projects from clean with `make -j2`, once per compiler
setting, side by side: cc, ripcc --backend=ucontext, ripcc
--backend=threads, ripcc (the rip backend) and ripcc --all-async.  Runs
are interleaved (setting after setting, RUNS rounds), so a machine whose
load changes slows every setting alike; the table gives each setting's
median wall time and CPU time (user+sys of every process of the build,
the ripping children included: this process is their subreaper and
reaps them) and its ratio to cc's.  The issue's goals: ucontext and
threads within 1.1x cc, rip within 1.5x, --all-async within 2.5x.

Projects (where one cannot be had offline it is skipped, and said so):
    zlib-cmake      the zlib in Debian's gcc-12-source (fuzz/torture.py's
                    zlib_folder): its own CMakeLists.txt, Unix Makefiles
                    (static and shared libraries, example, minigzip)
    cjson-cmake     cJSON 1.7.15 by its own CMakeLists.txt with Ninja (the
                    tarball fetched once, as make test-thirdparty does)
    zlib-configure  the same zlib by gcc's autoconf configure and automake
                    Makefile (--configure; the configure is not timed)
Then (--compile) one `-c` of a small file, the cost every compile pays.

    python bench/build_cost.py [--runs N] [--configure] [--compile] [--only SETTING,...]
                               [--ripcc LABEL=PATH]
                               (make bench-ripper: zlib-cmake, cjson-cmake and
                                --compile, 3 runs)
"""
import argparse
import ctypes
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "fuzz"))
from torture import gcc_zlib_tree, zlib_folder  # noqa: E402

RIPCC = os.path.join(os.path.dirname(sys.executable), "ripcc")
BACKENDS = [                    # (setting, ripcc's flags for it)
    ("ucontext", ["--backend=ucontext"]),
    ("threads", ["--backend=threads"]),
    ("rip", []),
    ("all-async", ["--all-async"]),
]
GOALS = {"ucontext": 1.1, "threads": 1.1, "rip": 1.5, "all-async": 2.5}


def settings_for(ripccs):
    """[(name, compiler command)]: cc, then each setting with each ripcc of
    `ripccs` ([(label, path)]; the label names the setting when several
    are compared, "ucontext before" beside "ucontext")."""
    out = [("cc", ["cc"])]
    for name, flags in BACKENDS:
        for label, path in ripccs:
            out.append(((name + " " + label).strip(), [path] + flags))
    return out


def become_subreaper():
    """Orphaned descendants (a ripcc's ripping child, left to end alone)
    are reparented here, so their CPU time is counted when reaped."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)   # PR_SET_CHILD_SUBREAPER
    except (OSError, AttributeError):
        print("note: no PR_SET_CHILD_SUBREAPER: orphans' CPU time is not counted")


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(argv, cwd, env=None):
    """(wall seconds, CPU seconds of every process it started) of running
    `argv`; raises if it fails."""
    cpu0 = children_cpu()
    t0 = time.monotonic()
    p = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE)
    _, err = p.communicate()
    wall = time.monotonic() - t0
    reap_orphans()              # their time counted with the build's
    if p.returncode:
        raise RuntimeError("%s failed in %s:\n%s" % (" ".join(argv), cwd,
                                                     err.decode(errors="replace")[-2000:]))
    return wall, children_cpu() - cpu0


def reap_orphans():
    """Wait for every descendant reparented here (see become_subreaper)."""
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            break


def quiet(argv, cwd, env=None):
    """Run `argv` untimed (a configure, a clean): its orphans are reaped
    here, not counted in the next timed build."""
    r = subprocess.run(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    reap_orphans()
    if r.returncode:
        raise RuntimeError("%s failed in %s:\n%s" % (" ".join(argv), cwd,
                                                     r.stdout.decode(errors="replace")[-2000:]))


class ZlibCmake:
    name = "zlib-cmake"

    def __init__(self):
        self.source = zlib_folder()

    def missing(self):
        if shutil.which("cmake") is None:
            return "cmake is not installed"
        return None if self.source else "gcc-12-source is not installed (make test-deps)"

    def configure(self, build, cc):
        quiet(["cmake", "-S", self.source, "-B", build, "-G", "Unix Makefiles",
               "-DCMAKE_C_COMPILER=" + cc[0], "-DCMAKE_C_FLAGS=" + " ".join(cc[1:])], build)

    def clean(self, build):
        quiet(["make", "clean"], build)


class ZlibConfigure:
    name = "zlib-configure"

    def __init__(self):
        self.tree = gcc_zlib_tree()

    def missing(self):
        return None if self.tree else "gcc-12-source is not installed (make test-deps)"

    def configure(self, build, cc):
        quiet([os.path.join(self.tree, "zlib", "configure")], build,
              env=dict(os.environ, CC=" ".join(cc)))

    def clean(self, build):
        quiet(["make", "clean"], build)


class CjsonCmake:
    """cJSON 1.7.15 (Debian's tarball, tests/downloads.py: fetched once into
    ~/.cache/ripper) by its own CMakeLists.txt with Ninja, as the issue
    measured it: the library and its unity tests, -std=c89 -pedantic
    -Werror and the rest of its own flags."""
    name = "cjson-cmake"

    def __init__(self, top):
        self.top, self.source, self.why = top, None, None

    def missing(self):
        for tool in ("cmake", "ninja"):
            if shutil.which(tool) is None:
                return "%s is not installed" % tool
        sys.path.insert(0, os.path.join(ROOT, "tests"))
        from downloads import download, unpack
        from test_thirdparty_upstream import TARBALLS
        url, sha, folder = TARBALLS["cjson"]
        try:
            unpack(download("cjson", url, sha), self.top)
        except BaseException as e:      # pytest's skip: no network, no cached copy
            if isinstance(e, (KeyboardInterrupt, SystemExit)):
                raise
            return "its tarball cannot be had: %s" % e
        self.source = os.path.join(self.top, folder)
        return None

    def configure(self, build, cc):
        quiet(["cmake", "-S", self.source, "-B", build, "-G", "Ninja",
               "-DCMAKE_C_COMPILER=" + cc[0], "-DCMAKE_C_FLAGS=" + " ".join(cc[1:])], build)

    def clean(self, build):
        quiet(["ninja", "clean"], build)

    def build(self):
        return ["ninja", "-j2"]


def bench_project(project, settings, runs, top):
    """{setting: [(wall, cpu)...]} of `project`'s build, runs interleaved."""
    builds = {}
    for name, cc in settings:
        builds[name] = os.path.join(top, project.name, name.replace(" ", "-"))
        os.makedirs(builds[name])
        project.configure(builds[name], cc)
    times = {name: [] for name, _ in settings}
    for r in range(runs):
        for name, _ in settings:
            project.clean(builds[name])
            times[name].append(timed(getattr(project, "build", lambda: ["make", "-j2"])(),
                                     builds[name]))
            print("  %s run %d %-10s %6.2f s wall %6.2f s cpu" % (
                project.name, r + 1, name, *times[name][-1]), file=sys.stderr)
    return times


SMALL = b"""#include <stdio.h>
#include <string.h>
static int add(int a, int b) { return a + b; }
int main(void) { printf("%d %zu\\n", add(1, 2), strlen("x")); return 0; }
"""


def bench_compile(settings, runs, top):
    """{setting: [(wall, cpu)...]} of `-c` of a small file, 5 compiles a run."""
    folder = os.path.join(top, "compile")
    os.makedirs(folder)
    with open(os.path.join(folder, "small.c"), "wb") as f:
        f.write(SMALL)
    times = {name: [] for name, _ in settings}
    for _ in range(runs):
        for name, cc in settings:
            wall = cpu = 0.0
            for _ in range(5):
                w, c = timed(cc + ["-c", "small.c", "-o", "small.o"], folder)
                wall, cpu = wall + w / 5, cpu + c / 5
            times[name].append((wall, cpu))
    return times


def table(rows, settings):
    """The Markdown table: per project and setting, medians and ratios to cc."""
    out = ["| build | setting | wall s | ratio | CPU s | ratio | goal |",
           "|---|---|---:|---:|---:|---:|---:|"]
    for project, times in rows:
        base = None
        for name, _ in settings:
            wall = statistics.median(t[0] for t in times[name])
            cpu = statistics.median(t[1] for t in times[name])
            if name == "cc":
                base = (wall, cpu)
            ratio = ("%.2fx" % (wall / base[0]), "%.2fx" % (cpu / base[1])) if base \
                else ("", "")
            goal = GOALS.get(name.split()[0])
            goal = "%.1fx" % goal if goal and not project.startswith("-c") else ""
            out.append("| %s | %s | %.2f | %s | %.2f | %s | %s |"
                       % (project, name, wall, ratio[0], cpu, ratio[1], goal))
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--configure", action="store_true",
                    help="also zlib by gcc's autoconf configure and make")
    ap.add_argument("--compile", action="store_true", help="also -c of a small file")
    ap.add_argument("--no-cmake", action="store_true", help="not zlib's CMake build")
    ap.add_argument("--only", help="settings, comma-separated (cc is always in)")
    ap.add_argument("--ripcc", action="append", metavar="LABEL=PATH",
                    help="compare another ripcc (another clone's .venv/bin/ripcc) side by "
                    "side with this one, e.g. --ripcc before=/tmp/old/.venv/bin/ripcc")
    args = ap.parse_args()
    ripccs = [("", RIPCC)] + [tuple(r.split("=", 1)) for r in args.ripcc or []]
    settings = settings_for(ripccs)
    if args.only:
        wanted = set(args.only.split(",")) | {"cc"}
        settings = [s for s in settings if s[0].split()[0] in wanted]
    become_subreaper()
    env_load = os.getloadavg()
    rows = []
    top = tempfile.mkdtemp(prefix="build-cost-")
    projects = ([] if args.no_cmake else [ZlibCmake(), CjsonCmake(top)]) + \
        ([ZlibConfigure()] if args.configure else [])
    try:
        for project in projects:
            why = project.missing()
            if why:
                print("%s: skipped: %s" % (project.name, why))
                continue
            rows.append((project.name, bench_project(project, settings, args.runs, top)))
        if args.compile:
            rows.append(("-c small.c (each)", bench_compile(settings, args.runs, top)))
    finally:
        shutil.rmtree(top, ignore_errors=True)
    print("libyaml: skipped (no copy of its sources here; the zlib and cJSON builds "
          "stand for it)")
    print("load average %.1f at the start, %.1f at the end, %d cores; medians of %d runs, "
          "interleaved\n" % (env_load[0], os.getloadavg()[0], os.cpu_count(), args.runs))
    print(table(rows, settings))


if __name__ == "__main__":
    main()

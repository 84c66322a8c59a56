"""kvd.py -- examples/kvd.c (plain POSIX: a thread per connection, stdio on
its sockets, a table behind a mutex) built plainly and with `ripcc --posix`
on each backend, under the same load side by side: requests/s and memory
per connection at 50, 1,000 and 10,000 connections, as ratios to the plain
build.  Section 6 of `make bench` (bench/suite.py); alone:

    python bench/kvd.py BUILD_DIR              the table, medians of 3 runs
    python bench/kvd.py BUILD_DIR --quick      20 and 200 connections, 1 s, 1 run
    python bench/kvd.py BUILD_DIR --conns 50,1000 --seconds 5 --runs 3

The load is bench/kvload.c: one epoll thread holding every connection, one
GET or SET in flight on each (a SET for every three GETs), pinned to the
other CPU than the server's; its own CPU time is in every row, to show it
is not the bottleneck."""
import os
import re
import resource
import select
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import suite                        # noqa: E402  (Report, fmt, median, children, ...)

RIPCC = os.path.join(os.path.dirname(sys.executable), "ripcc")
BUILDS = ("plain", "rip", "ucontext", "threads")
OPEN = re.compile(r"open (\d+) failed (\d+) setup_seconds ([\d.]+)")
DONE = re.compile(r"requests (\d+) errors (\d+) seconds ([\d.]+) client_cpu ([\d.]+)")


def build(build_dir):
    """({build: exe}, kvload exe, {build: why it did not build})."""
    kvd = os.path.join(ROOT, "examples", "kvd.c")
    steps = {"plain": [os.environ.get("CC", "cc"), "-O2", "-pthread", kvd]}
    for backend in BUILDS[1:]:
        steps[backend] = [RIPCC, "--posix", "--backend=" + backend, "-O2", kvd]
    exes, failed = {}, {}
    for name, cmd in steps.items():
        exe = os.path.join(build_dir, "bench-kvd-" + name)
        r = subprocess.run(cmd + ["-o", exe], capture_output=True, text=True, timeout=600)
        if r.returncode == 0:
            exes[name] = exe
        else:
            failed[name] = (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1]
    load = os.path.join(build_dir, "bench-kvload")
    subprocess.run(["cc", "-O2", os.path.join(HERE, "kvload.c"), "-o", load], check=True)
    return exes, load, failed


def limits(cpu, fds):
    """A preexec function: at least `fds` file descriptors (root may raise
    the hard limit), pinned to `cpu` when there is more than one CPU."""
    def pre():
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        want = max(soft, fds)
        if hard != resource.RLIM_INFINITY and want > hard:
            try:
                resource.setrlimit(resource.RLIMIT_NOFILE, (want, want))
                hard = want
            except (ValueError, OSError):
                want = hard         # not root: the connections past it are the result
        resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
        if (os.cpu_count() or 1) > 1:
            os.sched_setaffinity(0, {cpu % os.cpu_count()})
    return pre


def readline(proc, seconds):
    """The next line proc prints within `seconds`, or '' (gone or silent)."""
    ready, _, _ = select.select([proc.stdout], [], [], seconds)
    return proc.stdout.readline() if ready else ""


def status(pid, field):
    """A /proc/PID/status field's number (VmRSS in bytes, Threads as is), or None."""
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith(field + ":"):
                    n = int(line.split()[1])
                    return n * 1024 if line.rstrip().endswith("kB") else n
    except OSError:
        pass
    return None


def cpu_seconds(pid):
    """User + system CPU seconds of pid, all its threads (/proc/PID/stat)."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return None


def one_run(exe, load, conns, seconds):
    """Start exe, open `conns` connections, measure, load it for `seconds`.
    A dict of what was seen; 'problem' says what went wrong, if anything."""
    deadline = int(seconds + 60 + conns / 100)      # setup of 10,000 takes seconds
    # Under timeout, in a process group of its own (timeout makes one): the
    # server and everything it started die with the group at the end.
    srv = subprocess.Popen(["timeout", "-s", "KILL", str(deadline), exe, "--port", "0",
                            "--addr", "127.0.0.1"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True,
                           preexec_fn=limits(suite.SERVER_CPU, 2 * conns + 64), start_new_session=True)
    client = None
    got = {"opened": 0, "problem": None}
    try:
        m = re.match(r"listening on (\d+)", readline(srv, 30))
        kids = suite.children(srv.pid)
        if not m or not kids:
            got["problem"] = "did not start"
            return got
        pid, port = kids[0], int(m.group(1))
        time.sleep(0.2)
        rss0 = status(pid, "VmRSS")
        client = subprocess.Popen(["timeout", "-s", "KILL", str(deadline), load, "-c", str(conns),
                                   "-d", str(seconds), str(port)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                  preexec_fn=limits(suite.CLIENT_CPU, conns + 64),
                                  start_new_session=True)
        m = OPEN.search(readline(client, deadline))
        if not m:
            got["problem"] = "the load generator failed"
            return got
        got["opened"], got["setup_s"] = int(m.group(1)), float(m.group(3))
        time.sleep(0.3)             # let the last threads or tasks settle
        rss1, got["threads"] = status(pid, "VmRSS"), status(pid, "Threads")
        if rss0 is None or rss1 is None:
            got["problem"] = "the server exited (%s)" % (srv.poll(),)
            return got
        got["rss_per_conn"] = (rss1 - rss0) / got["opened"] if got["opened"] else None
        cpu0 = cpu_seconds(pid)
        client.stdin.write("go\n")
        client.stdin.flush()
        m = DONE.search(readline(client, seconds + 30))
        cpu1 = cpu_seconds(pid)
        if not m:
            got["problem"] = "the load generator failed"
            return got
        requests, seconds_run = int(m.group(1)), float(m.group(3))
        got["rps"] = requests / seconds_run
        got["errors"] = int(m.group(2))
        got["client_busy"] = float(m.group(4)) / seconds_run
        got["server_cpu"] = cpu1 - cpu0 if cpu0 is not None and cpu1 is not None else None
        got["server_busy"] = got["server_cpu"] / seconds_run if got["server_cpu"] is not None else None
        got["client_per_cpu_s"] = requests / float(m.group(4)) if float(m.group(4)) else None
        got["per_cpu_s"] = requests / got["server_cpu"] if got["server_cpu"] else None
        if srv.poll() is not None:
            got["problem"] = "the server exited (%s)" % srv.returncode
        return got
    finally:
        for p in (client, srv):     # only the groups this function started
            if p is not None:
                try:
                    os.killpg(p.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
                p.wait()
                for stream in (p.stdin, p.stdout, p.stderr):
                    if stream:
                        stream.close()


def fd_limit():
    """The fds a server may have: the hard limit, or more where we may raise it."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    if hard == resource.RLIM_INFINITY:
        return "unlimited"
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard + 1))
    except (ValueError, OSError):
        return "%d (not raisable here)" % hard
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))     # lowering: always allowed
    return "%d (raised as needed)" % hard


def machine_limits():
    """What caps the thread-per-connection build here, in words."""
    def read(path):
        try:
            with open(path) as f:
                return f.read().strip()
        except OSError:
            return "?"
    nproc = resource.getrlimit(resource.RLIMIT_NPROC)[0]
    return ("ulimit -Hn %s (kvd holds two fds per connection: the socket and its dup, one "
            "FILE each), ulimit -u %s, kernel.threads-max %s, kernel.pid_max %s, "
            "vm.max_map_count %s, vm.overcommit_memory %s" % (
                fd_limit(), "unlimited" if nproc == resource.RLIM_INFINITY else nproc,
                read("/proc/sys/kernel/threads-max"), read("/proc/sys/kernel/pid_max"),
                read("/proc/sys/vm/max_map_count"), read("/proc/sys/vm/overcommit_memory")))


def section(build_dir, report, runs, quick, seconds, levels=None):
    """Measure every build at each connection count, the builds taking
    turns within each run; the table goes into report.  Returns its rows."""
    suite.progress("kvd: plain POSIX, plain build against --posix builds ...")
    levels = levels or ([20, 200] if quick else [50, 1000, 10000])
    exes, load, failed = build(build_dir)
    samples = {}                    # (build, conns) -> [one_run's dicts]
    for conns in levels:
        for _ in range(runs):
            for name in BUILDS:
                if name in exes:
                    samples.setdefault((name, conns), []).append(one_run(exes[name], load, conns, seconds))
    rows, notes, client_rates = [], [], []
    short = {}                      # (connections, opened) -> the builds that opened only that many
    for conns in levels:
        base = {}
        for name in BUILDS:
            if name not in exes:
                continue
            got = samples[(name, conns)]
            med = {k: suite.median(g.get(k) for g in got) for k in
                   ("rps", "rss_per_conn", "server_busy", "per_cpu_s", "client_busy", "threads",
                    "client_per_cpu_s")}
            opened = min(g["opened"] for g in got)
            errors = sum(g.get("errors") or 0 for g in got)
            if name == "plain":
                base = med
            client_rates.append(med["client_per_cpu_s"])
            for g in got:
                if g["problem"]:
                    notes.append("%s at %d connections: %s." % (name, conns, g["problem"]))
            if opened < conns:
                short.setdefault((conns, opened), []).append(name)
            suite.progress("  kvd-%s, %d connections: %s requests/s, %s bytes per connection%s" % (
                name, conns, suite.fmt(med["rps"]), suite.fmt(med["rss_per_conn"]),
                "" if opened == conns else ", only %d opened" % opened))
            rows.append([name, conns, "%s of %s" % (suite.fmt(opened), suite.fmt(conns)) if opened != conns else "all",
                         med["rps"], ratio(med["rps"], base.get("rps")),
                         med["per_cpu_s"], ratio(med["per_cpu_s"], base.get("per_cpu_s")),
                         med["rss_per_conn"] / 1024 if med["rss_per_conn"] is not None else None,
                         ratio(med["rss_per_conn"], base.get("rss_per_conn")),
                         int(med["threads"]) if med["threads"] is not None else None,
                         percent(med["server_busy"]), percent(med["client_busy"]),
                         errors])
    report.text("## 6. kvd: plain POSIX, ripped unchanged\n\nexamples/kvd.c (a thread per "
                "connection reading with `fgets` and answering with `fprintf` on its socket, one "
                "table behind a mutex) built `cc -O2 -pthread` (plain) and `ripcc --posix -O2 "
                "--backend=B` for rip, ucontext and threads; each under `bench/kvload.c`: N "
                "connections opened (each answers one SET), then each sends a GET or SET (one SET "
                "in four, 1,000 keys) and waits for its answer, again and again for %s s; server "
                "pinned to CPU %d, the load generator (one epoll thread) to CPU %d. Median of %d "
                "runs, the builds taking turns within each run; ratios are to the plain build at "
                "the same count. Memory per connection is (VmRSS with the N connections open - "
                "VmRSS before) / N; threads is the server's thread count then; server and client "
                "CPU are each one's CPU time over the run's time (100%%: its CPU was saturated). Limits here: %s." % (
                    suite.fmt(float(seconds)), suite.SERVER_CPU, suite.CLIENT_CPU, runs,
                    machine_limits()))
    for (conns, opened), names in short.items():
        notes.append("At %s connections %s opened %s: the rest were not served within 5 s (they "
                     "wait in the listen queue when the server is out of fds, or are closed when "
                     "it cannot start a thread; see the limits above)." % (
                         suite.fmt(conns), ", ".join(names), suite.fmt(opened)))
    client_rate = suite.median(client_rates)
    server_rate = max((r[5] for r in rows if r[5]), default=None)
    if client_rate and server_rate:
        report.text("The load generator's own cost: %s requests per CPU-second of its own "
                    "(median over the rows), against the fastest server's %s per CPU-second: %s" % (
                        suite.fmt(client_rate), suite.fmt(server_rate),
                        "on CPUs of their own the server saturates well before the client, so "
                        "the client is not what limits requests/s." if client_rate > 1.5 * server_rate
                        else "comparable (loopback TCP charges the receiving side's work to the "
                        "sender, so client and server pay about the same kernel work per "
                        "request): on two idle CPUs both would near saturation together, and "
                        "requests/s measures the client as much as the server. Requests per "
                        "server CPU-second is the server's own cost: compare the builds by it. "
                        "Where neither CPU column is near 100%, requests/s was bounded by the "
                        "machine's other load (shared CPUs), not by either program."))
    report.table(["build", "connections", "opened", "requests/s", "x plain", "requests per server "
                  "CPU-second", "x plain", "KiB per connection", "x plain", "server threads",
                  "server CPU", "client CPU", "errors"], rows)
    if failed or notes:
        report.text("\n".join("- %s did not build: %s" % (n, why) for n, why in failed.items()) +
                    ("\n" if failed and notes else "") +
                    "\n".join("- " + n for n in sorted(set(notes))))
    report.text("Commands: `%s` and `ripcc --posix --backend=B -O2 examples/kvd.c`; the server "
                "`bench-kvd-BUILD --port 0 --addr 127.0.0.1`, the load `bench-kvload -c N -d %s "
                "PORT`; `python bench/kvd.py BUILD_DIR` alone." % (
                    "cc -O2 -pthread examples/kvd.c", suite.fmt(float(seconds))))
    return rows


def percent(x):
    return "%.0f%%" % (100 * x) if x is not None else None


def ratio(x, base):
    return x / base if x is not None and base else None


def main(argv):
    if not argv or argv[0].startswith("-"):
        sys.exit(__doc__)
    build_dir, quick = argv[0], "--quick" in argv

    def option(name, default, kind):
        return kind(argv[argv.index(name) + 1]) if name in argv else default
    runs = option("--runs", 1 if quick else 3, int)
    seconds = option("--seconds", 1 if quick else 5, float)
    levels = option("--conns", None, lambda s: [int(x) for x in s.split(",")])
    report = suite.Report()
    section(os.path.abspath(build_dir), report, runs, quick, seconds, levels)
    print(report.markdown())


if __name__ == "__main__":
    main(sys.argv[1:])

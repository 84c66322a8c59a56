"""peers.py -- `make bench-peers`: ripper's runtime beside what users pick
instead, on the same work, side by side in one run, one core each.

    python bench/peers.py [BUILD_DIR] [--runs N] [--no-http]

Tests (each program prints one line; the median of RUNS runs is reported):
  skynet    10^6 leaf tasks in a 10-ary tree, each returning its number to
            its parent over a channel: ms, peak RSS
  blocked   10^6 tasks spawned and blocked on one event, then released:
            bytes per blocked task, ns per spawn, ms to release them all
  pingpong  two tasks handing a token back and forth: ns per switch
  http      a small file over keep-alive HTTP, wrk at 50, 1,000 and 10,000
            connections on the other CPU: requests/s, p99, requests per
            CPU-second of the server, peak RSS growth per connection

Peers, each written the way its users write it (bench/peers/): rip and
ucontext (the rip API, built by ripcc), Go (goroutines and channels,
GOMAXPROCS=1), tokio (tasks and tokio::sync on a current-thread runtime,
release build), C++20 coroutines (the standard's bare coroutines with the
small task/channel/event layer a user writes, cpp/coro.h; g++ -O2).  For
HTTP: httpd-rip and httpd-ucontext (examples/httpd.c), a hand-written epoll
state machine (bench/models/epoll_httpd.c, the practical limit), nginx
(one worker) and Go's net/http (GOMAXPROCS=1).
A peer whose toolchain is missing is skipped with a note saying what to
install.  Report: BUILD_DIR/peers/REPORT.md (and on standard output).
"""
import os
import re
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PEERS_SRC = os.path.join(HERE, "peers")
RIPCC = os.path.join(os.path.dirname(sys.executable), "ripcc")
TESTS = ("skynet", "blocked", "pingpong")
PEERS = ("rip", "ucontext", "go", "tokio", "c++20")
PATTERNS = {
    "skynet": (re.compile(r"skynet (\d+) in ([\d.]+) ms, peak RSS ([\d.]+) MiB"),
               ("ms", "peak RSS MiB")),
    "blocked": (re.compile(r"blocked (\d+) tasks: (-?[\d.]+) bytes/task, spawn ([\d.]+) "
                           r"ns/task, release ([\d.]+) ms"),
                ("bytes/task", "ns/spawn", "release ms")),
    "pingpong": (re.compile(r"pingpong (\d+) switches in ([\d.]+) ms: ([\d.]+) ns/switch"),
                 ("ns/switch",)),
}
SKYNET_SUM = 499999500000           # 0 + 1 + ... + 999999
ONE_CORE = ["taskset", "-c", "0"] if shutil.which("taskset") else []


def sh(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def build(out):
    """({(test, peer): command}, [notes on peers that could not be built])."""
    os.makedirs(out, exist_ok=True)
    progs, notes = {}, []
    for test in TESTS:
        for backend in ("rip", "ucontext"):
            exe = os.path.join(out, "%s-%s" % (test, backend))
            r = sh([RIPCC, "--backend=" + backend, "-O2", os.path.join(PEERS_SRC, test + ".c"),
                    "-o", exe])
            if r.returncode == 0:
                progs[test, backend] = [exe]
            else:
                notes.append("%s-%s did not build: %s" % (test, backend, r.stderr[-300:]))
    if shutil.which("go"):
        for test in TESTS:
            exe = os.path.join(out, test + "-go")
            r = sh(["go", "build", "-o", exe, "./" + test], cwd=os.path.join(PEERS_SRC, "go"))
            if r.returncode == 0:
                progs[test, "go"] = [exe]
            else:
                notes.append("go %s did not build: %s" % (test, r.stderr[-300:]))
    else:
        notes.append("Go skipped: install it (https://go.dev/dl, or Debian's golang-go)")
    if shutil.which("cargo"):
        target = os.path.join(out, "cargo")
        r = sh(["cargo", "build", "--release", "-q"], cwd=os.path.join(PEERS_SRC, "tokio"),
               env=dict(os.environ, CARGO_TARGET_DIR=target), timeout=1800)
        if r.returncode == 0:
            for test in TESTS:
                progs[test, "tokio"] = [os.path.join(target, "release", test)]
        else:
            notes.append("tokio did not build (crates.io reachable?): %s" % r.stderr[-300:])
    else:
        notes.append("tokio skipped: install Rust (rustup, https://rustup.rs)")
    cxx = shutil.which("g++")
    for test in TESTS if cxx else ():
        exe = os.path.join(out, test + "-cpp")
        r = sh([cxx, "-std=c++20", "-O2", os.path.join(PEERS_SRC, "cpp", test + ".cpp"),
                "-o", exe])
        if r.returncode == 0:
            progs[test, "c++20"] = [exe]
        else:
            notes.append("c++20 %s did not build: %s" % (test, r.stderr[-300:]))
    if not cxx:
        notes.append("C++20 skipped: install g++ 11 or newer")
    return progs, notes


def measure(test, peer, cmd, runs):
    """The medians of the test's numbers over `runs` runs, or a failure text."""
    pattern, _ = PATTERNS[test]
    env = dict(os.environ, GOMAXPROCS="1")
    values = []
    for _ in range(runs):
        try:
            r = sh(ONE_CORE + cmd, env=env, timeout=600)
        except subprocess.TimeoutExpired:
            return "timed out"
        m = pattern.search(r.stdout)
        if r.returncode != 0 or m is None:
            return "failed: " + (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1]
        if test == "skynet" and int(m.group(1)) != SKYNET_SUM:
            return "wrong sum %s" % m.group(1)
        numbers = [float(x) for x in m.groups()[1:]]
        if test == "skynet":
            numbers = numbers[:2]
        elif test == "pingpong":
            numbers = numbers[1:]
        values.append(numbers)
    return [statistics.median(v[i] for v in values) for i in range(len(values[0]))]


def table(test, results, progs):
    _, columns = PATTERNS[test]
    lines = ["### %s" % test, "",
             "| peer | %s | command |" % " | ".join(columns),
             "|---|%s---|" % ("--:|" * len(columns))]
    for peer in PEERS:
        if (test, peer) not in progs:
            continue
        got = results[test, peer]
        cells = ["%.1f" % x for x in got] if isinstance(got, list) else \
            [got] + [""] * (len(columns) - 1)
        lines.append("| %s | %s | `%s` |" % (peer, " | ".join(cells), " ".join(
            [os.path.relpath(progs[test, peer][0], ROOT)] + (["(GOMAXPROCS=1)"]
                                                              if peer == "go" else []))))
    best = {}
    for i, column in enumerate(columns):
        others = [(results[test, p][i], p) for p in PEERS if p not in ("rip", "ucontext")
                  and isinstance(results.get((test, p)), list)]
        mine = results.get((test, "rip"))
        if others and isinstance(mine, list):
            value, peer = min(others)
            best[column] = "%s: rip %.2fx the best peer's (%s)" % (
                column, mine[i] / value if value else float("inf"), peer)
    lines += [""] + ["- %s" % b for b in best.values()] + [""]
    return "\n".join(lines)


HTTP_CONNECTIONS = (50, 1000, 10000)
HTTP_SECONDS = 5


def http_servers(build_dir, root, out):
    """{name: argv(port)} of the HTTP servers that exist here."""
    sys.path.insert(0, HERE)
    import suite
    table = suite.servers(build_dir, root, only={"httpd-rip", "httpd-ucontext", "nginx"})
    epoll = os.path.join(out, "epoll_httpd")
    if sh(["cc", "-O2", "-D_GNU_SOURCE", os.path.join(HERE, "models", "epoll_httpd.c"),
           "-o", epoll]).returncode == 0:
        table["epoll (hand-written)"] = lambda port: [epoll, str(port),
                                                      os.path.join(root, "index.html")]
    go = os.path.join(out, "httpd-go")
    if shutil.which("go") and sh(["go", "build", "-o", go, "./httpd"],
                                 cwd=os.path.join(PEERS_SRC, "go")).returncode == 0:
        table["go net/http"] = lambda port: [go, str(port), root]
    return table


def http(build_dir, out, runs):
    """Rows of (server, connections, requests/s, p99 ms, requests per
    CPU-second, peak RSS bytes per connection), medians of `runs`."""
    sys.path.insert(0, HERE)
    import suite
    suite.raise_fd_limit()
    root = suite.docroot()
    rows = []
    os.environ["GOMAXPROCS"] = "1"
    for name, argv in http_servers(build_dir, root, out).items():
        port = suite.free_port()
        print("running http on %s ..." % name, file=sys.stderr, flush=True)
        server = suite.Server(name, argv(port), port)
        try:
            idle = server.rss()
            for conns in HTTP_CONNECTIONS:
                samples = []
                for _ in range(runs):
                    cpu0 = server.cpu_seconds()
                    _, (rps, total, _, p99, errors) = suite.wrk(port, conns, HTTP_SECONDS)
                    cpu = server.cpu_seconds() - cpu0
                    samples.append((rps or 0, p99 or 0, total / cpu if cpu else 0, errors))
                per_conn = (server.rss("VmHWM") - idle) / conns
                rows.append((name, conns, statistics.median(x[0] for x in samples),
                             statistics.median(x[1] for x in samples),
                             statistics.median(x[2] for x in samples), per_conn,
                             max(x[3] for x in samples)))
        finally:
            server.stop()
    return rows


def http_table(rows):
    lines = ["### http", "",
             "| server | connections | requests/s | p99 ms | requests per CPU-second | "
             "peak RSS bytes per connection | wrk errors |",
             "|---|--:|--:|--:|--:|--:|--:|"]
    for name, conns, rps, p99, per_cpu, per_conn, errors in rows:
        lines.append("| %s | %d | %.0f | %.2f | %.0f | %.0f | %d |"
                     % (name, conns, rps, p99, per_cpu, per_conn, errors))
    lines.append("")
    by = {(r[0], r[1]): r for r in rows}
    for conns in HTTP_CONNECTIONS:
        mine, limit = by.get(("httpd-rip", conns)), by.get(("epoll (hand-written)", conns))
        others = [r for r in rows if r[1] == conns and r[0] not in
                  ("httpd-rip", "httpd-ucontext", "epoll (hand-written)")]
        if mine and limit:
            lines.append("- %d connections: httpd-rip %.2fx the hand-written epoll server's "
                         "requests/s" % (conns, mine[2] / limit[2] if limit[2] else 0))
        if mine and others:
            best = max(others, key=lambda r: r[2])
            lines.append("- %d connections: httpd-rip %.2fx the best other peer's (%s)"
                         % (conns, mine[2] / best[2] if best[2] else 0, best[0]))
    return "\n".join(lines + [""])


def main(argv):
    runs = 5
    if "--runs" in argv:
        i = argv.index("--runs")
        runs = int(argv[i + 1])
        del argv[i:i + 2]
    args = [a for a in argv if not a.startswith("--")]
    build_dir = args[0] if args else os.path.join(ROOT, "build")
    out = os.path.join(build_dir, "peers")
    progs, notes = build(out)
    results = {}
    for (test, peer), cmd in sorted(progs.items()):
        print("running %s on %s ..." % (test, peer), file=sys.stderr, flush=True)
        results[test, peer] = measure(test, peer, cmd, runs)
    report = ["# ripper beside its peers", "",
              "%d CPUs here; every program pinned to one (%s), median of %d runs. Lower is "
              "better everywhere." % (os.cpu_count(), "taskset -c 0" if ONE_CORE else
                                      "taskset missing: not pinned", runs), ""]
    for test in TESTS:
        report.append(table(test, results, progs))
    if "--no-http" not in argv and shutil.which("wrk"):
        report.append(http_table(http(build_dir, out, min(runs, 3))))
    elif "--no-http" not in argv:
        notes.append("HTTP skipped: install wrk (make test-deps)")
    if notes:
        report += ["## Not measured", ""] + ["- " + n for n in notes] + [""]
    text = "\n".join(report)
    with open(os.path.join(out, "REPORT.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main(sys.argv[1:])

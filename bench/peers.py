"""peers.py -- `make bench-peers`: ripper's runtime beside what users pick
instead, on the same work, side by side in one run, one core each.

    python bench/peers.py [BUILD_DIR] [--runs N] [--only SECTION,...] [--no-http]

SECTION is skynet, blocked, pingpong, http or scaling (default: all).

Tests (each program prints one line; the median of RUNS runs is reported):
  skynet    10^6 leaf tasks in a 10-ary tree, each returning its number to
            its parent over a channel: ms, peak RSS
  blocked   10^6 tasks spawned and blocked on one event, then released:
            bytes per blocked task, ns per spawn, ms to release them all
  pingpong  two tasks handing a token back and forth: ns per switch
  http      a small file over keep-alive HTTP, wrk at 50, 1,000 and 10,000
            connections on the other CPU: requests/s, p99, requests per
            CPU-second of the server, peak RSS growth per connection
  scaling   httpd-rip --workers N beside nginx and h2o with N workers, N = 1
            .. the CPUs here, 1,000 connections

Peers, each written the way its users write it (bench/peers/): rip and
ucontext (the rip API, built by ripcc), Go (goroutines and channels,
GOMAXPROCS=1), tokio (tasks and tokio::sync on a current-thread runtime,
release build), C++20 coroutines (the standard's bare coroutines with the
small task/channel/event layer a user writes, cpp/coro.h; g++ -O2).  For
HTTP: httpd-rip and httpd-ucontext (examples/httpd.c), a hand-written epoll
state machine (bench/models/epoll_httpd.c, the practical limit), nginx
(one worker), h2o (one thread), Go's net/http (GOMAXPROCS=1) and hyper on
a current-thread tokio runtime (tokio/src/bin/httpd.rs).
wrk, nginx and h2o are installed with apt-get when missing (as root); a
peer whose toolchain is missing is skipped with a note saying what to
install.  Report: BUILD_DIR/peers/REPORT.md (and on standard output), with
PNG plots beside it when matplotlib imports.
"""
import collections
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
            progs["http", "hyper"] = [os.path.join(target, "release", "httpd")]
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
            if mine[i] > value and (test, peer) in WHY:
                best[column] += ". Why: " + WHY[test, peer]
    lines += [""] + ["- %s" % b for b in best.values()] + [""]
    return "\n".join(lines)


# Why a peer beats rip where it does, as found by measuring (the report
# gives it beside the numbers).
WHY = {
    ("pingpong", "c++20"):
        "the C++ channel (cpp/coro.h, what a user writes) is an unbounded queue with one "
        "waiter and no close, ownership or rendezvous logic, inlined whole into the two "
        "coroutines: 89 instructions per switch (callgrind on pingpong-cpp). rip's "
        "channel hand-over and wait are inline in the ripped code too (rip_frame.h), with "
        "the worker-ownership check and the rendezvous kept: 117 instructions (make "
        "bench-instructions); the extra are mostly the callee-saved registers gcc saves in each resume entry "
        "for the calls on the rare paths. The two are within a few per cent of each other "
        "in time, so a noisy run can put either ahead",
}


HTTP_CONNECTIONS = (50, 1000, 10000)
HTTP_SECONDS = 5


def http_servers(build_dir, root, out, progs):
    """{name: argv(port)} of the HTTP servers that exist here, each on one
    core as its users run it on one core."""
    sys.path.insert(0, HERE)
    import suite
    table = suite.servers(build_dir, root, only={"httpd-rip", "httpd-ucontext", "nginx"})
    index = os.path.join(root, "index.html")
    epoll = os.path.join(out, "epoll_httpd")
    if sh(["cc", "-O2", "-D_GNU_SOURCE", os.path.join(HERE, "models", "epoll_httpd.c"),
           "-o", epoll]).returncode == 0:
        table["epoll (hand-written)"] = lambda port: [epoll, str(port), index]
    if os.path.exists(H2O):
        table["h2o"] = lambda port: h2o_command(port, root, out)
    go = os.path.join(out, "httpd-go")
    if shutil.which("go") and sh(["go", "build", "-o", go, "./httpd"],
                                 cwd=os.path.join(PEERS_SRC, "go")).returncode == 0:
        table["go net/http"] = lambda port: [go, str(port), root]
    if ("http", "hyper") in progs:
        table["hyper (tokio)"] = lambda port: progs["http", "hyper"] + [str(port), index]
    return table


H2O = "/usr/bin/h2o"


def h2o_command(port, root, out, threads=1):
    """h2o serving `root` with `threads` event loops (h2o's num-threads).
    Its max-connections (1,024 by default) is raised as nginx's
    worker_connections is: left at 1,024, h2o serves 1,024 of wrk's 10,000
    connections while the rest wait in the listen queue, a lighter load
    than the other servers carry."""
    conf = os.path.join(out, "h2o-%d.conf" % threads)  # one per kind, rewritten each run
    with open(conf, "w") as f:
        f.write("%slisten:\n  host: 127.0.0.1\n  port: %d\nnum-threads: %d\n"
                "max-connections: 65536\nerror-log: %s\npid-file: %s\nhttp1-request-timeout: 120\n"
                "hosts:\n  default:\n    paths:\n      /:\n        file.dir: %s\n"
                % ("user: root\n" if os.geteuid() == 0 else "", port, threads,
                   os.path.join(out, "h2o-error.log"), os.path.join(out, "h2o-%d.pid" % threads),
                   root))
    return [H2O, "-m", "master", "-c", conf]


# One wrk run against a server: requests/s, p99 ms, requests per
# CPU-second of the server, wrk's errors, and the server's user and kernel
# CPU microseconds per request.
Load = collections.namedtuple("Load", "rps p99 per_cpu errors user_us kernel_us")
# A row of the HTTP table: the medians of a server's Loads at `conns`
# connections (errors: the most of any run), its peak RSS growth per
# connection, and the command that ran it.
HttpRow = collections.namedtuple(
    "HttpRow", "server conns rps p99 per_cpu per_conn errors cmd user_us kernel_us")


def http(build_dir, out, runs, progs):
    """HttpRows, medians of `runs`.  Every server runs at once (idle ones
    cost no CPU) and the runs go round them in turn, so that a noisy minute
    on this shared machine falls on all of them rather than on one."""
    sys.path.insert(0, HERE)
    import suite
    suite.raise_fd_limit()
    root = suite.docroot()
    os.environ["GOMAXPROCS"] = "1"
    running = {}                    # name -> (Server, port, command, idle RSS)
    rows = []
    try:
        for name, argv in http_servers(build_dir, root, out, progs).items():
            port = suite.free_port()
            cmd = argv(port)
            try:
                server = suite.Server(name, cmd, port)
            except (OSError, RuntimeError) as e:   # the report goes on without it
                print("  %s did not start: %s" % (name, e), file=sys.stderr)
                continue
            running[name] = (server, port, suite.shown(cmd), server.rss())
        for conns in HTTP_CONNECTIONS:
            samples = {name: [] for name in running}
            for run in range(runs):
                for name, (server, port, _, _) in running.items():
                    print("running http on %s, %d connections (run %d) ..."
                          % (name, conns, run + 1), file=sys.stderr, flush=True)
                    samples[name].append(load(suite, server, port, conns))
            for name, (server, _, cmd, idle) in running.items():
                got = samples[name]
                per_conn = (server.rss("VmHWM") - idle) / conns
                def median(field):
                    return statistics.median(getattr(x, field) for x in got)
                rows.append(HttpRow(name, conns, median("rps"), median("p99"), median("per_cpu"),
                                    per_conn, max(x.errors for x in got), cmd,
                                    median("user_us"), median("kernel_us")))
    finally:
        for server, _, _, _ in running.values():
            server.stop()
    order = list(running)
    return sorted(rows, key=lambda r: (order.index(r.server), r.conns))


def load(suite, server, port, conns):
    """The Load of one wrk run against `server` at `conns` connections."""
    user0, kernel0 = server.cpu_times()
    _, (rps, total, _, p99, errors) = suite.wrk(port, conns, HTTP_SECONDS)
    user1, kernel1 = server.cpu_times()
    user, kernel = user1 - user0, kernel1 - kernel0
    per_request = (lambda s: s / total * 1e6) if total else (lambda s: 0)
    return Load(rps or 0, p99 or 0, total / (user + kernel) if user + kernel else 0, errors,
                per_request(user), per_request(kernel))


SCALING_CONNECTIONS = 1000


def scaling(build_dir, out, runs):
    """Rows of (server, workers, requests/s, p99 ms, requests per
    CPU-second, command): httpd-rip --workers N beside nginx with N worker
    processes, N = 1 .. the cores here, the server on the first N cores and
    wrk on the last (shared with a worker when N is every core)."""
    sys.path.insert(0, HERE)
    import suite
    suite.raise_fd_limit()
    root = suite.docroot()
    ncpu = os.cpu_count() or 1
    rows = []
    conf_dir = os.path.join(out, "nginx-scaling")
    os.makedirs(conf_dir, exist_ok=True)
    for n in range(1, ncpu + 1):
        servers = {"httpd-rip": lambda port: [os.path.join(build_dir, "httpd-rip"), "--root",
                                              root, "--port", str(port), "--addr", "127.0.0.1",
                                              "--workers", str(n)]}
        if os.path.exists(suite.PACKAGES["nginx-light"]):
            servers["nginx"] = lambda port: suite.nginx_command(port, root, conf_dir, n)
        if os.path.exists(H2O):
            servers["h2o"] = lambda port: h2o_command(port, root, out, n)
        for name, argv in servers.items():
            port = suite.free_port()
            print("running scaling on %s, %d workers ..." % (name, n), file=sys.stderr,
                  flush=True)
            cmd = argv(port)
            server = suite.Server(name, cmd, port, cpu=tuple(range(n)))
            try:
                got = [load(suite, server, port, SCALING_CONNECTIONS) for _ in range(runs)]
                rps, p99, per_cpu = (statistics.median(getattr(x, f) for x in got)
                                     for f in ("rps", "p99", "per_cpu"))
                rows.append((name, n, rps, p99, per_cpu, suite.shown(cmd)))
            finally:
                server.stop()
    return rows


def scaling_table(rows):
    lines = ["### http scaling (%d connections, %d CPUs here)" % (SCALING_CONNECTIONS,
                                                                   os.cpu_count() or 1), "",
             "The server runs on the first N CPUs and wrk on the last; with N = every CPU, "
             "wrk shares one with a worker, so the last row measures sharing as well.", "",
             "| server | workers | requests/s | p99 ms | requests per CPU-second | command |",
             "|---|--:|--:|--:|--:|---|"]
    for name, n, rps, p99, per_cpu, cmd in rows:
        lines.append("| %s | %d | %.0f | %.2f | %.0f | `%s` |" % (name, n, rps, p99, per_cpu,
                                                                   cmd))
    lines.append("")
    by = {(r[0], r[1]): r for r in rows}
    for n in sorted({r[1] for r in rows}):
        mine = by.get(("httpd-rip", n))
        others = [r for r in rows if r[1] == n and r[0] != "httpd-rip"]
        if mine and others:
            best = max(others, key=lambda r: r[2])
            lines.append("- %d workers: httpd-rip %.2fx the requests/s of %s" % (
                n, mine[2] / best[2] if best[2] else 0, best[0]))
    one = by.get(("httpd-rip", 1))
    for n in sorted({r[1] for r in rows if r[1] > 1}):
        more = by.get(("httpd-rip", n))
        if one and more and one[2]:
            lines.append("- httpd-rip with %d workers: %.2fx its requests/s with 1" % (
                n, more[2] / one[2]))
    return "\n".join(lines + [""])


def http_table(rows):
    lines = ["### http", "",
             "| server | connections | requests/s | p99 ms | requests per CPU-second | "
             "server's user / kernel µs per request | "
             "peak RSS bytes per connection | wrk errors | command |",
             "|---|--:|--:|--:|--:|--:|--:|--:|---|"]
    for r in rows:
        lines.append("| %s | %d | %.0f | %.2f | %.0f | %.2f / %.2f | %.0f | %d | `%s` |"
                     % (r.server, r.conns, r.rps, r.p99, r.per_cpu, r.user_us, r.kernel_us,
                        r.per_conn, r.errors, r.cmd))
    lines.append("")
    by = {(r.server, r.conns): r for r in rows}
    for conns in HTTP_CONNECTIONS:
        mine, limit = by.get(("httpd-rip", conns)), by.get(("epoll (hand-written)", conns))
        others = [r for r in rows if r.conns == conns and r.server not in
                  ("httpd-rip", "httpd-ucontext", "epoll (hand-written)")]
        if mine and limit:
            lines.append("- %d connections: httpd-rip %.2fx the hand-written epoll server's "
                         "requests/s" % (conns, mine.rps / limit.rps if limit.rps else 0))
        if mine and others:
            best = max(others, key=lambda r: r.rps)
            fastest = min(others, key=lambda r: r.p99)
            lines.append("- %d connections: httpd-rip %.2fx the best other peer's requests/s "
                         "(%s); p99 %.2f ms against the best other peer's %.2f ms (%s)"
                         % (conns, mine.rps / best.rps if best.rps else 0, best.server,
                            mine.p99, fastest.p99, fastest.server))
            # Where the time goes: the server's own code (user) against the
            # kernel's TCP work, which no server's design removes.
            lines.append("- %d connections, server CPU per request: httpd-rip %.2f µs in its "
                         "own code + %.2f µs in the kernel, %s %.2f + %.2f"
                         % (conns, mine.user_us, mine.kernel_us, best.server, best.user_us,
                            best.kernel_us))
    if any(r.rps > by[("httpd-rip", r.conns)].rps for r in rows
           if r.server != "httpd-rip" and ("httpd-rip", r.conns) in by):
        lines += ["", "Why a server beats httpd-rip where one does: " + HTTP_WHY]
    lines += [""] + unfair(rows)
    return "\n".join(lines + [""])


# What a profile of httpd-rip showed (perf record -e cpu-clock, 50
# connections): where its own microsecond per request goes.
HTTP_WHY = (
    "wrk, one thread on the other CPU, uses 97-99% of it at every connection count, so "
    "requests/s measures the load generator as much as the server, and differences of a "
    "few per cent change order from run to run; requests per CPU-second is the server's "
    "own cost. The kernel's TCP work is about the same for every server (the kernel "
    "column); the rest is the server's code, 0.8-1.3 µs a request for httpd-rip against "
    "0.3-0.5 µs for the hand-written server, which parses nothing it need not. A profile "
    "of httpd-rip (perf record -e cpu-clock) puts about 2% of its CPU in reading the "
    "clock (the I/O deadlines, and the bookkeeping by which httpd picks a connection to "
    "shed when out of fds) and the rest of its own share in parsing heads, the request's "
    "buffer and the runtime's frames")


def unfair(rows):
    """Where a p99 is below what fair service allows: wrk's connections
    each wait for their answer before asking again, so a server that
    answers them in turn answers each once per round of connections /
    requests-per-second; a p99 well below that round means most answers
    went to some connections while others waited (wrk samples only
    answered requests).  A low p99 there is not a better server."""
    found = []
    for name, conns, rps, p99, *_ in rows:    # HttpRows
        round_ms = conns / rps * 1e3 if rps else 0
        if p99 and p99 < 0.5 * round_ms:
            found.append("- %s at %d connections: p99 %.2f ms, but a round of every "
                         "connection takes %.0f ms at %.0f requests/s: it answers some "
                         "connections far more often than others" % (name, conns, p99,
                                                                       round_ms, rps))
    return found


def versions():
    """One line per toolchain and server measured: what ran."""
    found = []
    for name, cmd in (("cc", ["cc", "--version"]), ("g++", ["g++", "--version"]),
                      ("go", ["go", "version"]), ("rustc", ["rustc", "--version"]),
                      ("nginx", ["/usr/sbin/nginx", "-v"]), ("h2o", [H2O, "--version"]),
                      ("wrk", ["wrk", "-v"])):
        try:
            r = sh(cmd, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            continue
        text = (r.stdout + r.stderr).strip().splitlines()
        if text:
            found.append("%s: %s" % (name, text[0].strip()))
    return found


def plots(results, http_rows, scale_rows, out):
    """PNG plots beside the report (matplotlib, installed by make
    bench-peers when it can be): [file names]."""
    sys.path.insert(0, HERE)
    import suite
    plt = suite.pyplot()
    if plt is None:
        return []
    made = []
    for test in TESTS:
        _, columns = PATTERNS[test]
        got = [(peer, results[test, peer]) for peer in PEERS
               if isinstance(results.get((test, peer)), list)]
        if not got:
            continue
        fig, axes = plt.subplots(1, len(columns), figsize=(4 * len(columns), 3.2))
        axes = axes if len(columns) > 1 else [axes]
        for i, (ax, column) in enumerate(zip(axes, columns)):
            ax.bar([p for p, _ in got], [v[i] for _, v in got],
                   color=["tab:red" if p == "rip" else "tab:gray" for p, _ in got])
            ax.set_title("%s: %s (lower is better)" % (test, column), fontsize=9)
            ax.set_yscale("log")
            ax.tick_params(axis="x", labelsize=8)
        fig.tight_layout()
        made.append(save(fig, out, "peers-%s.png" % test))
    if http_rows:
        fig, axes = plt.subplots(1, 2, figsize=(10, 3.6))
        for name in dict.fromkeys(r.server for r in http_rows):
            mine = [r for r in http_rows if r.server == name]
            style = dict(marker="o", linewidth=2.5 if name == "httpd-rip" else 1)
            axes[0].plot([r.conns for r in mine], [r.rps for r in mine], label=name, **style)
            axes[1].plot([r.conns for r in mine], [r.p99 for r in mine], label=name, **style)
        for ax, what in zip(axes, ("requests/s (higher is better)", "p99 ms (lower is better)")):
            ax.set_xscale("log")
            ax.set_xlabel("connections")
            ax.set_title("http, one core: " + what, fontsize=9)
        axes[1].set_yscale("log")
        axes[0].legend(fontsize=7)
        fig.tight_layout()
        made.append(save(fig, out, "peers-http.png"))
    if scale_rows:
        fig, ax = plt.subplots(figsize=(5, 3.6))
        for name in dict.fromkeys(r[0] for r in scale_rows):
            mine = [r for r in scale_rows if r[0] == name]
            ax.plot([r[1] for r in mine], [r[2] for r in mine], marker="o", label=name)
        ax.set_xlabel("workers")
        ax.set_xticks(sorted({r[1] for r in scale_rows}))
        ax.set_title("http scaling: requests/s", fontsize=9)
        ax.legend(fontsize=7)
        fig.tight_layout()
        made.append(save(fig, out, "peers-scaling.png"))
    return made


def save(fig, out, name):
    fig.savefig(os.path.join(out, name), dpi=80)
    return name


SECTIONS = TESTS + ("http", "scaling")


def main(argv):
    import argparse
    ap = argparse.ArgumentParser(
        prog="peers.py", description="ripper's runtime beside Go, tokio, C++20 coroutines, "
        "h2o, nginx and a hand-written epoll server, side by side (make bench-peers)",
        epilog="report: BUILD_DIR/peers/REPORT.md")
    ap.add_argument("build_dir", nargs="?", default=os.path.join(ROOT, "build"),
                    help="where to build the peers and write the report (default: build)")
    ap.add_argument("--runs", type=int, default=5, metavar="N",
                    help="runs per measurement, of which the median is reported (HTTP: at "
                         "most 3; default 5)")
    ap.add_argument("--only", metavar="SECTION,...", default=",".join(SECTIONS),
                    help="the sections to run, of: %s (default: all)" % ",".join(SECTIONS))
    ap.add_argument("--no-http", action="store_true", help="leave out http and scaling")
    args = ap.parse_args(argv)
    runs = args.runs
    only = set(args.only.split(","))
    if not only <= set(SECTIONS) or runs < 1:
        ap.error("--only takes %s, --runs a number from 1" % ",".join(SECTIONS))
    if args.no_http:
        only -= {"http", "scaling"}
    build_dir = os.path.abspath(args.build_dir)
    out = os.path.join(build_dir, "peers")
    sys.path.insert(0, HERE)
    import suite
    suite.PACKAGES.setdefault("h2o", H2O)
    missing = suite.ensure_packages()       # wrk, nginx, h2o: apt-get when root
    progs, notes = build(out)
    notes += ["%s not measured: apt-get install %s" % (m, m) for m in missing]
    # HTTP first: after the tests that hold 10^6 stacks (ucontext's 5 GiB)
    # the kernel reclaims for a while, which showed as a p99 of 15-20 ms in
    # whichever server ran next (httpd-rip, the first).
    http_rows, scale_rows = [], []
    if only & {"http", "scaling"} and not shutil.which("wrk"):
        notes.append("HTTP skipped: install wrk (make test-deps)")
    elif only & {"http", "scaling"}:
        if "http" in only:
            http_rows = http(build_dir, out, min(runs, 3), progs)
        if "scaling" in only:
            scale_rows = scaling(build_dir, out, min(runs, 3))
    results = {}
    for (test, peer), cmd in sorted(progs.items()):
        if test in only and test in TESTS:  # the others are servers: http()
            print("running %s on %s ..." % (test, peer), file=sys.stderr, flush=True)
            results[test, peer] = measure(test, peer, cmd, runs)
    report = ["# ripper beside its peers", "",
              "%d CPUs here; every program pinned to one (%s), median of %d runs (HTTP: of "
              "up to 3). Lower is better except where a column says otherwise."
              % (os.cpu_count(), "taskset -c 0" if ONE_CORE else "taskset missing: not pinned",
                 runs), ""]
    for test in TESTS:
        if test in only:
            report.append(table(test, results, progs))
    if http_rows:
        report.append(http_table(http_rows))
    if scale_rows:
        report.append(scaling_table(scale_rows))
    made = plots(results, http_rows, scale_rows, out)
    if made:
        report += ["## Plots", ""] + ["![%s](%s)" % (m, m) for m in made] + [""]
    report += ["## Versions", ""] + ["- " + v for v in versions()] + [""]
    if notes:
        report += ["## Not measured", ""] + ["- " + n for n in notes] + [""]
    text = "\n".join(report)
    with open(os.path.join(out, "REPORT.md"), "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main(sys.argv[1:])

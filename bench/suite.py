"""suite.py -- `make bench`: the comparison benchmark suite.  The same
blocking-style examples built three ways (rip, ucontext, threads), beside
what users would pick instead (State Threads, boost.context, nginx, a
process or a thread per connection), measured side by side in one run.

    python bench/suite.py BUILD_DIR            full suite -> bench/results/
    python bench/suite.py BUILD_DIR --quick    `make demo`: the headline table
    python bench/suite.py BUILD_DIR --only 3,5 only those sections (no report)

Section 6 is bench/kvd.py: examples/kvd.c, plain POSIX, built plainly and
with `ripcc --posix` three ways (not in --quick unless asked with --only 6).

Writes bench/results/REPORT.md (every row with the command that produced
it; medians of RUNS runs) and PNG plots when matplotlib is importable.
Installs wrk and nginx with apt-get when missing and running as root."""
import os
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import runtime as peers            # noqa: E402  (bench/runtime.py: stackful peers)

BACKENDS = ("rip", "ucontext", "threads")
RESULTS = os.path.join(HERE, "results")
SERVER_CPU, CLIENT_CPU = 0, 1      # server pinned to one CPU, the client to the other
PACKAGES = {"wrk": "/usr/bin/wrk", "nginx-light": "/usr/sbin/nginx"}


def progress(msg):
    print("[bench] " + msg, file=sys.stderr, flush=True)


def ensure_packages():
    missing = [p for p, f in PACKAGES.items() if not os.path.exists(f)]
    if missing and os.geteuid() == 0 and shutil.which("apt-get"):
        progress("installing %s with apt-get ..." % " ".join(missing))
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        subprocess.run(["apt-get", "update", "-qq"], capture_output=True)
        subprocess.run(["apt-get", "install", "-y", "-qq"] + missing, capture_output=True, env=env)
    missing = [p for p, f in PACKAGES.items() if not os.path.exists(f)]
    if missing:
        progress("not measured without %s: apt-get install %s" % (missing, " ".join(missing)))
    return missing


def raise_fd_limit():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = hard if hard != resource.RLIM_INFINITY else 1 << 20
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    return want


def pinned(cpu):
    """A preexec function pinning the child to CPU `cpu`, or to each CPU of
    a tuple of them (modulo the CPUs here); None: not pinned."""
    ncpu = os.cpu_count() or 1
    cpus = cpu if isinstance(cpu, tuple) else (cpu,)

    def pre():
        raise_fd_limit()
        if ncpu > 1 and cpu is not None:
            os.sched_setaffinity(0, {c % ncpu for c in cpus})
    return pre


def run_measured(cmd, cpu=CLIENT_CPU, timeout=900):
    """(stdout, wall seconds, rusage) of cmd, from wait4: the OS's own count."""
    t0 = time.time()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         preexec_fn=pinned(cpu), text=True)
    killer = threading.Timer(timeout, p.kill)   # a hung program must not hang the suite
    killer.start()
    out = p.stdout.read()
    _, status, ru = os.wait4(p.pid, 0)
    killer.cancel()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        progress("  %s exited with %d" % (shown(cmd), p.returncode))
    return out, time.time() - t0, ru


def shown(cmd):
    return " ".join(os.path.relpath(c, ROOT) if os.path.isabs(c) and c.startswith(ROOT) else c
                    for c in cmd)


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


class Report:
    """Markdown parts, kept in section order whatever order they ran in."""
    def __init__(self):
        self.parts = []             # (section, text)
        self.section = 0            # the section being measured

    def text(self, s):
        self.parts.append((self.section, s.strip() + "\n"))

    def table(self, header, rows):
        lines = ["| " + " | ".join(header) + " |",
                 "|" + "|".join("---:" if i else "---" for i in range(len(header))) + "|"]
        for r in rows:
            lines.append("| " + " | ".join(fmt(x) for x in r) + " |")
        self.parts.append((self.section, "\n".join(lines) + "\n"))

    def markdown(self):
        return "\n".join(text for _, text in sorted(self.parts, key=lambda p: p[0]))

    def write(self, path):
        with open(path, "w") as f:
            f.write(self.markdown())


def fmt(x):
    if x is None:
        return "n/a"
    if isinstance(x, float):
        return "{:,.2f}".format(x) if abs(x) < 100 else "{:,.0f}".format(x)
    if isinstance(x, int):
        return "{:,}".format(x)
    return str(x)


# ---- 1. context switches -------------------------------------------------

PINGPONG = re.compile(r"^(\w+)\s+\d+ switches in [\d.]+ s: \d+ switches/s, ([\d.]+) ns", re.M)
ROUNDS = {"rip": 2000000, "ucontext": 200000, "threads": 20000}


def switches(build, report, runs, quick):
    progress("context switches ...")
    rows = []
    for backend in BACKENDS:
        cmd = [os.path.join(build, "pingpong-" + backend), str(ROUNDS[backend] // (4 if quick else 1))]
        samples = {}
        for _ in range(runs):
            out, _, ru = run_measured(cmd)
            for m in PINGPONG.finditer(out):
                samples.setdefault(m.group(1), []).append((float(m.group(2)), ru.ru_nvcsw, ru.ru_nivcsw))
        for kind, s in samples.items():
            ns = median(x[0] for x in s)
            rows.append(["%s %s" % (backend, kind), ns, 1e9 / ns, median(x[1] for x in s),
                         median(x[2] for x in s), "`%s`" % shown(cmd)])
    if not quick:
        progs = peers.build(tempfile.mkdtemp())
        for name, arg in (("statemachine", "50000000"), ("st", "2000000"), ("boost", "20000000")):
            if name not in progs:
                continue
            cmd = [progs[name], arg]
            samples = {}
            for _ in range(runs):
                out, _, ru = run_measured(cmd)
                for m in peers.NS.finditer(out):
                    samples.setdefault(m.group(1), []).append((float(m.group(2)), ru.ru_nvcsw, ru.ru_nivcsw))
            for kind, s in samples.items():
                ns = median(x[0] for x in s)
                rows.append([kind, ns, 1e9 / ns, median(x[1] for x in s), median(x[2] for x in s),
                             "`%s` (bench/runtime/)" % shown([os.path.basename(cmd[0])] + cmd[1:])])
    report.text("## 1. Context switches\n\nTwo tasks hand a token back and forth "
                "(`channel`: a rendezvous channel; `yield`: each yields to the other). "
                "The OS's voluntary/involuntary context switches are for the whole measured "
                "process (both halves of pingpong), from `wait4`. For reference, the 2004 "
                "measurement in DESIGN.md: pthreads 117-253 K switches/s, ucontext "
                "758-1,320 K switches/s.")
    report.table(["what", "ns/switch", "switches/s", "voluntary cs", "involuntary cs", "command"], rows)
    if not quick:
        oscheck(build, report)
    return {r[0]: r[1] for r in rows}


def oscheck(build, report):
    """The OS's switch counts checked on a program of known behaviour."""
    exe = os.path.join(build, "bench-oscheck")
    if subprocess.run(["cc", "-O2", os.path.join(HERE, "models", "oscheck.c"), "-o", exe]).returncode:
        return
    n = 2000
    _, _, ru = run_measured([exe, "sleeps", str(n)])
    spinner = subprocess.Popen([exe, "spin", "1.5"], preexec_fn=pinned(CLIENT_CPU))
    _, _, ru2 = run_measured([exe, "spin", "1"])
    spinner.wait()
    ok = n <= ru.ru_nvcsw <= n * 1.1 + 20 and ru2.ru_nivcsw > 10
    report.text("Check of the OS's counts: `oscheck sleeps %d` (2,000 usleep calls) counted "
                "%d voluntary switches; `oscheck spin 1` sharing its CPU with another spinner "
                "counted %d involuntary ones (%s)." % (
                    n, ru.ru_nvcsw, ru2.ru_nivcsw,
                    "as expected: the counts can be trusted" if ok else "NOT as expected"))


# ---- 2. memory -----------------------------------------------------------

SPAWN = re.compile(r"spawn ([\d.]+) ns/task, (\d+) bytes per blocked task")


def guard_regions():
    """Does the kernel make a stack's guard page without a mapping of its
    own (MADV_GUARD_INSTALL, Linux 6.13)?  Without it, ucontext's stacks
    stop at about half of vm.max_map_count (65,530 by default), and a
    spawn past that ends the program with a message."""
    try:
        major, minor = (int(x) for x in re.match(r"(\d+)\.(\d+)", os.uname().release).groups())
    except (AttributeError, ValueError):
        return False
    return (major, minor) >= (6, 13)


def memory(build, report, runs, quick):
    progress("memory per blocked task ...")
    avail = os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    limits = {"rip": 10 ** 6, "ucontext": 10 ** 6 if avail > 16e9 else 10 ** 5,
              "threads": 10 ** 4}
    if not guard_regions():     # each guard page a mapping of its own: the map count caps stacks
        limits["ucontext"] = 10 ** 4
    rows = []
    for backend in BACKENDS:
        for n in (10 ** 4, 10 ** 5, 10 ** 6):
            if n > limits[backend] or (quick and n != min(10 ** 5, limits[backend])):
                continue
            cmd = [os.path.join(build, "spawnmany-" + backend), str(n)]
            slow = backend != "rip" and n >= 10 ** 6     # ~10 s a run: once
            got = [SPAWN.search(run_measured(cmd)[0]) for _ in range(1 if slow else runs)]
            got = [m for m in got if m]
            if got:
                rows.append([backend, n, median(float(m.group(1)) for m in got),
                             int(median(int(m.group(2)) for m in got)), "`%s`" % shown(cmd)])
    report.text("## 2. Memory and spawn time\n\nN tasks that all block on one wait group "
                "(examples/spawnmany.c): resident bytes per blocked task and time per spawn. "
                "threads stops at 10^4 (kernel.pid_max here), ucontext at 10^6 only with "
                "16 GB free.")
    report.table(["backend", "tasks", "spawn ns/task", "bytes per blocked task", "command"], rows)
    return rows


# ---- 3. HTTP ---------------------------------------------------------------

def docroot():
    root = tempfile.mkdtemp(prefix="bench-www-")
    with open(os.path.join(root, "index.html"), "w") as f:
        f.write("<!DOCTYPE html><html><head><title>bench</title></head><body>"
                + "<p>ripper benchmark page</p>" * 20 + "</body></html>\n")
    return root


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A server process pinned to SERVER_CPU, listening on a free port."""
    def __init__(self, name, cmd, port, cpu=SERVER_CPU):
        self.name, self.cmd, self.port = name, cmd, port
        self.proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     preexec_fn=pinned(cpu))
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError("%s did not start listening: %s" % (name, shown(cmd)))

    def cpu_seconds(self):
        return sum(self.cpu_times())

    def cpu_times(self):
        """(user, kernel) CPU seconds of the server, all its processes."""
        ticks = os.sysconf("SC_CLK_TCK")
        user = kernel = 0
        for pid in [self.proc.pid] + children(self.proc.pid):
            try:
                with open("/proc/%d/stat" % pid) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                user += int(fields[11])
                kernel += int(fields[12])
            except OSError:
                pass
        return user / ticks, kernel / ticks

    def rss(self, field="VmRSS"):
        """Resident bytes of the server (all its processes)."""
        total = 0
        for pid in [self.proc.pid] + children(self.proc.pid):
            try:
                with open("/proc/%d/status" % pid) as f:
                    for line in f:
                        if line.startswith(field + ":"):
                            total += int(line.split()[1]) * 1024
            except OSError:
                pass
        return total

    def stop(self):
        for pid in children(self.proc.pid):
            try:
                os.kill(pid, 9)
            except OSError:
                pass
        self.proc.kill()
        self.proc.wait()


def children(pid):
    """Processes whose parent is pid (from /proc: no procps needed)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open("/proc/%s/stat" % entry) as f:
                if f.read().rsplit(")", 1)[1].split()[1] == str(pid):
                    found.append(int(entry))
        except (OSError, IndexError, ValueError):
            pass
    return found


def nginx_command(port, root, conf_dir, workers=1):
    """nginx serving `root`: one worker process without a master, or
    `workers` of them, each with its own listening socket (reuseport, as
    httpd --workers has)."""
    conf = os.path.join(conf_dir, "nginx-%s.conf" % port)
    with open(conf, "w") as f:
        f.write("%sdaemon off; worker_processes %d;\n"
                "pid %s/nginx-%s.pid; error_log %s/error.log;\n"
                "events { worker_connections 65536; }\n"
                "http { access_log off; sendfile on; tcp_nodelay on; keepalive_requests 100000000;\n"
                "  keepalive_timeout 120s;\n"
                "  server { listen 127.0.0.1:%s%s backlog=4096; root %s; } }\n"
                % ("master_process off; " if workers == 1 else "", workers, conf_dir, port,
                   conf_dir, port, " reuseport" if workers > 1 else "", root))
    return [PACKAGES["nginx-light"], "-c", conf, "-e", os.path.join(conf_dir, "error.log")]


def servers(build, root, only=None):
    """{name: function(port) -> argv} of every server to compare."""
    conf_dir = tempfile.mkdtemp(prefix="bench-nginx-")
    table = {}
    for backend in BACKENDS:
        exe = os.path.join(build, "httpd-" + backend)
        table["httpd-" + backend] = (lambda port, exe=exe:
                                     [exe, "--root", root, "--port", str(port), "--addr", "127.0.0.1"])
    if os.path.exists(PACKAGES["nginx-light"]):
        table["nginx"] = lambda port: nginx_command(port, root, conf_dir)
    fork = os.path.join(build, "bench-fork_httpd")
    if subprocess.run(["cc", "-O2", os.path.join(HERE, "models", "fork_httpd.c"), "-o", fork]).returncode == 0:
        table["fork-per-connection"] = lambda port: [fork, str(port), os.path.join(root, "index.html")]
    return {k: v for k, v in table.items() if only is None or k in only}


LAT = re.compile(r"^\s+(50|99)%\s+([\d.]+)(us|ms|s)\s*$", re.M)


def wrk(port, conns, seconds):
    cmd = ["wrk", "-t1", "-c%d" % conns, "-d%ds" % seconds, "--latency",
           "http://127.0.0.1:%d/index.html" % port]
    out, _, _ = run_measured(cmd, CLIENT_CPU)
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    total = re.search(r"(\d+) requests in", out)
    lat = {m.group(1): float(m.group(2)) * {"us": 1e-3, "ms": 1, "s": 1e3}[m.group(3)]
           for m in LAT.finditer(out)}
    errors = sum(int(n) for n in re.findall(r"(?:connect|read|write|timeout) (\d+)", out))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors += int(non2xx.group(1)) if non2xx else 0
    return cmd, (float(rps.group(1)) if rps else None, int(total.group(1)) if total else 0,
                 lat.get("50"), lat.get("99"), errors)


def http(build, report, runs, quick, seconds):
    progress("HTTP: wrk against each server ...")
    root = docroot()
    fd_limit = raise_fd_limit()
    levels = [50] if quick else [50, 1000] + ([10000] if fd_limit >= 12000 else [])
    table = servers(build, root)
    table.pop("fork-per-connection", None)   # in section 4
    rows, headline = [], {}
    for conns in levels:
        for name, argv in table.items():
            samples = []
            for _ in range(runs):
                port = free_port()
                srv = Server(name, argv(port), port)
                base_rss = srv.rss()
                cpu0 = srv.cpu_seconds()
                cmd, (rps, total, p50, p99, errors) = wrk(port, conns, seconds)
                cpu = srv.cpu_seconds() - cpu0
                peak = srv.rss("VmHWM")
                srv.stop()
                samples.append((rps, p50, p99, cpu, total / cpu if cpu else None, peak,
                                (peak - base_rss) / conns, errors))
            progress("  %s, %d connections: %s requests/s" % (name, conns, fmt(median(s[0] for s in samples))))
            row = [name, conns] + [median(s[i] for s in samples) for i in range(8)]
            row[7] = int(row[7]) if row[7] else None
            rows.append(row + ["`%s` vs `%s`" % (shown(cmd).replace(str(port), "PORT"),
                                                 shown(argv("PORT")).replace(root, "WWW"))])
            headline[(name, conns)] = row
    report.text("## 3. HTTP\n\nwrk (1 thread) against each server serving the same %d-byte "
                "file, server pinned to CPU %d and wrk to CPU %d, %d s per run, median of %d "
                "runs. CPU seconds are the server's user + system time during the run (from "
                "/proc/PID/stat); RSS per connection is (peak RSS - RSS before the run) / "
                "connections." % (os.path.getsize(os.path.join(root, "index.html")),
                                  SERVER_CPU, CLIENT_CPU, seconds, runs))
    report.table(["server", "connections", "requests/s", "p50 ms", "p99 ms", "server CPU s",
                  "requests per CPU-second", "peak RSS", "RSS per connection",
                  "errors (socket, non-2xx)", "command"],
                 rows)
    return headline


# ---- 4. models at scale (c10k) ---------------------------------------------

def hold_idle(port, n):
    """Open n keep-alive connections, one request each, and keep them open.
    Returns (sockets, answered)."""
    socks, answered = [], 0
    req = b"GET /index.html HTTP/1.1\r\nHost: b\r\n\r\n"
    for i in range(n):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
        except OSError:
            break
        s.sendall(req)
        socks.append(s)
        if len(socks) % 500 == 0:
            answered += drain(socks[-500:])
    answered += drain(socks[len(socks) // 500 * 500:])
    return socks, answered


def drain(socks):
    """Read one response from each: how many answered."""
    ok = 0
    for s in socks:
        try:
            data = b""
            while b"\r\n\r\n" not in data:
                chunk = s.recv(65536)
                if not chunk:
                    break
                data += chunk
            length = int(re.search(rb"Content-Length: (\d+)", data, re.I).group(1))
            body = data.split(b"\r\n\r\n", 1)[1]
            while len(body) < length:
                body += s.recv(65536)
            ok += 1
        except (OSError, AttributeError):
            pass
    return ok


def c10k(build, report, quick):
    progress("models at scale: 10,000 idle keep-alive connections ...")
    n = 1000 if quick else 10000
    raise_fd_limit()
    root = docroot()
    rows = []
    for name, argv in servers(build, root).items():
        port = free_port()
        srv = Server(name, argv(port), port)
        base = srv.rss()
        t0 = time.time()
        socks, answered = hold_idle(port, n)
        time.sleep(0.5)
        rss = srv.rss() if name != "fork-per-connection" else pss_total(srv)
        for s in socks:
            try:
                s.sendall(b"GET /index.html HTTP/1.1\r\nHost: b\r\n\r\n")
            except OSError:
                pass
        again = drain(socks)
        elapsed = time.time() - t0
        for s in socks:
            s.close()
        srv.stop()
        progress("  %s: %d held, %d answered twice" % (name, len(socks), again))
        rows.append([name, len(socks), answered, again, rss, (rss - base) / max(len(socks), 1),
                     elapsed, "`%s`" % shown(argv("PORT")).replace(root, "WWW")])
    report.text("## 4. Models at scale (c10k)\n\n%d keep-alive connections opened one after "
                "another, each answered once, then held open idle; the server's resident memory "
                "is read while they are open (for fork-per-connection, the proportional set "
                "size of all its processes), then every connection is asked once more. "
                "threads is the thread-per-connection model (a pthread per task)." % n)
    report.table(["server", "connections held", "answered", "answered again", "RSS",
                  "RSS per connection", "seconds", "command"], rows)
    return rows


def pss_total(srv):
    total = 0
    for pid in [srv.proc.pid] + children(srv.proc.pid):
        try:
            with open("/proc/%d/smaps_rollup" % pid) as f:
                for line in f:
                    if line.startswith("Pss:"):
                        total += int(line.split()[1]) * 1024
        except OSError:
            pass
    return total


# ---- 5. prefork and accept() -----------------------------------------------

def accept_herd(build, report, seconds):
    progress("prefork and accept(): the thundering herd ...")
    exe = os.path.join(build, "bench-accept_herd")
    if subprocess.run(["cc", "-O2", os.path.join(HERE, "models", "accept_herd.c"), "-o", exe]).returncode:
        return []
    rows = []
    for n in (1, 4, 16, 64, 256):
        for mode in ("blocking", "epoll"):
            cmd = [exe, str(n), mode, "2000"]
            vals = [list(map(float, run_measured(cmd, None)[0].split() or [0, 0, 0])) for _ in range(3)]
            rows.append([n, mode] + [median(v[i] for v in vals) for i in range(3)] + ["`%s`" % shown(cmd)])
    report.text("## 5. Prefork and accept()\n\nN processes wait on one listening socket; a "
                "client makes 2,000 connections one after another. `blocking`: each process "
                "sits in accept(2), and Linux wakes one. `epoll`: each waits in epoll_wait and "
                "then tries a non-blocking accept, as event loops do: every waiter may wake. "
                "CPU is all servers' user + system time per accepted connection.")
    report.table(["processes", "mode", "us per connection", "CPU us per accept",
                  "epoll_wait/accept returns per accept", "command"], rows)
    root = docroot()
    rows2 = []
    for label, extra in (("1 scheduler", []), ("--workers 2", ["--workers", "2"]),
                         ("--prefork 2", ["--prefork", "2"])):
        port = free_port()
        argv = [os.path.join(build, "httpd-rip"), "--root", root, "--port", str(port),
                "--addr", "127.0.0.1"] + extra
        srv = Server(label, argv, port, cpu=None)      # every thread and process on both CPUs
        cpu0 = srv.cpu_seconds()
        cmd = ["wrk", "-t2", "-c100", "-d%ds" % seconds, "http://127.0.0.1:%d/index.html" % port]
        out = subprocess.run(cmd, capture_output=True, text=True, preexec_fn=raise_fd_limit).stdout
        cpu = srv.cpu_seconds() - cpu0
        srv.stop()
        rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
        total = re.search(r"(\d+) requests in", out)
        rows2.append([label, float(rps.group(1)) if rps else None, cpu,
                      int(total.group(1)) / cpu if total and cpu else None,
                      "`%s`" % shown(argv).replace(root, "WWW").replace(str(port), "PORT")])
    report.text("httpd-rip on both CPUs (unpinned, sharing them with wrk -t2 -c100): one "
                "scheduler, two worker threads with SO_REUSEPORT listeners, two preforked "
                "processes sharing one listener.")
    report.table(["httpd-rip", "requests/s", "server CPU s", "requests per CPU-second", "command"], rows2)
    return rows


# ---- plots and main ------------------------------------------------------

def pyplot():
    """matplotlib.pyplot drawing to files, or None (saying so) without it."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        progress("no matplotlib: plots skipped (pip install matplotlib)")
        return None
    return plt


def plot(switch_rows, mem_rows, http_rows, c10k_rows, herd_rows):
    plt = pyplot()
    if plt is None:
        return []
    made = []

    def save(fig, name):
        path = os.path.join(RESULTS, name)
        fig.tight_layout()
        fig.savefig(path, dpi=110)
        plt.close(fig)
        made.append(name)

    if switch_rows:
        fig, ax = plt.subplots(figsize=(8, 4))
        names = list(switch_rows)
        ax.barh(names, [switch_rows[n] for n in names])
        ax.set_xscale("log")
        ax.set_xlabel("ns per switch (log)")
        ax.set_title("Context switch cost")
        save(fig, "switches.png")
    if mem_rows:
        fig, ax = plt.subplots(figsize=(7, 4))
        for backend in BACKENDS:
            pts = [(r[1], r[3]) for r in mem_rows if r[0] == backend]
            if pts:
                ax.plot(*zip(*pts), marker="o", label=backend)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("blocked tasks")
        ax.set_ylabel("bytes per blocked task")
        ax.legend()
        ax.set_title("Memory per blocked task")
        save(fig, "memory.png")
    if http_rows:
        levels = sorted({k[1] for k in http_rows})
        names = sorted({k[0] for k in http_rows})
        fig, ax = plt.subplots(figsize=(8, 4))
        width = 0.8 / len(names)
        for i, name in enumerate(names):
            ax.bar([j + i * width for j in range(len(levels))],
                   [(http_rows.get((name, c)) or [0, 0, 0])[2] or 0 for c in levels], width, label=name)
        ax.set_xticks([j + 0.4 - width / 2 for j in range(len(levels))])
        ax.set_xticklabels(["%d connections" % c for c in levels])
        ax.set_ylabel("requests/s")
        ax.legend()
        ax.set_title("HTTP throughput (server on one CPU)")
        save(fig, "http.png")
    if c10k_rows:
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.barh([r[0] for r in c10k_rows], [r[5] / 1024 for r in c10k_rows])
        ax.set_xscale("log")
        ax.set_xlabel("KiB of memory per idle connection (log)")
        ax.set_title("Idle keep-alive connections")
        save(fig, "c10k.png")
    if herd_rows:
        fig, ax = plt.subplots(figsize=(7, 4))
        for mode in ("blocking", "epoll"):
            pts = [(r[0], r[3]) for r in herd_rows if r[1] == mode]
            ax.plot(*zip(*pts), marker="o", label=mode)
        ax.set_xscale("log")
        ax.set_xlabel("processes waiting on one socket")
        ax.set_ylabel("CPU us per accepted connection")
        ax.legend()
        ax.set_title("accept() thundering herd")
        save(fig, "accept.png")
    return made


def headline_table(switch_rows, mem_rows, http_rows):
    print("\n| backend | channel ns/switch | yield ns/switch | bytes per blocked task | "
          "requests/s (50 conns) |")
    print("|---|---:|---:|---:|---:|")
    for backend in BACKENDS + ("nginx",):
        mem = [r for r in mem_rows if r[0] == backend]
        row = http_rows.get(("httpd-" + backend if backend != "nginx" else "nginx", 50))
        print("| %s | %s | %s | %s | %s |" % (
            backend, fmt(switch_rows.get(backend + " channel")), fmt(switch_rows.get(backend + " yield")),
            fmt(mem[-1][3] if mem else None), fmt(row[2] if row else None)))
    rip, ngx = http_rows.get(("httpd-rip", 50)), http_rows.get(("nginx", 50))
    if rip and ngx and rip[2] and ngx[2]:
        print("\nhttpd-rip / nginx requests/s at 50 connections: %.2fx" % (rip[2] / ngx[2]))


def main(argv):
    build = argv[0] if argv else "build"
    quick = "--quick" in argv
    only = set(argv[argv.index("--only") + 1].split(",")) if "--only" in argv else None

    def wanted(section):
        return only is None or str(section) in only
    missing = ensure_packages()
    if not quick:
        peers.ensure_peers()
    runs = 1 if quick else 3
    report = Report()
    report.text("# ripper benchmark report\n\nMachine: %d CPUs, %s. Generated by `make bench` "
                "(bench/suite.py) on %s. Every comparison is a ratio of numbers measured in this "
                "one run; medians of %d runs unless a row says otherwise." % (
                    os.cpu_count(), os.uname().release, time.strftime("%Y-%m-%d %H:%M"), runs))
    # Memory runs last: after 10^6 stacks the kernel reclaims for a while,
    # which showed as latency spikes in whatever ran next.
    report.section = 1
    switch_rows = switches(build, report, runs, quick) if wanted(1) else {}
    http_rows, c10k_rows, herd_rows = {}, [], []
    if "wrk" not in missing:
        report.section = 3
        http_rows = http(build, report, runs, quick, 3 if quick else 5) if wanted(3) else {}
        if not quick:
            report.section = 4
            c10k_rows = c10k(build, report, quick) if wanted(4) else []
            report.section = 5
            herd_rows = accept_herd(build, report, 5) if wanted(5) else []
    report.section = 6
    if wanted(6) and (not quick or only is not None):
        import kvd              # bench/kvd.py (it imports this file for its helpers)
        kvd.section(os.path.abspath(build), report, runs, quick, 1 if quick else 5)
    report.section = 2
    mem_rows = memory(build, report, runs, quick) if wanted(2) else []
    report.section = 7
    if only is not None:
        print(report.markdown())
        return
    if quick:
        headline_table(switch_rows, mem_rows, http_rows)
        return
    os.makedirs(RESULTS, exist_ok=True)
    made = plot(switch_rows, mem_rows, http_rows, c10k_rows, herd_rows)
    report.text("## Plots\n\n" + "\n".join("![%s](%s)" % (m, m) for m in made))
    report.write(os.path.join(RESULTS, "REPORT.md"))
    headline_table(switch_rows, mem_rows, http_rows)
    progress("wrote %s" % os.path.relpath(os.path.join(RESULTS, "REPORT.md")))


if __name__ == "__main__":
    main(sys.argv[1:])

"""soak.py -- httpd under wrk and hostile clients for a while (make soak).

Each httpd build serves wrk at 1,000 keep-alive connections while hostile
clients attack it: slowloris heads, resets in the middle of a response,
random bytes, oversized heads, clients that ask for a big file and never
read (stalled readers), and floods of connections past its fd limit that
say nothing (the kernel holds them: httpd's listener defers each accept to
its first bytes, so they reach the server only as they close).  Meanwhile an
ordinary client makes a new connection every 50 ms and times its request:
the report gives its p50, p99 and slowest (a number to read; the verdict
does not depend on speed).  Every second the server's RSS, open fds,
threads and CPU are sampled.  The verdict per build: wrk's ordinary
requests saw no error, and once the attack stops, fds and threads come
back to what they were before any load, and RSS to within RSS_SLACK of
its baseline, measured after a warm-up round of the same attack (which
sizes the pools).  Writes REPORT.md (and PNG plots when matplotlib
imports).

    python bench/soak.py BUILD_DIR [--seconds S] [--backends rip,ucontext,threads]
                         [--out DIR]

Exit 0 when every build passes, 1 when one does not.
"""
import argparse
import os
import random
import re
import resource
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import suite                        # noqa: E402  (bench/suite.py: fd limits, plots)
BACKENDS = suite.BACKENDS
FD_LIMIT = 2048                     # the server's: the flood goes past it
CONNS = 1000                        # wrk's keep-alive connections
SLOWLORIS = 100                     # heads sent a byte a second
FLOOD = 2500                        # connections a flood opens at once
STALLED = 100                       # clients asking for huge.bin that never read: each
                                    # holds a full send buffer, some MiB of kernel memory
                                    # on loopback (its 64 KiB MTU makes them big)
STALLED_FOR = 3                     # seconds each stays (> TIMEOUT_MS: the server drops it first)
PROBE_EVERY = 0.05                  # seconds between the ordinary client's requests
TIMEOUT_MS = 2000                   # httpd --timeout: how long a slowloris lasts
RSS_SLACK = 8 << 20                 # bytes RSS may stay above the baseline


def progress(msg):
    print("[soak] " + msg, file=sys.stderr, flush=True)


def fd_limit(want):
    """Set this process's fd limit to want (at most the hard limit)."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))


def docroot():
    root = tempfile.mkdtemp(prefix="soak-www-")
    with open(os.path.join(root, "index.html"), "w") as f:
        f.write("<p>soak</p>\n" * 40)
    with open(os.path.join(root, "big.bin"), "wb") as f:
        f.write(os.urandom(1 << 20))
    with open(os.path.join(root, "huge.bin"), "wb") as f:
        f.truncate(64 << 20)        # sparse: more than any send buffer, no disk
    return root


class Server:
    """httpd on a free port, with what /proc says of it."""

    def __init__(self, exe, root):
        self.proc = subprocess.Popen(
            [exe, "--root", root, "--port", "0", "--addr", "127.0.0.1", "--timeout",
             str(TIMEOUT_MS)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            preexec_fn=lambda: fd_limit(FD_LIMIT))
        line = self.proc.stdout.readline().decode()
        m = re.match(r"listening on (\d+)", line)
        if not m:
            raise RuntimeError("%s did not start: %r" % (exe, line))
        self.port = int(m.group(1))
        self.ticks = os.sysconf("SC_CLK_TCK")

    def sample(self):
        """(rss bytes, open fds, threads, cpu seconds so far), or None once gone."""
        pid = self.proc.pid
        try:
            with open("/proc/%d/status" % pid) as f:
                status = dict(line.split(":", 1) for line in f if ":" in line)
            with open("/proc/%d/stat" % pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            fds = len(os.listdir("/proc/%d/fd" % pid))
        except (OSError, ValueError):
            return None
        return (int(status["VmRSS"].split()[0]) * 1024, fds, int(status["Threads"]),
                (int(fields[11]) + int(fields[12])) / self.ticks)

    def stop(self):
        alive = self.proc.poll() is None
        self.proc.kill()
        self.proc.wait()
        return alive


class Attack:
    """The hostile clients, each a thread looping until stop(); counts
    what each did."""

    def __init__(self, port):
        self.port = port
        self.done = threading.Event()
        self.counts = {}
        self.lock = threading.Lock()
        self.latencies = []         # the ordinary client's seconds per request
        self.threads = [threading.Thread(target=f, daemon=True) for f in (
            self.slowloris, self.resets, self.garbage, self.oversized, self.flood,
            self.stalled_readers)]
        self.probe = None           # the ordinary client's process

    def count(self, what):
        with self.lock:
            self.counts[what] = self.counts.get(what, 0) + 1

    def connect(self, timeout=5):
        s = socket.create_connection(("127.0.0.1", self.port), timeout=timeout)
        return s

    def start(self):
        for t in self.threads:
            t.start()
        self.probe = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--probe",
                                       str(self.port)], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True)

    def stop(self):
        self.done.set()
        try:
            out, _ = self.probe.communicate(timeout=60)  # stdin closed: it reports and ends
        except subprocess.TimeoutExpired:
            self.probe.kill()
            out, _ = self.probe.communicate()
        for line in out.split():
            if line == "failed":
                self.count("ordinary requests failed")
            else:
                self.latencies.append(float(line))
                self.count("ordinary requests")
        for t in self.threads:
            t.join(30)

    def guarded(self, what, step):
        """Run step() until stopped; a failure of the attacker's own socket
        is part of the game (the server shed or dropped it)."""
        while not self.done.is_set():
            try:
                step()
                self.count(what)
            except OSError:
                self.count(what + " dropped")
                time.sleep(0.01)

    def slowloris(self):
        socks = []
        while not self.done.is_set():
            while len(socks) < SLOWLORIS:
                try:
                    s = self.connect()
                    s.sendall(b"GET /index.html HTTP/1.1\r\n")
                    socks.append(s)
                    self.count("slowloris heads")
                except OSError:
                    self.count("slowloris refused")
                    break
            for s in list(socks):
                try:
                    s.sendall(b"X")     # a header name that never ends
                except OSError:
                    socks.remove(s)     # timed out or shed: the server let go
                    s.close()
                    self.count("slowloris dropped by the server")
            self.done.wait(1)
        for s in socks:
            s.close()

    def resets(self):
        def step():
            with self.connect() as s:
                s.sendall(b"GET /big.bin HTTP/1.1\r\nHost: soak\r\n\r\n")
                s.recv(4096)
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\0\0\0\0\0\0\0")
        self.guarded("resets mid-response", step)

    def garbage(self):
        rng = random.Random(1)

        def step():
            with self.connect() as s:
                s.sendall(bytes(rng.randrange(256) for _ in range(1024)))
                while s.recv(4096):
                    pass
        self.guarded("random heads", step)

    def oversized(self):
        def step():
            with self.connect() as s:
                s.sendall(b"GET / HTTP/1.1\r\nX: " + b"a" * 20000 + b"\r\n\r\n")
                while s.recv(4096):
                    pass
        self.guarded("oversized heads", step)

    def stalled_readers(self):
        """STALLED clients that ask for huge.bin (64 MiB) with a 4 KiB
        receive buffer and never read, each for STALLED_FOR seconds, then
        another in its place.  (Whether the server dropped one cannot be seen: its FIN
        waits behind the answer the client does not read.)"""
        socks = []                  # (socket, when it connected)
        while not self.done.is_set():
            now = time.monotonic()
            for s, since in [x for x in socks if now - x[1] > STALLED_FOR]:
                socks.remove((s, since))
                s.close()           # unread bytes: a reset, no TIME_WAIT
            while len(socks) < STALLED and not self.done.is_set():
                s = None
                try:
                    s = socket.socket()
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                    s.settimeout(5)
                    s.connect(("127.0.0.1", self.port))
                    s.sendall(b"GET /huge.bin HTTP/1.1\r\nHost: soak\r\n\r\n")
                    socks.append((s, time.monotonic()))
                    self.count("stalled readers")
                except OSError:
                    if s:
                        s.close()
                    self.count("stalled readers refused")
                    break
            self.done.wait(0.2)
        for s, _ in socks:
            s.close()

    def flood(self):
        """FLOOD connections at once that send nothing, closed after 0.5 s."""
        while not self.done.is_set():
            socks = []
            for _ in range(FLOOD):
                try:
                    s = socket.socket()
                    s.setblocking(False)
                    s.connect_ex(("127.0.0.1", self.port))
                    socks.append(s)
                except OSError:
                    break
            self.count("floods of %d" % FLOOD)
            self.done.wait(0.5)
            for s in socks:
                s.close()
            self.done.wait(1)


def probe(port):
    """The ordinary client, in a process of its own (the attackers'
    threads share a GIL that would time them, not the server): a new
    connection every PROBE_EVERY s, GET /index.html, until stdin closes;
    prints the seconds each took, or "failed" (no whole answer in 30 s)."""
    done = threading.Event()
    threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
    while not done.wait(PROBE_EVERY):
        start = time.monotonic()
        data = b""
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
                s.sendall(b"GET /index.html HTTP/1.1\r\nHost: soak\r\nConnection: close\r\n\r\n")
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    data += chunk
        except OSError:
            pass
        ok = data.startswith(b"HTTP/1.1 200 ") and data.endswith(b"<p>soak</p>\n")
        print("%.6f" % (time.monotonic() - start) if ok else "failed", flush=True)
    return 0


WRK_ERRORS = re.compile(r"(?:connect|read|write|timeout) (\d+)")


def wrk(port, seconds):
    """(requests, errors, requests/s, wrk's output) of wrk at CONNS connections."""
    cmd = ["wrk", "-t1", "-c%d" % CONNS, "-d%ds" % seconds, "--timeout", "10s",
           "http://127.0.0.1:%d/index.html" % port]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=seconds + 60,
                       preexec_fn=suite.raise_fd_limit)
    out = r.stdout + r.stderr
    total = re.search(r"(\d+) requests in", out)
    rps = re.search(r"Requests/sec:\s+([\d.]+)", out)
    errors = sum(int(n) for n in WRK_ERRORS.findall(out))
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    errors += int(non2xx.group(1)) if non2xx else 0
    if r.returncode != 0 or not total:
        errors += 1
    return (int(total.group(1)) if total else 0, errors,
            float(rps.group(1)) if rps else 0.0, out)


def settle(srv, want, seconds, rss_max=None):
    """Sample until fds and threads equal want's and RSS is at most rss_max
    (the runtime gives a spike's memory back within a second of going
    idle), or `seconds` pass."""
    deadline = time.time() + seconds
    now = srv.sample()
    while now and time.time() < deadline and (
            now[1:3] != want[1:3] or (rss_max is not None and now[0] > rss_max)):
        time.sleep(0.25)
        now = srv.sample()
    return now


def soak(exe, root, seconds):
    """One build's run: a dict of what happened."""
    srv = Server(exe, root)
    samples = []
    stop_sampling = threading.Event()

    def sampler():
        start = time.time()
        while not stop_sampling.wait(1):
            s = srv.sample()
            if s:
                samples.append((time.time() - start,) + s)
    try:
        time.sleep(0.5)
        cold = settle(srv, (0, -1, -1), 2)  # fds and threads must come back to these
        # Warm-up: a short round of the same attack sizes the pools.
        warm = Attack(srv.port)
        warm.start()
        wrk(srv.port, 3)
        warm.stop()
        time.sleep(TIMEOUT_MS / 1000 + 1)
        baseline = settle(srv, cold, TIMEOUT_MS / 1000 + 5)  # RSS must come back to this
        threading.Thread(target=sampler, daemon=True).start()
        attack = Attack(srv.port)
        attack.start()
        requests, errors, rps, out = wrk(srv.port, seconds)
        attack.stop()
        attack_end = samples[-1][0] if samples else 0
        after = settle(srv, baseline, TIMEOUT_MS / 1000 + 15,
                       baseline[0] + RSS_SLACK if baseline else None)
        time.sleep(2)
        stop_sampling.set()
        alive = srv.proc.poll() is None
    finally:
        srv.stop()
    peak = [max(s[i] for s in samples) if samples else 0 for i in (1, 2, 3)]
    cpu = ((samples[-1][4] - samples[0][4]) / (samples[-1][0] - samples[0][0])
           if len(samples) > 1 else 0)
    ok = (alive and errors == 0 and after is not None and baseline[1:3] == cold[1:3]
          and after[1:3] == cold[1:3] and after[0] <= baseline[0] + RSS_SLACK)
    return {"ok": ok, "alive": alive, "requests": requests, "errors": errors, "rps": rps,
            "wrk": out, "baseline": baseline, "cold": cold, "after": after, "peak": peak, "cpu": cpu,
            "samples": samples, "attack_end": attack_end, "attacks": attack.counts,
            "latencies": sorted(attack.latencies),
            "stderr": srv.proc.stderr.read().decode(errors="replace")[-2000:]}


def percentile(sorted_values, p):
    """The p-th percentile of sorted values (nearest rank), or None."""
    if not sorted_values:
        return None
    return sorted_values[min(len(sorted_values) - 1, int(len(sorted_values) * p / 100))]


def ms(seconds):
    return "-" if seconds is None else "%.1f ms" % (seconds * 1000)


def mib(n):
    return "%.1f MiB" % (n / (1 << 20))


def report(results, seconds, out_dir):
    lines = ["# httpd soak\n",
             "Each build served wrk (`-c%d`, keep-alive, a %d-byte file) for %d s while "
             "hostile clients attacked it; server fd limit %d, `--timeout %d`; %d CPUs. "
             "fds and threads: before any load / peak / after; RSS: after a 3 s warm-up "
             "round of the same attack / peak / after. Generated by "
             "`bench/soak.py` on %s.\n" % (CONNS, 40 * 12, seconds, FD_LIMIT, TIMEOUT_MS,
                                            os.cpu_count(), time.strftime("%Y-%m-%d %H:%M")),
             "| build | verdict | requests | req/s | wrk errors | CPU | RSS base / peak / after "
             "| fds before / peak / after | threads before / peak / after |",
             "|---|---|---|---|---|---|---|---|---|"]
    for name, r in results.items():
        b, c, a, p = r["baseline"], r["cold"], r["after"] or (0, 0, 0, 0), r["peak"]
        lines.append("| %s | %s | %d | %.0f | %d | %.0f%% | %s / %s / %s | %d / %d / %d | "
                     "%d / %d / %d |" % (
                         name, "pass" if r["ok"] else "FAIL" + ("" if r["alive"] else " (died)"),
                         r["requests"], r["rps"], r["errors"], 100 * r["cpu"],
                         mib(b[0]), mib(p[0]), mib(a[0]), c[1], p[1], a[1], c[2], p[2], a[2]))
    lines.append("\nAn ordinary client during the attack: a new connection every %d ms, "
                 "`GET /index.html`, timed from connect to the end of the answer "
                 "(failed: no whole answer within 30 s).\n" % (PROBE_EVERY * 1000))
    lines.append("| build | requests | failed | p50 | p99 | slowest |")
    lines.append("|---|---|---|---|---|---|")
    for name, r in results.items():
        lat = r["latencies"]
        lines.append("| %s | %d | %d | %s | %s | %s |" % (
            name, len(lat), r["attacks"].get("ordinary requests failed", 0),
            ms(percentile(lat, 50)), ms(percentile(lat, 99)), ms(lat[-1] if lat else None)))
    lines.append("\nWhat the attackers did (counts per build):\n")
    kinds = sorted({k for r in results.values() for k in r["attacks"]})
    lines.append("| attack | " + " | ".join(results) + " |")
    lines.append("|---|" + "---|" * len(results))
    for k in kinds:
        lines.append("| %s | %s |" % (k, " | ".join(str(r["attacks"].get(k, 0))
                                                    for r in results.values())))
    made = plot(results, out_dir)
    if made:
        lines.append("\n" + "\n".join("![%s](%s)" % (m, m) for m in made))
    path = os.path.join(out_dir, "REPORT.md")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path, "\n".join(lines)


def plot(results, out_dir):
    plt = suite.pyplot()
    if plt is None:
        return []
    made = []
    for name, r in results.items():
        if not r["samples"]:
            continue
        t = [s[0] for s in r["samples"]]
        fig, axes = plt.subplots(4, 1, figsize=(8, 9), sharex=True)
        series = [("RSS (MiB)", [s[1] / (1 << 20) for s in r["samples"]]),
                  ("open fds", [s[2] for s in r["samples"]]),
                  ("threads", [s[3] for s in r["samples"]]),
                  ("CPU (%)", [0] + [100 * (b[4] - a[4]) / (b[0] - a[0])
                                     for a, b in zip(r["samples"], r["samples"][1:])])]
        for ax, (label, ys) in zip(axes, series):
            ax.plot(t, ys)
            ax.set_ylabel(label)
            ax.axvline(r["attack_end"], color="red", linestyle="--", linewidth=0.8)
        axes[0].set_title("%s: wrk -c%d + attack until the dashed line" % (name, CONNS))
        axes[-1].set_xlabel("seconds")
        fig.tight_layout()
        png = "soak-%s.png" % name
        fig.savefig(os.path.join(out_dir, png), dpi=80)
        plt.close(fig)
        made.append(png)
    return made


def main(argv):
    global RSS_SLACK
    if argv[:1] == ["--probe"]:
        return probe(int(argv[1]))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("build")
    ap.add_argument("--seconds", type=int, default=60)
    ap.add_argument("--backends", default=",".join(BACKENDS))
    ap.add_argument("--out", default=None)
    ap.add_argument("--rss-slack-mib", type=int, default=RSS_SLACK >> 20,
                    help="MiB RSS may stay above the baseline (default %(default)s)")
    args = ap.parse_args(argv)
    if not any(os.access(os.path.join(d, "wrk"), os.X_OK)
               for d in os.environ.get("PATH", "").split(os.pathsep)):
        progress("wrk is not installed (apt-get install wrk)")
        return 2
    suite.raise_fd_limit()
    out_dir = args.out or os.path.join(args.build, "soak")
    os.makedirs(out_dir, exist_ok=True)
    root = docroot()
    try:
        RSS_SLACK = args.rss_slack_mib << 20
        results = {}
        for backend in args.backends.split(","):
            name = "httpd-" + backend
            progress("%s: %d s under wrk -c%d and attack ..." % (name, args.seconds, CONNS))
            results[name] = soak(os.path.join(args.build, name), root, args.seconds)
            r = results[name]
            progress("%s: %s, %d requests, %d errors; an ordinary client's p99 %s" % (
                name, "pass" if r["ok"] else "FAIL", r["requests"], r["errors"],
                ms(percentile(r["latencies"], 99))))
            if not r["ok"]:
                progress(r["wrk"] + r["stderr"])
    finally:
        shutil.rmtree(root, ignore_errors=True)
    path, text = report(results, args.seconds, out_dir)
    print(text)
    progress("wrote %s" % path)
    return 0 if all(r["ok"] for r in results.values()) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

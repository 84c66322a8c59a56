"""valgrind.py -- `make valgrind`: programs under valgrind memcheck, where
the bar is zero errors and zero leaks (definite or indirect).

Run: every tests/programs/*.c built for rip and ucontext (a sample, the
first of every SAMPLE, for threads), each to its end; and the example
servers on every backend, driven over loopback and then stopped with
SIGTERM (valgrind checks for leaks then too): httpd with keep-alive and
pipelined requests, HEAD, a file streamed in pieces, 404, 400, 405, an
HTTP/1.0 close and clients that leave early; echo with a few clients.
Prints one line per failure and a summary; exit 0 when clean.

    python tests/valgrind.py [--jobs 2] [--keep DIR]
"""
import argparse
import concurrent.futures
import glob
import os
import re
import select
import shutil
import signal
import socket
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
# tests/ (for test_httpd...) after the repository root: tests/ripper/, the
# pass tests, must not stand for the ripper package
sys.path[:0] = [os.path.dirname(HERE), HERE]
from test_httpd import BIG, Reader  # noqa: E402
from test_programs import PROGRAMS, expectations, known_bug  # noqa: E402

ROOT = os.path.dirname(HERE)
RIPCC = os.path.join(os.path.dirname(sys.executable), "ripcc")
CFLAGS = ["-std=gnu11", "-O2", "-g", "-Wall", "-Wextra"]
SAMPLE = 4                          # threads: one program in SAMPLE
MEMCHECK = ["valgrind", "--tool=memcheck", "--error-exitcode=99", "--leak-check=full",
            "--errors-for-leak-kinds=definite,indirect", "--show-leak-kinds=definite,indirect",
            "--track-origins=yes", "--suppressions=" + os.path.join(HERE, "valgrind.supp")]
NOT_RUN = {     # (program, backend): why not under valgrind
    ("hundred_thousand_tasks", "ucontext"):
        "100,000 stack mappings overflow valgrind's table of segments (VG_N_SEGMENTS)",
    **{(p, b): "valgrind keeps its own fds under the limit, so setrlimit does not run the program out"
       for p in ("accept_out_of_fds_then_recovers", "fd_wait_with_every_fd_in_use",
                 "offload_with_every_fd_in_use")
       for b in ("rip", "ucontext", "threads")},
}


class Result:
    """What memcheck said about one program (every process it forked too)."""
    def __init__(self, name):
        self.name, self.errors, self.leaked, self.problems = name, 0, 0, []

    def read_logs(self, prefix):
        logs = sorted(glob.glob(prefix + ".*"))
        if not logs:
            self.problems.append("no valgrind log")
        for log in logs:
            with open(log, errors="replace") as f:
                text = f.read()
            m = re.search(r"ERROR SUMMARY: ([\d,]+) errors", text)
            if not m:
                self.problems.append("no ERROR SUMMARY in %s" % log)
                continue
            errors = int(m.group(1).replace(",", ""))
            leaked = 0
            for kind in ("definitely", "indirectly"):
                m = re.search(r"%s lost: ([\d,]+) bytes" % kind, text)
                leaked += int(m.group(1).replace(",", "")) if m else 0
            if errors or leaked:            # this log's own findings, not the ones before it
                self.problems.append("see %s" % log)
            self.errors += errors
            self.leaked += leaked

    def ok(self):
        return not (self.errors or self.leaked or self.problems)


def build(source, backend, outdir):
    exe = os.path.join(outdir, "%s-%s" % (os.path.splitext(os.path.basename(source))[0], backend))
    r = subprocess.run([RIPCC, "--backend=" + backend] + CFLAGS + [source, "-o", exe],
                       capture_output=True, text=True)
    if r.returncode:
        raise SystemExit("valgrind.py: cannot build %s for %s:\n%s" % (source, backend, r.stderr))
    return exe


def run_program(source, backend, workdir):
    """Build and run one test program to its end under memcheck."""
    res = Result("%s (%s)" % (os.path.basename(source)[:-2], backend))
    exe = build(source, backend, workdir)
    prefix = exe + ".vg"
    try:
        r = subprocess.run(MEMCHECK + ["--log-file=%s.%%p" % prefix, exe],
                           capture_output=True, timeout=600)
    except subprocess.TimeoutExpired:
        res.problems.append("ran over 600 s")
        return res
    status = expectations(source)[0]
    if r.returncode not in (status, 99):
        res.problems.append("exit status %d, want %d" % (r.returncode, status))
    res.read_logs(prefix)
    return res


class Server:
    """A server under memcheck, told to listen on a free loopback port."""
    def __init__(self, exe, args, prefix):
        self.proc = subprocess.Popen(MEMCHECK + ["--log-file=%s.%%p" % prefix, exe, "--port", "0",
                                                 "--addr", "127.0.0.1"] + args,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        if not select.select([self.proc.stdout], [], [], 120)[0]:
            self.proc.kill()
            raise RuntimeError("no 'listening on' line in 120 s")
        m = re.match(rb"listening on (\d+)", self.proc.stdout.readline())
        if not m:
            self.proc.kill()
            raise RuntimeError("did not start")
        self.port = int(m.group(1))

    def connect(self):
        s = socket.create_connection(("127.0.0.1", self.port), timeout=60)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return s

    def stop(self):
        """SIGTERM: memcheck writes its summary and leak check as it ends."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=120)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise RuntimeError("did not stop on SIGTERM")


def expect(got, want, what):
    if got not in (want if isinstance(want, set) else {want}):
        raise RuntimeError("%s: got %r, want %r" % (what, got, want))


def drive_httpd(srv):
    with srv.connect() as s:                    # an error first, in a fresh request buffer
        s.sendall(b"GET / HTTP/1.1\r\nHost: a b\r\n\r\n")
        expect(Reader(s).response()[0], 400, "an invalid Host first")
    with srv.connect() as s:                    # keep-alive, then pipelined
        r = Reader(s)
        s.sendall(b"GET /index.html HTTP/1.1\r\nHost: t\r\n\r\n")
        expect(r.response()[0], 200, "GET")
        s.sendall(b"GET /big.bin HTTP/1.1\r\nHost: t\r\n\r\n"
                  b"HEAD /index.html HTTP/1.1\r\nHost: t\r\n\r\n"
                  b"GET /missing HTTP/1.1\r\nHost: t\r\n\r\n")
        status, _, body = r.response()
        expect((status, body == BIG), (200, True), "GET of a big file")
        expect(r.response(head_only=True)[:1], (200,), "HEAD")
        expect(r.response()[0], 404, "GET of a missing file")
    for raw, status in ((b"garbage\r\n\r\n", 400),
                        (b"POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n", 405),
                        (b"GET /../secret.txt HTTP/1.1\r\nHost: t\r\n\r\n", {400, 403, 404}),
                        (b"GET /index.html HTTP/1.0\r\n\r\n", 200)):
        with srv.connect() as s:
            s.sendall(raw)
            expect(Reader(s).response()[0], status, raw.split(b"\r\n")[0].decode())
    with srv.connect() as s:                    # leaves in the middle of a head
        s.sendall(b"GET /index.html HTTP/1.1\r\nHo")
    with srv.connect() as s:                    # leaves in the middle of a body
        s.sendall(b"GET /big.bin HTTP/1.1\r\nHost: t\r\n\r\n")
        s.recv(1000)
    srv.connect().close()                       # leaves at once
    with srv.connect() as s:                    # the server is still fine
        s.sendall(b"GET / HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        expect(Reader(s).response()[0], 200, "GET / after the early leavers")


def drive_echo(srv):
    clients = [srv.connect() for _ in range(3)]
    for i, s in enumerate(clients):
        data = bytes([i]) * 20000
        s.sendall(data)
        got = b""
        while len(got) < len(data):
            chunk = s.recv(65536)
            if not chunk:
                break
            got += chunk
        expect(got == data, True, "echo of 20000 bytes")
    for s in clients:
        s.close()


def run_server(name, backend, args, drive, workdir):
    res = Result("%s %s(%s)" % (name, "".join(a + " " for a in args[-2:] if args), backend))
    exe = build(os.path.join(ROOT, "examples", name + ".c"), backend, workdir)
    prefix = os.path.join(workdir, "%s-%s-%d.vg" % (name, backend, len(args)))
    try:
        srv = Server(exe, args, prefix)
        try:
            drive(srv)
        finally:
            srv.stop()
    except (RuntimeError, OSError) as e:
        res.problems.append(str(e))
    res.read_logs(prefix)
    return res


def docroot(workdir):
    root = os.path.join(workdir, "www")
    os.makedirs(root)
    with open(os.path.join(root, "index.html"), "w") as f:
        f.write("<h1>home</h1>\n")
    with open(os.path.join(root, "big.bin"), "wb") as f:
        f.write(BIG)
    with open(os.path.join(workdir, "secret.txt"), "w") as f:
        f.write("secret\n")
    return root


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--keep", metavar="DIR", help="build and log here, and keep it")
    args = ap.parse_args()
    if not shutil.which("valgrind"):
        raise SystemExit("valgrind.py: valgrind is not installed (make valgrind installs it)")
    os.environ.pop("RIP_SAN", None)            # valgrind and ASan do not mix
    workdir = args.keep or tempfile.mkdtemp(prefix="rip-valgrind-")
    os.makedirs(workdir, exist_ok=True)
    root = docroot(workdir)
    jobs = []
    for i, source in enumerate(PROGRAMS):
        for backend in expectations(source)[2]:
            why = NOT_RUN.get((os.path.basename(source)[:-2], backend))
            if backend == "rip" and known_bug(source):
                why = "ripper gets it wrong today (its `known bug:` line)"
            if why:
                print("not run: %s (%s): %s" % (os.path.basename(source)[:-2], backend, why))
            elif backend != "threads" or i % SAMPLE == 0:
                jobs.append((run_program, source, backend, workdir))
    for backend in ("rip", "ucontext", "threads"):
        jobs.append((run_server, "httpd", backend, ["--root", root], drive_httpd, workdir))
        jobs.append((run_server, "echo", backend, [], drive_echo, workdir))
    jobs.append((run_server, "httpd", "rip", ["--root", root, "--workers", "2"], drive_httpd,
                 workdir))
    results = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for res in pool.map(lambda job: job[0](*job[1:]), jobs):
            results.append(res)
            if not res.ok():
                print("FAIL %s: %d errors, %d bytes leaked; %s" % (
                    res.name, res.errors, res.leaked, "; ".join(res.problems)), flush=True)
    if not args.keep:
        shutil.rmtree(workdir)
    count = {b: sum(1 for r in results if r.name.endswith("(%s)" % b))
             for b in ("rip", "ucontext", "threads")}
    bad = [r for r in results if not r.ok()]
    servers = sum(1 for job in jobs if job[0] is run_server)
    print("valgrind memcheck: %d programs run (%s; %d of them servers): %d errors, "
          "%d bytes leaked (definite and indirect), %d failed"
          % (len(results), ", ".join("%d %s" % (n, b) for b, n in count.items()), servers,
             sum(r.errors for r in results), sum(r.leaked for r in results), len(bad)))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

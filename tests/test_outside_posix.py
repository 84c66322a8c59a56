"""Programs from outside the project, built UNCHANGED with `ripcc --posix`
on each backend and with plain `cc`, then driven by the same load: every
response (status, body bytes) must equal the plain build's.

- tinyproxy 1.11.1 (HTTP proxy, a thread per connection, autoconf):
  `CC="ripcc --posix --backend=B" ./configure --disable-manpage_support && make`
- mini_httpd 1.30 (HTTP server, a fork per connection, plain Makefile):
  `make CC="ripcc --posix --backend=B" CDEFS=-DHAVE_INT64T mini_httpd`
  (the define is needed by the plain build too: today's glibc has int64_t)

The tarballs are Debian's, downloaded once (pinned URL and sha256) into
$XDG_CACHE_HOME/ripper (~/.cache/ripper); without a network the tests skip.
`make test-outside` runs this file; `make test` leaves it out (slow)."""
import concurrent.futures
import functools
import http.server
import os
import re
import signal
import socket
import subprocess
import threading
import time

import pytest

from conftest import BACKENDS, RIPCC, SAN
import downloads
from downloads import unpack

pytestmark = pytest.mark.skipif(SAN, reason="outside programs: built once, without sanitizers")

# name -> (pinned URL, its sha256, the folder the tarball unpacks to)
TARBALLS = {
    "tinyproxy": (
        "https://deb.debian.org/debian/pool/main/t/tinyproxy/tinyproxy_1.11.1.orig.tar.xz",
        "d66388448215d0aeb90d0afdd58ed00386fb81abc23ebac9d80e194fceb40f7c",
        "tinyproxy-1.11.1"),
    "mini_httpd": (
        "https://deb.debian.org/debian/pool/main/m/mini-httpd/mini-httpd_1.30.orig.tar.gz",
        "9c4481802af8dde2e164062185c279e9274525c3af93d014fdc0b80cf30bca6e",
        "mini_httpd-1.30"),
}
PROGRAMS = ("mini_httpd", "tinyproxy")
BUILDS = ("plain",) + BACKENDS
REQUESTS, CONNECTIONS = 200, 50       # the load: 200 requests, 50 at a time
BIG = 1000 * 1000                     # bytes of the largest file served


def download(name):
    """download("tinyproxy") -> path of its verified tarball (downloads.download)."""
    url, sha, _ = TARBALLS[name]
    return downloads.download(name, url, sha)


def build_one(name, build, tarball, into):
    """Unpack `tarball` into `into` and build it with `build`'s compiler:
    -> (path of the program, None) or (None, the build's log)."""
    src = os.path.join(into, TARBALLS[name][2])
    unpack(tarball, into)
    cc = "cc" if build == "plain" else "%s --posix --backend=%s" % (RIPCC, build)
    if name == "tinyproxy":
        steps = [(["./configure", "--disable-manpage_support"], dict(os.environ, CC=cc)),
                 (["make"], None)]
        exe = os.path.join(src, "src", "tinyproxy")
    else:
        steps = [(["make", "CC=" + cc, "CDEFS=-DHAVE_INT64T", "mini_httpd"], None)]
        exe = os.path.join(src, "mini_httpd")
    log = ""
    for cmd, env in steps:
        r = subprocess.run(cmd, cwd=src, env=env, capture_output=True, timeout=1800)
        log += "$ %s\n%s%s" % (" ".join(cmd), r.stdout.decode()[-3000:], r.stderr.decode()[-3000:])
        if r.returncode != 0:
            return None, log
    return exe, None


@pytest.fixture(scope="module")
def builds(request, tmp_path_factory):
    """builds(name, build) -> path of the program; every build the selected
    tests need starts at once on two workers (configure is slow), each is
    awaited when asked for."""
    tarballs = {name: download(name) for name in PROGRAMS}
    root = tmp_path_factory.mktemp("outside")
    needed = set()
    for item in request.session.items:
        params = getattr(getattr(item, "callspec", None), "params", {})
        if item.module is request.module and "name" in params:
            needed.add((params["name"], params.get("build", "rip")))
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    futures = {}
    for build in BUILDS:              # tinyproxy first: its configure is the long pole
        for name in ("tinyproxy", "mini_httpd"):
            if (name, build) in needed:
                into = str(root / ("%s-%s" % (name, build)))
                futures[name, build] = pool.submit(build_one, name, build, tarballs[name], into)

    def get(name, build):
        exe, log = futures[name, build].result()
        if exe is None:
            pytest.fail("%s does not build with %s:\n%s" % (name, build, log))
        return exe
    yield get
    pool.shutdown(wait=True, cancel_futures=True)


@pytest.fixture(scope="module")
def docroot(tmp_path_factory):
    """The files served: small, medium, ~1 MB (binary), and a CGI script."""
    root = tmp_path_factory.mktemp("docroot")
    files = {"index.html": b"<html><body>hello</body></html>\n",
             "small.txt": b"small\n",
             "medium.txt": b"".join(b"line %05d of the medium file\n" % i for i in range(2000)),
             "big.bin": bytes((i * 7919 + (i >> 8)) & 0xFF for i in range(BIG))}
    for name, data in files.items():
        (root / name).write_bytes(data)
    (root / "cgi-bin").mkdir()
    script = root / "cgi-bin" / "echo.sh"
    script.write_text('#!/bin/sh\nprintf "Content-Type: text/plain\\r\\n\\r\\n"\n'
                      'echo "cgi says $QUERY_STRING"\n')
    script.chmod(0o755)
    root.chmod(0o755)
    return root, files


class Origin(http.server.ThreadingHTTPServer):
    """The origin server tinyproxy relays to (a thread per request)."""
    request_queue_size = 256        # 50 connections at once, not the default 5
    daemon_threads = True


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):   # keep the test's output clean
        pass


@pytest.fixture(scope="module")
def origin(docroot):
    """-> the port of an HTTP server serving the docroot."""
    server = Origin(("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(docroot[0])))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def free_port():
    """A port nothing listens on right now (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One run of a program under `timeout`, in its own process group:
    Server(cmd, workdir) starts it and waits until `port` accepts."""

    def __init__(self, cmd, port, workdir):
        self.port = port
        self.err_path = os.path.join(workdir, "stderr")
        self.err = open(self.err_path, "wb")
        self.proc = subprocess.Popen(["timeout", "-s", "KILL", "600"] + cmd, cwd=workdir,
                                     stdin=subprocess.DEVNULL, stdout=self.err,
                                     stderr=self.err, start_new_session=True)
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    pytest.fail("%s did not start: %s" % (cmd[0], self.stderr()))
                time.sleep(0.05)

    def stderr(self):
        with open(self.err_path, "rb") as f:
            return f.read().decode(errors="replace")

    def program_pid(self):
        """The program's pid (`timeout`'s child), or timeout's own if gone."""
        try:
            with open("/proc/%d/task/%d/children" % (self.proc.pid, self.proc.pid)) as f:
                return int(f.read().split()[0])
        except (OSError, IndexError, ValueError):
            return self.proc.pid

    def stop(self):
        """SIGTERM to the program alone (its forked children, which would
        each say they exit, are left to the group's SIGKILL after) -> its
        exit status; None if it had to be killed."""
        status = self.proc.poll()
        if status is None:
            os.kill(self.program_pid(), signal.SIGTERM)
            try:
                status = self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
                status = None
        try:        # forked children left behind (none expected) go too
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.err.close()
        return status


def exchange(port, request, timeout=30):
    """Send `request`, read until the server closes: -> (status, body).
    exchange(8080, b"GET / HTTP/1.0\\r\\n\\r\\n") -> (200, b"...")"""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as s:
        s.sendall(request)
        data = b""
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    head, sep, body = data.partition(b"\r\n\r\n")
    m = re.match(rb"HTTP/1\.[01] (\d{3}) ", head)
    assert m and sep, "not an HTTP response: %r" % data[:200]
    return int(m.group(1)), body


def requests_for(name, origin_port, refused_port):
    """The request mix: [(label, raw request)], each sent REQUESTS/len times."""
    def get(target, extra=b""):
        return (b"GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: ripper-test\r\n%s"
                b"Connection: close\r\n\r\n" % (target, extra))
    if name == "mini_httpd":
        base = b""
        mix = [("index", get(b"/index.html")), ("small", get(b"/small.txt")),
               ("medium", get(b"/medium.txt")), ("big", get(b"/big.bin")),
               ("404", get(b"/no-such-file")), ("cgi", get(b"/cgi-bin/echo.sh?x=1")),
               ("http/1.0", b"GET /small.txt HTTP/1.0\r\n\r\n")]
    else:
        base = b"http://127.0.0.1:%d" % origin_port
        mix = [("index", get(base + b"/index.html")), ("small", get(base + b"/small.txt")),
               ("medium", get(base + b"/medium.txt")), ("big", get(base + b"/big.bin")),
               ("404", get(base + b"/no-such-file")),
               ("refused", get(b"http://127.0.0.1:%d/" % refused_port)),
               ("http/1.0", b"GET %s/small.txt HTTP/1.0\r\n\r\n" % base)]
    return mix


def load(port, mix):
    """REQUESTS requests from `mix` over CONNECTIONS concurrent clients:
    -> {label: set of (status, body)} and the seconds it took."""
    jobs = [mix[i % len(mix)] for i in range(REQUESTS)]
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=CONNECTIONS) as pool:
        answers = list(pool.map(lambda job: (job[0], exchange(port, job[1])), jobs))
    seconds = time.monotonic() - start
    seen = {}
    for label, answer in answers:
        seen.setdefault(label, set()).add(answer)
    return seen, seconds


def start(name, exe, workdir, docroot, port):
    """Start `exe` (program `name`) on `port` -> Server."""
    os.makedirs(workdir, exist_ok=True)
    log = os.path.join(workdir, "log")
    if name == "mini_httpd":
        cmd = [exe, "-D", "-p", str(port), "-d", str(docroot), "-l", log, "-c", "cgi-bin/*"]
    else:
        conf = os.path.join(workdir, "tinyproxy.conf")
        with open(conf, "w") as f:
            f.write("Port %d\nListen 127.0.0.1\nTimeout 30\nAllow 127.0.0.1\n"
                    "LogFile \"%s\"\nLogLevel Info\nMaxClients 100\n" % (port, log))
        cmd = [exe, "-d", "-c", conf]
    return Server(cmd, port, workdir)


def normalized(text, exe):
    """stderr or a log with the program's path, dates and numbers taken
    out, as sorted lines: "NOTICE    Nov 27 05:24:11.475 [10623]: Connect
    (file descriptor 8)" -> "NOTICE Connect (file descriptor N)"."""
    lines = []
    for line in text.replace(exe, "PROG").splitlines():
        line = re.sub(r"^([A-Z]+) +\w+ +\d+ [\d:.]+ \[\d+\]:", r"\1", line)  # tinyproxy's
        line = re.sub(r"\[\d+/\w+/\d+:[\d:]+ [+-]\d+\]", "[DATE]", line)      # mini_httpd's
        lines.append(re.sub(r"\d+", "N", line))
    return sorted(lines)


@pytest.fixture(scope="module")
def plain_runs():
    """{name: (answers, stderr lines, log lines, exit status)} of each plain build,
    filled by the plain test and compared with by the backends'."""
    return {}


@pytest.mark.parametrize("build", BUILDS)
@pytest.mark.parametrize("name", PROGRAMS)
def test_outside_program_under_load_answers_as_its_plain_build(
        builds, docroot, origin, plain_runs, tmp_path, name, build):
    exe = builds(name, build)
    root, files = docroot
    refused = free_port()
    port = free_port()
    server = start(name, exe, str(tmp_path), root, port)
    try:
        answers, seconds = load(port, requests_for(name, origin, refused))
        alive = server.proc.poll() is None
    finally:
        status = server.stop()
    err = server.stderr()
    print("%s %s: %d requests over %d connections in %.2f s" % (
        name, build, REQUESTS, CONNECTIONS, seconds))
    assert alive, "%s-%s died under load: %s" % (name, build, err)
    assert status is not None, "%s-%s did not stop on SIGTERM" % (name, build)
    # the right answers, whatever the build
    for label, data in (("index", "index.html"), ("small", "small.txt"),
                        ("medium", "medium.txt"), ("big", "big.bin"), ("http/1.0", "small.txt")):
        assert answers[label] == {(200, files[data])}, (label, sorted(answers[label])[:3])
    assert {s for s, _ in answers["404"]} == {404}
    if name == "mini_httpd":
        assert answers["cgi"] == {(200, b"cgi says x=1\n")}
    else:
        assert {s for s, _ in answers["refused"]} == {500}, answers["refused"]
    lines = normalized(err, exe)
    with open(os.path.join(str(tmp_path), "log")) as f:
        log = normalized(f.read(), exe)     # the program's own log, line for line
    if build == "plain":
        plain_runs[name] = (answers, lines, log, status)
        return
    if name not in plain_runs:
        pytest.skip("the plain build's run did not happen (run the whole file)")
    plain_answers, plain_lines, plain_log, plain_status = plain_runs[name]
    assert answers == plain_answers
    assert lines == plain_lines, "stderr differs from the plain build's:\n%s" % err
    assert log == plain_log, "its log differs from the plain build's: %s" % (
        sorted(set(log) ^ set(plain_log)) or "as many lines, other counts")
    assert status == plain_status


def test_plain_mini_httpd_needs_the_int64_define(tmp_path):
    """Why the build passes CDEFS=-DHAVE_INT64T to plain cc too: without
    it mini_httpd.c redefines int64_t, which today's glibc already has."""
    tarball = download("mini_httpd")
    unpack(tarball, str(tmp_path))
    src = tmp_path / TARBALLS["mini_httpd"][2]
    r = subprocess.run(["make", "CC=cc", "mini_httpd"], cwd=str(src), capture_output=True,
                       timeout=300)
    assert r.returncode != 0 and b"int64_t" in r.stderr, r.stderr[-2000:]


SLOW_GAP = 0.05                       # seconds between the slow client's bytes


@pytest.mark.parametrize("name", PROGRAMS)
def test_slow_client_does_not_stall_the_others_on_rip(builds, docroot, origin, tmp_path, name):
    """A client that sends its request a byte at a time (for ~3 s) while
    others come and go: theirs finish meanwhile, each quickly, and the
    slow one's answer is still right -- the point of ripping."""
    exe = builds(name, "rip")
    root, files = docroot
    port = free_port()
    server = start(name, exe, str(tmp_path), root, port)
    try:
        mix = dict(requests_for(name, origin, free_port()))
        slow = socket.create_connection(("127.0.0.1", port), timeout=30)
        slow_request = mix["medium"]
        slow.sendall(slow_request[:1])
        time.sleep(0.3)               # the server now reads the slow request
        quick = []
        sent = 1
        while sent < len(slow_request) - 1:
            slow.sendall(slow_request[sent:sent + 1])
            sent += 1
            time.sleep(SLOW_GAP)
            if sent % 4 == 0:         # a quick client every 4 slow bytes
                t = time.monotonic()
                answer = exchange(port, mix["small"], timeout=10)
                quick.append(time.monotonic() - t)
                assert answer == (200, files["small.txt"])
        slow.sendall(slow_request[sent:])
        data = b""
        while True:
            chunk = slow.recv(65536)
            if not chunk:
                break
            data += chunk
        slow.close()
        alive = server.proc.poll() is None
    finally:
        server.stop()
    assert alive, server.stderr()
    assert data.partition(b"\r\n\r\n")[2] == files["medium.txt"], data[:300]
    assert len(quick) >= 10
    assert max(quick) < 1.0, "a quick client waited %.2f s behind the slow one" % max(quick)

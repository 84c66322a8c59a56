"""examples/httpd.c on every backend, over real sockets on loopback: one
behaviour per test, each against a fresh server with a small document root."""
import os
import re
import socket
import subprocess
import time

import pytest

from conftest import BACKENDS, ROOT

HTTPD = os.path.join(ROOT, "examples", "httpd.c")
BIG = bytes(range(256)) * 2000     # 512,000 bytes: several chunks


@pytest.fixture(scope="module")
def docroot(tmp_path_factory):
    root = tmp_path_factory.mktemp("www")
    (root / "index.html").write_text("<h1>home</h1>\n")
    (root / "style.css").write_text("h1 {}\n")
    (root / "a b.txt").write_text("spaced\n")
    (root / "big.bin").write_bytes(BIG)
    (root / "sub").mkdir()
    (root / "sub" / "index.html").write_text("sub home\n")
    (root / "sub" / "x.json").write_text("{}\n")
    (root / "inside-link.txt").symlink_to("sub/x.json")
    secret = tmp_path_factory.mktemp("outside") / "secret.txt"
    secret.write_text("secret\n")
    (root / "outside-link.txt").symlink_to(secret)
    (root / "outside-dir").symlink_to(secret.parent)
    os.mkfifo(root / "fifo")
    return root


class Server:
    def __init__(self, exe, root, *args, preexec_fn=None):
        self.proc = subprocess.Popen([exe, "--root", str(root), "--port", "0",
                                      "--addr", "127.0.0.1"] + list(args),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     preexec_fn=preexec_fn)
        line = self.proc.stdout.readline().decode()
        m = re.match(r"listening on (\d+) \(at most (\d+) connections\)", line)
        assert m, "no port: %r %r" % (line, self.proc.stderr.read())
        self.port, self.max_conns = int(m.group(1)), int(m.group(2))

    def connect(self, timeout=10):
        s = socket.create_connection(("127.0.0.1", self.port), timeout=timeout)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return s

    def stop(self):
        alive = self.proc.poll() is None
        self.proc.kill()
        self.proc.wait()
        return alive


@pytest.fixture(params=BACKENDS)
def server(request, ripcc, docroot):
    exe = ripcc(HTTPD, request.param)
    servers = []

    def start(*args):
        s = Server(exe, docroot, *args)
        servers.append(s)
        return s
    start.backend = request.param
    yield start
    for s in servers:
        if s.proc.returncode is None:
            assert s.stop(), "the server died: %s" % s.proc.stderr.read().decode()


class Reader:
    """Responses from one connection, in order (pipelining keeps bytes of
    the next response after the current one)."""
    def __init__(self, sock):
        self.sock, self.buf = sock, b""

    def _more(self):
        chunk = self.sock.recv(65536)
        self.buf += chunk
        return chunk

    def response(self, head_only=False):
        """(status, headers, body), or None at EOF before any byte."""
        while b"\r\n\r\n" not in self.buf:
            if not self._more():
                return None if not self.buf else (0, {}, self.buf)
        head, _, self.buf = self.buf.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        headers = {k.lower(): v.strip() for k, _, v in (l.partition(":") for l in lines[1:])}
        length = 0 if head_only else int(headers.get("content-length", 0))
        while len(self.buf) < length:
            assert self._more(), "connection closed mid-body"
        body, self.buf = self.buf[:length], self.buf[length:]
        return status, headers, body


def recv_response(sock, head_only=False):
    return Reader(sock).response(head_only)


def request(srv, raw, head_only=False):
    with srv.connect() as s:
        s.sendall(raw)
        return recv_response(s, head_only)


def get(srv, path, version="1.1"):
    return request(srv, b"GET %s HTTP/%s\r\nHost: t\r\nConnection: close\r\n\r\n"
                   % (path.encode(), version.encode()))


def closed_by_server(sock):
    sock.settimeout(10)
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


def test_get_serves_file_with_length_and_type(server):
    srv = server()
    status, headers, body = get(srv, "/index.html")
    assert (status, body) == (200, b"<h1>home</h1>\n")
    assert headers["content-length"] == "14"
    assert headers["content-type"].startswith("text/html")
    assert get(srv, "/style.css")[1]["content-type"] == "text/css"
    assert get(srv, "/sub/x.json")[1]["content-type"] == "application/json"


def test_directory_serves_its_index(server):
    srv = server()
    assert get(srv, "/")[2] == b"<h1>home</h1>\n"
    assert get(srv, "/sub/")[2] == b"sub home\n"


def test_head_has_headers_and_no_body(server):
    srv = server()
    with srv.connect() as s:
        s.sendall(b"HEAD /index.html HTTP/1.1\r\nHost: t\r\n\r\nGET /style.css HTTP/1.1\r\nHost: t\r\n\r\n")
        r = Reader(s)
        status, headers, body = r.response(head_only=True)
        assert (status, headers["content-length"], body) == (200, "14", b"")
        assert r.response()[2] == b"h1 {}\n"   # the next response follows at once: no body was sent


def test_percent_decoded_paths(server):
    srv = server()
    assert get(srv, "/a%20b.txt")[2] == b"spaced\n"
    assert get(srv, "/%73ub/x.json")[2] == b"{}\n"
    assert get(srv, "/a%2")[0] == 400
    assert get(srv, "/a%00b")[0] == 400


def test_missing_file_is_404_and_keeps_connection(server):
    srv = server()
    with srv.connect() as s:
        s.sendall(b"GET /nope HTTP/1.1\r\nHost: t\r\n\r\n")
        assert recv_response(s)[0] == 404
        s.sendall(b"GET /index.html HTTP/1.1\r\nHost: t\r\n\r\n")
        assert recv_response(s)[0] == 200


@pytest.mark.parametrize("path", [
    "/../secret.txt", "/sub/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt",
    "/sub/..%2f..%2fsecret.txt", "/..%5csecret.txt", "/outside-link.txt",
    "/outside-dir/secret.txt", "/./../secret.txt", "//../secret.txt",
])
def test_nothing_outside_root(server, path):
    status, _, body = get(server(), path)
    assert status in (400, 403, 404) and b"secret" not in body


def test_symlink_inside_root_is_served(server):
    assert get(server(), "/inside-link.txt")[2] == b"{}\n"


@pytest.mark.parametrize("raw,status", [
    (b"garbage\r\n\r\n", 400),
    (b"GET /\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\n\r\n", 400),                       # no Host
    (b"GET / HTTP/1.1\r\nHost t\r\n\r\n", 400),             # no colon
    (b"GET / HTTP/1.1\r\nBad Name: x\r\nHost: t\r\n\r\n", 400),
    (b"G(T / HTTP/1.1\r\nHost: t\r\n\r\n", 400),
    (b"GET / HTTP/2.0\r\nHost: t\r\n\r\n", 505),
    (b"GET / HTTP/0.9\r\nHost: t\r\n\r\n", 505),
    (b"POST / HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n", 405),
    (b"BREW / HTTP/1.1\r\nHost: t\r\n\r\n", 501),
    (b"GET / HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n", 501),
    (b"GET / HTTP/1.1\r\nHost: t\r\nContent-Length: -5\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\nHost: t\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nxx", 400),
])
def test_bad_requests_get_their_status(server, raw, status):
    assert request(server(), raw)[0] == status


def test_blank_lines_before_a_request_are_ignored(server):
    srv = server()
    for lead in (b"\r\n\r\n", b"\n\n", b"\r\n"):
        assert request(srv, lead + b"GET /style.css HTTP/1.1\r\nHost: t\r\n\r\n")[2] == b"h1 {}\n"
    with srv.connect() as s:                     # split across reads
        s.sendall(b"\n")
        time.sleep(0.05)
        s.sendall(b"\nGET /style.css HTTP/1.1\r\nHost: t\r\n\r\n")
        assert recv_response(s)[2] == b"h1 {}\n"


@pytest.mark.parametrize("split", range(1, 40, 3))
def test_head_split_at_any_point(server, split):
    raw = b"GET /style.css HTTP/1.1\r\nHost: t\r\n\r\n"
    with server().connect() as s:
        s.sendall(raw[:split])
        time.sleep(0.02)
        s.sendall(raw[split:])
        assert recv_response(s)[2] == b"h1 {}\n"


def test_414_after_a_keep_alive_request_closes(server):
    """A request line that does not end within the head limit, after a
    keep-alive request: 414 (RFC 9112 3), and the connection closes."""
    srv = server()
    with srv.connect() as s:
        s.sendall(b"GET /big.bin HTTP/1.1\r\nHost: t\r\n\r\n")
        r = Reader(s)
        assert r.response()[0] == 200
        try:
            s.sendall(b"A" * 9000)
        except (ConnectionResetError, BrokenPipeError):
            pass
        status, headers, _ = r.response()
        assert status == 414 and headers.get("connection") == "close"
        assert closed_by_server(s)
    assert get(srv, "/index.html")[0] == 200


def test_fifo_in_root_blocks_nobody(server):
    srv = server()
    assert get(srv, "/fifo")[0] == 403
    assert get(srv, "/index.html")[0] == 200


def test_oversized_head_is_431(server):
    srv = server()
    raw = b"GET / HTTP/1.1\r\nHost: t\r\n" + b"X-Pad: " + b"a" * 9000 + b"\r\n\r\n"
    with srv.connect() as s:
        try:
            s.sendall(raw)
        except (ConnectionResetError, BrokenPipeError):
            pass
        assert recv_response(s)[0] == 431
    many = b"GET / HTTP/1.1\r\nHost: t\r\n" + b"".join(b"X-%d: 1\r\n" % i for i in range(100)) + b"\r\n"
    assert request(srv, many)[0] == 431


def test_http10_closes_unless_keep_alive(server):
    srv = server()
    with srv.connect() as s:
        s.sendall(b"GET /index.html HTTP/1.0\r\n\r\n")
        status, headers, _ = recv_response(s)
        assert status == 200 and headers.get("connection") == "close"
        assert closed_by_server(s)
    with srv.connect() as s:
        s.sendall(b"GET /index.html HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n")
        assert recv_response(s)[1].get("connection") == "keep-alive"
        s.sendall(b"GET /style.css HTTP/1.0\r\n\r\n")
        assert recv_response(s)[2] == b"h1 {}\n"


def test_http11_keep_alive_and_connection_close(server):
    srv = server()
    with srv.connect() as s:
        for _ in range(3):
            s.sendall(b"GET /index.html HTTP/1.1\r\nHost: t\r\n\r\n")
            assert recv_response(s)[0] == 200
        s.sendall(b"GET /index.html HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        assert recv_response(s)[1]["connection"] == "close"
        assert closed_by_server(s)


def test_pipelined_requests_answered_in_order(server):
    srv = server()
    paths = ["/index.html", "/style.css", "/nope", "/sub/x.json"] * 5
    raw = b"".join(b"GET %s HTTP/1.1\r\nHost: t\r\n\r\n" % p.encode() for p in paths)
    with srv.connect() as s:
        s.sendall(raw + b"GET /index.html HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        r = Reader(s)
        got = [r.response()[0] for _ in range(len(paths) + 1)]
        assert got == [200, 200, 404, 200] * 5 + [200]
        assert r.response() is None


def test_head_split_across_many_reads(server):
    srv = server()
    with srv.connect() as s:
        for b in b"GET /style.css HTTP/1.1\r\nHost: t\r\n\r\n":
            s.send(bytes([b]))
            time.sleep(0.002)
        assert recv_response(s)[2] == b"h1 {}\n"


def test_body_over_several_reads_is_skipped(server):
    srv = server()
    with srv.connect() as s:
        s.sendall(b"GET /index.html HTTP/1.1\r\nHost: t\r\nContent-Length: 20000\r\n\r\n")
        for _ in range(4):
            time.sleep(0.02)
            s.sendall(b"x" * 5000)
        s.sendall(b"GET /style.css HTTP/1.1\r\nHost: t\r\n\r\n")
        r = Reader(s)
        assert r.response()[0] == 200
        assert r.response()[2] == b"h1 {}\n"


def test_request_body_is_skipped(server):
    srv = server()
    with srv.connect() as s:
        s.sendall(b"GET /index.html HTTP/1.1\r\nHost: t\r\nContent-Length: 5\r\n\r\nhello"
                  b"GET /style.css HTTP/1.1\r\nHost: t\r\n\r\n")
        r = Reader(s)
        assert r.response()[0] == 200
        assert r.response()[2] == b"h1 {}\n"


def test_large_file_streamed_whole(server):
    status, headers, body = get(server(), "/big.bin")
    assert status == 200 and headers["content-length"] == str(len(BIG)) and body == BIG


def test_slow_client_dropped_by_deadline_others_served(server):
    srv = server("--timeout", "300")
    t0 = time.time()                                # before the server's deadline starts
    with srv.connect() as slow:
        slow.sendall(b"GET / HTTP/1.1\r\n")         # never finishes its head
        assert get(srv, "/style.css")[2] == b"h1 {}\n"
        assert closed_by_server(slow)
        assert 0.25 <= time.time() - t0 < 5


def test_idle_keep_alive_dropped_by_deadline(server):
    srv = server("--timeout", "200")
    with srv.connect() as s:
        s.sendall(b"GET / HTTP/1.1\r\nHost: t\r\n\r\n")
        assert recv_response(s)[0] == 200
        assert closed_by_server(s)


def test_clients_vanishing_mid_request_and_mid_response(server):
    srv = server()
    for _ in range(5):
        s = srv.connect()
        s.sendall(b"GET /big.bin HTTP/1.1\r\nHo")
        s.close()
        s = srv.connect()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        s.sendall(b"GET /big.bin HTTP/1.1\r\nHost: t\r\n\r\n")
        s.recv(100)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, b"\x01\x00\x00\x00\x00\x00\x00\x00")
        s.close()                                   # RST with most of the body unsent
    assert get(srv, "/index.html")[0] == 200


def test_workers_serve_on_one_port(server):
    srv = server("--workers", "3")
    socks = [srv.connect() for _ in range(12)]
    for s in socks:
        s.sendall(b"GET /style.css HTTP/1.1\r\nHost: t\r\n\r\n")
    for s in socks:
        assert recv_response(s)[2] == b"h1 {}\n"
        s.close()
    with open("/proc/%d/status" % srv.proc.pid) as f:     # three schedulers were started
        threads = int(re.search(r"^Threads:\s+(\d+)", f.read(), re.M).group(1))
    assert threads >= 3


def test_prefork_processes_share_the_listener(server):
    srv = server("--prefork", "3")
    for _ in range(12):
        assert get(srv, "/index.html")[0] == 200
    # "listening on" comes before the forks: under ASan a fork is slow
    # enough that a request can be served before the third child exists.
    for _ in range(100):
        children = children_of(srv.proc.pid)
        if len(children) == 3:
            break
        time.sleep(0.1)
    assert len(children) == 3
    srv.stop()                      # the children go with the parent
    for _ in range(50):
        if not any(alive(pid) for pid in children):
            break
        time.sleep(0.1)
    assert not any(alive(pid) for pid in children)


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def children_of(pid):
    """Live processes whose parent is pid (from /proc: no procps needed)."""
    found = []
    for entry in os.listdir("/proc"):
        try:
            with open("/proc/%s/stat" % entry) as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields[1] == str(pid) and fields[0] != "Z":
            found.append(int(entry))
    return found


def test_usage_errors_exit_2(ripcc, docroot):
    exe = ripcc(HTTPD, "rip")
    for args in ([], ["--root"], ["--root", str(docroot), "--port", "x"],
                 ["--root", str(docroot), "--workers", "2", "--prefork", "2"]):
        r = subprocess.run([exe] + args, capture_output=True, timeout=10)
        assert r.returncode == 2 and b"usage" in r.stderr


def get_body(srv, path):
    status, _, body = request(srv, b"GET /%s HTTP/1.1\r\nHost: x\r\n\r\n" % path.encode())
    return status, body


def test_a_small_file_is_answered_alike_from_the_cache_and_from_disk(server, docroot):
    (docroot / "same.txt").write_text("same\n")
    srv = server()
    first, second = (request(srv, b"GET /same.txt HTTP/1.1\r\nHost: x\r\n\r\n")
                     for _ in range(2))
    assert first == second and first[0] == 200 and first[2] == b"same\n"


def test_a_small_file_is_served_from_memory_for_file_cache_ms(server, docroot):
    (docroot / "gone.txt").write_text("was here\n")
    srv = server("--file-cache-ms", "60000")
    assert get_body(srv, "gone.txt") == (200, b"was here\n")
    os.remove(docroot / "gone.txt")
    # the threads backend keeps no cache (no worker thread to keep it in)
    expected = (404, b"404 Not Found\n") if server.backend == "threads" else (200, b"was here\n")
    assert get_body(srv, "gone.txt") == expected


def test_a_changed_small_file_is_served_fresh_after_file_cache_ms(server, docroot):
    (docroot / "changing.txt").write_text("one\n")
    srv = server("--file-cache-ms", "200")
    assert get_body(srv, "changing.txt") == (200, b"one\n")
    (docroot / "changing.txt").write_text("two, longer\n")
    time.sleep(0.5)
    assert get_body(srv, "changing.txt") == (200, b"two, longer\n")


def test_a_cached_answer_still_being_sent_when_the_cache_replaces_it_arrives_whole(server,
                                                                                   docroot):
    """A cached answer is sent from the cache entry itself (no copy).  A
    client that pipelines many requests and reads none fills its socket,
    so the server waits mid-answer; the entry it sends from is replaced
    meanwhile (another client asked after --file-cache-ms) and must not be
    freed under the send (ASan would see it; the bytes would be wrong)."""
    path = docroot / "slowly.txt"
    path.write_bytes(b"a" * 16000)  # the biggest size the cache keeps is 16 KiB
    srv = server("--file-cache-ms", "300")
    assert get_body(srv, "slowly.txt") == (200, b"a" * 16000)    # cached now
    asks = 400                      # 6 MB of answers: more than the sockets hold
    with srv.connect(timeout=20) as slow:
        slow.sendall(b"GET /slowly.txt HTTP/1.1\r\nHost: x\r\n\r\n" * asks)
        time.sleep(0.5)             # the entry has expired; an answer waits on the socket
        path.write_bytes(b"b" * 16000)
        assert get_body(srv, "slowly.txt") == (200, b"b" * 16000)    # replaces the entry
        reader = Reader(slow)
        bodies = [reader.response() for _ in range(asks)]
    assert bodies[0] == (200, bodies[0][1], b"a" * 16000)
    assert all(status == 200 and body in (b"a" * 16000, b"b" * 16000)
               for status, _, body in bodies)


def test_file_cache_ms_0_serves_every_change_at_once(server, docroot):
    (docroot / "live.txt").write_text("one\n")
    srv = server("--file-cache-ms", "0")
    assert get_body(srv, "live.txt") == (200, b"one\n")
    (docroot / "live.txt").write_text("two\n")
    assert get_body(srv, "live.txt") == (200, b"two\n")

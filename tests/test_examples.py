"""The examples other than httpd (tests/test_httpd.py) on every backend:
each runs and does its job (real sockets on loopback for the servers)."""
import os
import re
import socket
import subprocess

import pytest

from conftest import BACKENDS, ROOT
from test_httpd import Server

EXAMPLES = os.path.join(ROOT, "examples")


@pytest.mark.parametrize("backend", BACKENDS)
def test_pingpong_reports_both_hand_offs(ripcc, backend):
    exe = ripcc(os.path.join(EXAMPLES, "pingpong.c"), backend)
    out = subprocess.run([exe, "2000"], capture_output=True, text=True, timeout=60).stdout
    for kind in ("channel", "yield"):
        assert re.search(r"^%s\s+4000 switches in [\d.]+ s: \d+ switches/s" % kind, out, re.M), out


@pytest.mark.parametrize("backend", BACKENDS)
def test_spawnmany_reports_spawn_time_and_bytes(ripcc, backend):
    exe = ripcc(os.path.join(EXAMPLES, "spawnmany.c"), backend)
    out = subprocess.run([exe, "1000"], capture_output=True, text=True, timeout=60).stdout
    assert re.search(r"spawn [\d.]+ ns/task, \d+ bytes per blocked task", out), out


class EchoServer(Server):
    def __init__(self, exe, *args):
        self.proc = subprocess.Popen([exe, "--port", "0", "--addr", "127.0.0.1"] + list(args),
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.port = int(re.match(r"listening on (\d+)", self.proc.stdout.readline().decode()).group(1))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("workers", ["1", "2"])
def test_echo_returns_every_byte_to_many_clients(ripcc, backend, workers):
    srv = EchoServer(ripcc(os.path.join(EXAMPLES, "echo.c"), backend), "--workers", workers)
    try:
        clients = [srv.connect() for _ in range(20)]
        payload = bytes(range(256)) * 400          # client i sends 1,000 * (i + 1) bytes
        for i, c in enumerate(clients):
            c.sendall(payload[:1000 * (i + 1)])
        for i, c in enumerate(clients):
            want = payload[:1000 * (i + 1)]
            got = b""
            while len(got) < len(want):
                chunk = c.recv(65536)
                assert chunk, "echo closed early"
                got += chunk
            assert got == want
            c.shutdown(socket.SHUT_WR)
            assert c.recv(1) == b""                  # closes after the client does
            c.close()
    finally:
        assert srv.stop(), srv.proc.stderr.read().decode()


def test_echo_usage_error_exits_2(ripcc):
    exe = ripcc(os.path.join(EXAMPLES, "echo.c"), "rip")
    r = subprocess.run([exe, "--bogus", "1"], capture_output=True, timeout=10)
    assert r.returncode == 2 and b"usage" in r.stderr


@pytest.mark.parametrize("backend", BACKENDS)
def test_httpload_drives_httpd(ripcc, backend, tmp_path):
    (tmp_path / "index.html").write_text("x" * 100)
    srv = Server(ripcc(os.path.join(EXAMPLES, "httpd.c"), "rip"), tmp_path)
    try:
        exe = ripcc(os.path.join(EXAMPLES, "httpload.c"), backend)
        r = subprocess.run([exe, "-c", "8", "-d", "0.5", "-w", "2",
                            "http://127.0.0.1:%d/index.html" % srv.port],
                           capture_output=True, text=True, timeout=60)
        m = re.search(r"(\d+) requests in [\d.]+ s: \d+ requests/s, (\d+) errors", r.stdout)
        assert m and int(m.group(1)) > 0 and m.group(2) == "0", r.stdout + r.stderr
        assert re.search(r"latency p50 [\d.]+ ms, p99 [\d.]+ ms", r.stdout)
    finally:
        srv.stop()


def test_httpload_usage_error_exits_2(ripcc):
    exe = ripcc(os.path.join(EXAMPLES, "httpload.c"), "rip")
    r = subprocess.run([exe, "ftp://x"], capture_output=True, timeout=10)
    assert r.returncode == 2 and b"usage" in r.stderr

"""examples/kvd.c, the key-value server written in plain POSIX (a thread
per connection, stdio on its sockets, a table behind a mutex, WAIT on a
condition variable), driven over loopback.  Built plainly with cc, and
unchanged with `ripcc --posix` on each backend (issue 22): these tests are
what every build must pass."""
import os
import re
import socket
import subprocess
import threading

import pytest

from conftest import CFLAGS, RIPCC, ROOT, SAN, run

KVD = os.path.join(ROOT, "examples", "kvd.c")
SAN_FLAGS = ["-fsanitize=address,undefined", "-fno-sanitize-recover=all"]


BUILDS = ("plain", "rip", "ucontext", "threads")


@pytest.fixture(scope="module", params=BUILDS)
def kvd_exe(build_dir, request):
    """kvd built plainly (cc -pthread), and with ripcc --posix for each
    backend: main runs as the first task, whose accept suspends; on rip
    and ucontext each connection's thread is a task of the one scheduler
    thread (its fgets, fprintf and mutex suspend it), on threads a thread."""
    exe = os.path.join(str(build_dir), "kvd-" + request.param)
    if request.param == "plain":
        cc = [os.environ.get("RIPCC_CC", "cc"), "-pthread"]
    else:
        cc = [RIPCC, "--posix", "--backend=" + request.param]
    r = run(cc + CFLAGS + (SAN_FLAGS if SAN and request.param == "plain" else []) +
            [KVD, "-o", exe])
    if r.returncode != 0:
        pytest.fail("%s %s failed:\n%s" % (" ".join(cc), KVD, r.stderr.decode()))
    return exe


class Kvd:
    """kvd on a free loopback port; stop() says whether it was still running."""

    def __init__(self, exe):
        self.proc = subprocess.Popen([exe, "--port", "0", "--addr", "127.0.0.1"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        line = self.proc.stdout.readline().decode()
        self.port = int(re.match(r"listening on (\d+)", line).group(1))

    def client(self):
        return Client(socket.create_connection(("127.0.0.1", self.port), timeout=30))

    def fds(self):
        return len(os.listdir("/proc/%d/fd" % self.proc.pid))

    def stop(self):
        alive = self.proc.poll() is None
        self.proc.kill()
        self.proc.wait()
        return alive


class Client:
    def __init__(self, sock):
        self.sock = sock
        self.lines = sock.makefile("rb")

    def ask(self, *commands):
        """Send the commands at once (pipelined); their answers, in order."""
        self.sock.sendall(b"".join(c.encode() + b"\n" for c in commands))
        return [self.lines.readline().decode().rstrip("\n") for _ in commands]

    def close(self):
        self.lines.close()
        self.sock.close()


@pytest.fixture
def kvd(kvd_exe):
    srv = Kvd(kvd_exe)
    yield srv
    assert srv.stop(), srv.proc.stderr.read().decode()


def test_each_command_answers_as_documented(kvd):
    c = kvd.client()
    assert c.ask("SET greeting hello there", "GET greeting", "GET nothing") == \
        ["OK", "VALUE hello there", "NOT_FOUND"]
    assert c.ask("INCR n", "INCR n", "INCR greeting") == ["1", "2", "ERR not a number"]
    assert c.ask("DEL greeting", "DEL greeting", "STATS") == \
        ["DELETED", "NOT_FOUND", "KEYS 1 CLIENTS 1"]
    assert c.ask("FLY away", "SET k", "GET", "") == \
        ["ERR unknown command", "ERR missing value", "ERR missing key", "ERR unknown command"]
    assert c.ask("QUIT") == ["BYE"]
    assert c.lines.readline() == b""            # and it closes
    c.close()


def test_a_line_too_long_is_refused_and_the_next_one_served(kvd):
    c = kvd.client()
    assert c.ask("SET " + "x" * 5000, "SET k v", "GET k") == ["ERR line too long", "OK", "VALUE v"]
    c.close()


def test_increments_from_many_clients_at_once_all_count(kvd):
    """50 connections, 200 INCRs each, pipelined: the mutex loses none."""
    clients = [kvd.client() for _ in range(50)]
    errors = []

    def hammer(c):
        try:
            answers = c.ask(*["INCR hits"] * 200)
            assert all(a.isdigit() for a in answers), answers[:3]
        except Exception as e:              # reported by the main thread
            errors.append(e)
    threads = [threading.Thread(target=hammer, args=(c,)) for c in clients]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors[0]
    assert clients[0].ask("GET hits") == ["VALUE 10000"]
    for c in clients:
        c.close()


def test_wait_answers_once_another_client_sets_the_key(kvd):
    waiter, setter = kvd.client(), kvd.client()
    waiter.sock.sendall(b"WAIT door\n")
    waiter.sock.settimeout(0.3)
    with pytest.raises(socket.timeout):
        waiter.sock.recv(1)                             # nothing until the key exists
    waiter.sock.settimeout(30)
    assert setter.ask("SET door open") == ["OK"]
    assert waiter.lines.readline() == b"VALUE open\n"
    assert waiter.ask("WAIT door") == ["VALUE open"]    # an existing key: at once
    waiter.close()
    setter.close()


def test_clients_that_leave_mid_line_leave_nothing_open(kvd):
    before = kvd.fds()
    for _ in range(20):
        s = socket.create_connection(("127.0.0.1", kvd.port))
        s.sendall(b"SET half")                          # no newline: it leaves mid-line
        s.close()
    c = kvd.client()
    assert c.ask("STATS")[0].startswith("KEYS 0 CLIENTS ")
    c.close()
    for _ in range(100):
        if kvd.fds() == before:
            break
        threading.Event().wait(0.05)
    assert kvd.fds() == before

"""POSIX mode and signals (issue 22, the EINTR rules): what comparing
with the plain build (tests/posix/eintr.c) cannot show.

- A server's `while (!stop) { n = poll(...); if (n < 0 && errno == EINTR)
  continue; ... }` loop with a SIGINT/SIGTERM handler ends when the signal
  comes from outside, on every backend, also while other tasks keep the
  scheduler busy (its loop then never blocks in epoll_wait).
- close(2) by one task wakes another task's read on that fd with EBADF at
  once (a thread would hang), shutdown(2) wakes it with EOF.
- Which wait a signal ends: the first task's (main), not another task's.
"""
import os
import signal
import subprocess
import time

import pytest

from conftest import RIPCC, run

SERVER = r"""
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "rip.h"

static volatile sig_atomic_t stop;
static void on_stop(int sig) { (void)sig; stop = 1; }

#ifdef BUSY
static void busy(void *arg) {       /* keeps the run queue full: the loop never blocks */
    (void)arg;
    while (!stop)
        rip_yield();
}
#endif

int main(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sa.sa_flags = RESTART;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    int lfd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    socklen_t len = sizeof a;
    bind(lfd, (struct sockaddr *)&a, sizeof a);
    listen(lfd, 8);
    getsockname(lfd, (struct sockaddr *)&a, &len);
#ifdef BUSY
    rip_spawn(busy, NULL);
#endif
    printf("port %d\n", ntohs(a.sin_port));
    fflush(stdout);
    int served = 0, interrupted = 0;
    while (!stop) {
        struct pollfd p = { lfd, POLLIN, 0 };
        (void)p;
        int n = WAIT;
        if (n < 0 && errno == EINTR) {
            interrupted++;
            continue;
        }
        if (n < 0)
            return 3;
        if (n > 0) {
            int c = accept(lfd, NULL, NULL);
            char buf[16];
            ssize_t got = read(c, buf, sizeof buf);
            if (got > 0)
                write(c, buf, (size_t)got);
            close(c);
            served++;
        }
    }
    printf("stopped: served %d, interrupted %d\n", served, interrupted);
    return 0;
}
"""

WAITS = {
    "poll": "poll(&p, 1, -1)",
    "ppoll": "ppoll(&p, 1, NULL, NULL)",
    "accept": "(accept(lfd, NULL, NULL) < 0 ? -1 : 0)",
}


def start(exe):
    proc = subprocess.Popen([exe], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    line = proc.stdout.readline().decode()
    assert line.startswith("port "), (line, proc.stderr.read())
    return proc, int(line.split()[1])


def echo(port):
    import socket
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(b"hi")
        return s.recv(16)


def stop(proc, sig):
    proc.send_signal(sig)
    try:
        out, err = proc.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("the signal did not end the wait: the server hangs")
    return proc.returncode, out.decode(), err.decode()


@pytest.mark.parametrize("busy", (False, True), ids=("idle", "busy"))
@pytest.mark.parametrize("sig", (signal.SIGINT, signal.SIGTERM), ids=("SIGINT", "SIGTERM"))
@pytest.mark.parametrize("backend", ("rip", "ucontext", "threads"))
def test_a_signal_from_outside_ends_a_servers_poll_loop(tmp_path, ripcc, backend, sig, busy):
    if busy and backend == "threads":
        pytest.skip("rip_yield on threads is sched_yield: a busy thread is not the point there")
    src = tmp_path / "server.c"
    src.write_text(SERVER)
    exe = ripcc(str(src), backend, extra=["--posix", "-D_GNU_SOURCE", "-DRESTART=SA_RESTART",
                                          "-DWAIT=" + WAITS["poll"]] + (["-DBUSY"] if busy else []))
    proc, port = start(exe)
    try:
        assert echo(port) == b"hi"
    except BaseException:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    time.sleep(0.1)                 # back in poll
    status, out, err = stop(proc, sig)
    assert (status, err) == (0, "")
    assert out == "stopped: served 1, interrupted 1\n"


@pytest.mark.parametrize("wait,restart,interrupted", (
    ("ppoll", "SA_RESTART", True),
    ("accept", "0", True),
    ("accept", "SA_RESTART", False)))
@pytest.mark.parametrize("backend", ("rip", "ucontext"))
def test_a_signal_from_outside_ends_accept_unless_restarted(tmp_path, ripcc, backend, wait,
                                                           restart, interrupted):
    """accept under SA_RESTART goes on (the loop ends only with the next
    connection); without it, and ppoll always, end with EINTR."""
    src = tmp_path / "server.c"
    src.write_text(SERVER)
    exe = ripcc(str(src), backend, extra=["--posix", "-D_GNU_SOURCE", "-DRESTART=" + restart,
                                          "-DWAIT=" + WAITS[wait]])
    proc, port = start(exe)
    try:
        time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        if not interrupted:
            time.sleep(0.3)
            assert proc.poll() is None, "accept ended although SA_RESTART restarts it"
            import socket
            socket.create_connection(("127.0.0.1", port), timeout=5).close()
        out, err = proc.communicate(timeout=5)
    finally:
        if proc.poll() is None:     # a wait the signal did not end: not left running
            os.killpg(proc.pid, signal.SIGKILL)
            proc.communicate()
    assert (proc.returncode, err) == (0, b"")
    assert out.decode().endswith("interrupted %d\n" % (1 if interrupted else 0))


CLOSE = r"""
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include "rip.h"

static int fds[2];

static void reader(void *arg) {
    char c;
    (void)arg;
    int64_t t0 = rip_now_ms();
    ssize_t n = read(fds[0], &c, 1);
    printf("read %zd %s after %s\n", n, n < 0 ? strerror(errno) : "",
           rip_now_ms() - t0 < 300 ? "the close" : "a sweep");
}

int main(void) {
#ifdef SHUTDOWN
    socketpair(AF_UNIX, SOCK_STREAM, 0, fds);
#else
    pipe(fds);
#endif
    rip_spawn(reader, NULL);
    usleep(50000);
#ifdef SHUTDOWN
    shutdown(fds[0], SHUT_RD);
#else
    close(fds[0]);
#endif
    usleep(50000);
    return 0;
}
"""


@pytest.mark.parametrize("backend", ("rip", "ucontext"))
def test_close_wakes_a_task_reading_the_fd_with_EBADF(tmp_path, ripcc, backend):
    src = tmp_path / "close.c"
    src.write_text(CLOSE)
    r = run([ripcc(str(src), backend, extra=["--posix"])], timeout=20)
    assert (r.returncode, r.stderr) == (0, b"")
    assert r.stdout.decode() == "read -1 Bad file descriptor after the close\n"


SHUTDOWN_LISTENER = r"""
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "rip.h"

static int lfd;

static void acceptor(void *arg) {
    (void)arg;
    int c = accept(lfd, NULL, NULL);
    printf("accept %d %s\n", c, c < 0 ? strerror(errno) : "");
}

int main(void) {
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    lfd = socket(AF_INET, SOCK_STREAM, 0);
    bind(lfd, (struct sockaddr *)&a, sizeof a);
    listen(lfd, 4);
    rip_spawn(acceptor, NULL);
    usleep(50000);
    shutdown(lfd, SHUT_RDWR);
    usleep(50000);
    return 0;
}
"""


@pytest.mark.parametrize("backend", ("rip", "ucontext", "threads"))
def test_shutdown_of_a_listener_wakes_a_task_in_accept(tmp_path, ripcc, backend):
    """Linux wakes a thread blocked in accept with EINVAL; so is the task."""
    src = tmp_path / "shutl.c"
    src.write_text(SHUTDOWN_LISTENER)
    r = run([ripcc(str(src), backend, extra=["--posix"])], timeout=20)
    assert (r.returncode, r.stderr) == (0, b"")
    assert r.stdout.decode() == "accept -1 Invalid argument\n"


@pytest.mark.parametrize("backend", ("rip", "ucontext", "threads"))
def test_shutdown_wakes_a_task_reading_the_socket(tmp_path, ripcc, backend):
    src = tmp_path / "shut.c"
    src.write_text(CLOSE)
    r = run([ripcc(str(src), backend, extra=["--posix", "-DSHUTDOWN"])], timeout=20)
    assert (r.returncode, r.stderr) == (0, b"")
    assert r.stdout.decode() == "read 0  after the close\n"


WHICH = r"""
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "rip.h"

static void on_usr1(int sig) { (void)sig; }

static void other(void *arg) {
    (void)arg;
    int n = usleep(300000);         /* not the first task: the signal leaves it alone */
    printf("other task: %d\n", n);
}

int main(void) {
    signal(SIGUSR1, on_usr1);
    rip_spawn(other, NULL);
    if (fork() == 0) {
        usleep(100000);
        kill(getppid(), SIGUSR1);
        _exit(0);
    }
    usleep(1000);                   /* the other task's wait begins first: older */
    unsigned left = sleep(2);
    printf("main: %u %s\n", left, left ? strerror(errno) : "");
    usleep(400000);                 /* a return from main ends the program, as with threads */
    return 0;
}
"""


@pytest.mark.parametrize("backend", ("rip", "ucontext"))
def test_a_process_signal_ends_the_first_tasks_wait_only(tmp_path, ripcc, backend):
    """As Linux gives a process-directed signal to the main thread when it
    does not block it: main's sleep ends, the other task sleeps on."""
    src = tmp_path / "which.c"
    src.write_text(WHICH)
    r = run([ripcc(str(src), backend, extra=["--posix", "-w"])], timeout=20)
    assert (r.returncode, r.stderr) == (0, b"")
    assert r.stdout.decode() == "main: 1 Interrupted system call\nother task: 0\n"


RAISE = r"""
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "rip.h"

static volatile sig_atomic_t got;
static void on_usr1(int sig) { (void)sig; got++; }

static void raiser(void *arg) {
    (void)arg;
    raise(SIGUSR1);                 /* directed at this task's thread, which runs */
}

int main(void) {
    signal(SIGUSR1, on_usr1);
    rip_spawn(raiser, NULL);
    int n = poll(NULL, 0, 200);
    printf("main's poll: %d, handler ran %d\n", n, got);
    return 0;
}
"""


@pytest.mark.parametrize("backend", ("rip", "ucontext", "threads"))
def test_a_signal_a_task_raises_ends_no_other_tasks_wait(tmp_path, ripcc, backend):
    """raise() is thread-directed: the task (a thread) that raises it runs
    its handler, and main's poll goes on to its timeout."""
    src = tmp_path / "raise.c"
    src.write_text(RAISE)
    r = run([ripcc(str(src), backend, extra=["--posix"])], timeout=20)
    assert (r.returncode, r.stderr) == (0, b"")
    assert r.stdout.decode() == "main's poll: 0, handler ran 1\n"


def test_posix_links_the_signal_wrappers_on_rip_and_ucontext(tmp_path):
    src = tmp_path / "t.c"
    src.write_text("#include <unistd.h>\nint main(void) { return sleep(0); }\n")
    for backend, wrapped in (("rip", True), ("ucontext", True), ("threads", False)):
        r = run([RIPCC, "-v", "--posix", "--backend=" + backend, str(src), "-o",
                 str(tmp_path / backend)])
        assert r.returncode == 0, r.stderr.decode()
        link = [line for line in r.stderr.decode().splitlines()
                if line.startswith("ripcc: ") and " -o " + str(tmp_path) in line][-1]
        assert ("-Wl,--wrap=sigaction" in link and "-Wl,--wrap=close" in link) == wrapped, link

"""POSIX mode (ripcc --posix, issue 22 point 1): programs written against
plain POSIX headers, built unchanged, behave as their plain build.

Every tests/posix/NAME.c checks one family of calls' contract (short
counts, errno, EOF, EPIPE, EAGAIN under the program's own O_NONBLOCK,
accept4's flags, connect refused, sleep's return values) and prints what
it saw: built with `ripcc --posix` for each backend it must print the same
bytes and exit with the same status as built with `cc -pthread`.  Waiting
must suspend only the calling task: test_a_blocking_call_suspends_only_its_task
runs a second task while the first waits in read()."""
import glob
import os
import signal
import subprocess

import pytest

from conftest import CAUGHT, ROOT, prebuild, run, selected_params

POSIX_PROGRAMS = sorted(glob.glob(os.path.join(ROOT, "tests", "posix", "*.c")))
POSIX_BACKENDS = ("rip", "ucontext", "threads")


@pytest.fixture(scope="session")
def plain_build(build_dir):
    """plain_build(source) -> the program built with cc -pthread, as its
    author would."""
    cache = {}

    def build(source):
        if source not in cache:
            exe = os.path.join(str(build_dir), os.path.basename(source)[:-2] + "-plain")
            r = run(["cc", "-std=gnu11", "-O2", "-Wall", "-Wextra", "-Werror", "-pthread",
                     source, "-o", exe])
            cache[source] = (exe, r)
        exe, r = cache[source]
        assert r.returncode == 0, r.stderr.decode()
        return exe
    return build


@pytest.fixture(scope="module")
def plain_run(plain_build):
    """plain_run(source) -> the plain build's run (subprocess.run's
    result): run once, the reference for every backend's build."""
    results = {}

    def run_once(source):
        if source not in results:
            results[source] = run([plain_build(source)], timeout=60)
        return results[source]
    return run_once


@pytest.fixture(scope="module", autouse=True)
def posix_programs_built_side_by_side(request, ripcc, plain_build):
    """The selected programs, plain and --posix for each backend, built
    before the first test (conftest.prebuild)."""
    chosen = selected_params(request, "test_posix_program_behaves_as_its_plain_build")
    ripcc.prebuild([(p["source"], p["backend"], ("--posix",)) for p in chosen])
    prebuild(plain_build, sorted({p["source"] for p in chosen}))


def test_there_are_posix_programs():
    names = {os.path.basename(p)[:-2] for p in POSIX_PROGRAMS}
    assert {"pipe", "socket", "vector", "accept", "unix_backlog", "poll", "select", "epoll",
            "sleep", "timeo", "signals", "echo_server", "eintr", "peek"} <= names


@pytest.mark.parametrize("backend", POSIX_BACKENDS)
@pytest.mark.parametrize("source", POSIX_PROGRAMS, ids=lambda p: os.path.basename(p)[:-2])
def test_posix_program_behaves_as_its_plain_build(source, backend, ripcc, plain_run):
    plain = plain_run(source)
    exe = ripcc(source, backend, extra=["--posix"])
    if backend == "ucontext":       # the calls went to the runtime (the output alone cannot tell)
        defined = run(["nm", "--defined-only", exe]).stdout.decode().split()
        assert "__wrap_main" in defined and "__wrap_read" in defined
    r = run([exe], timeout=60)
    assert r.stderr == b"", r.stderr.decode()
    assert (r.returncode, r.stdout.decode()) == (plain.returncode, plain.stdout.decode())


SUSPENDS = r"""
#include <poll.h>
#include <stdio.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/select.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include "rip.h"

static void ticker(void *arg) {
    (void)arg;
    for (int i = 0; i < 3; i++) {
        printf("tick %d\n", i);
        usleep(10000);
    }
}

int main(void) {
    int p[2];
    char buf[8];
    pipe(p);
    fflush(stdout);
    if (fork() == 0) {
        usleep(200000);
        _exit(write(p[1], "late", 4) != 4);
    }
    rip_spawn(ticker, NULL);
#ifdef USE_POLL
    struct pollfd f = { p[0], POLLIN, 0 };
    int ready = poll(&f, 1, 5000);
    printf("poll %d ", ready);
#endif
#ifdef USE_SELECT
    fd_set r;
    FD_ZERO(&r);
    FD_SET(p[0], &r);
    printf("select %d ", select(p[0] + 1, &r, NULL, NULL, NULL));
#endif
#ifdef USE_EPOLL
    struct epoll_event ev = { .events = EPOLLIN }, got;
    int ep = epoll_create1(0);
    epoll_ctl(ep, EPOLL_CTL_ADD, p[0], &ev);
    printf("epoll_wait %d ", epoll_wait(ep, &got, 1, -1));
#endif
#ifdef USE_READV
    struct iovec v = { buf, sizeof buf };
    ssize_t n = readv(p[0], &v, 1);
#else
    ssize_t n = read(p[0], buf, sizeof buf);
#endif
    printf("read %zd\n", n);
    wait(NULL);
    return 0;
}
"""


@pytest.mark.parametrize("call", ("read", "poll", "select", "epoll_wait", "readv"))
@pytest.mark.parametrize("backend", ("rip", "ucontext"))
def test_a_blocking_call_suspends_only_its_task(tmp_path, ripcc, backend, call):
    """main waits 200 ms in read() (or poll()) on a pipe; the task it
    spawned ticks meanwhile (a call that blocked the thread would print the
    ticks after)."""
    src = tmp_path / "suspends.c"
    src.write_text(SUSPENDS)
    exe = ripcc(str(src), backend, extra=["--posix"] + {
        "read": [], "poll": ["-DUSE_POLL"], "select": ["-DUSE_SELECT"],
        "epoll_wait": ["-DUSE_EPOLL"], "readv": ["-DUSE_READV"]}[call])
    r = run([exe], timeout=20)
    assert r.returncode == 0, r.stderr.decode()
    assert r.stdout.decode() == "tick 0\ntick 1\ntick 2\n" + \
        {"poll": "poll 1 ", "select": "select 1 ", "epoll_wait": "epoll_wait 1 "}.get(call, "") + \
        "read 4\n"


def test_posix_wraps_main_and_the_calls_on_ucontext_and_nothing_on_threads(tmp_path):
    src = tmp_path / "t.c"
    src.write_text("#include <unistd.h>\nint main(void) { return sleep(0); }\n")
    from conftest import RIPCC
    for backend, wrapped in (("ucontext", True), ("threads", False)):
        r = run([RIPCC, "-v", "--posix", "--backend=" + backend, str(src), "-o",
                 str(tmp_path / backend)])
        assert r.returncode == 0, r.stderr.decode()
        link = [line for line in r.stderr.decode().splitlines()
                if line.startswith("ripcc: ") and " -o " + str(tmp_path) in line][-1]
        assert ("-Wl,--wrap=read" in link and "-Wl,--wrap=main" in link) == wrapped, link
        assert subprocess.run([str(tmp_path / backend)]).returncode == 0


def ripper_posix(tmp_path, source, *flags):
    """ripper --posix on `source`: (exit status, ripped text, stderr)."""
    from conftest import RIPPER
    src = tmp_path / "p.c"
    src.write_text(source)
    out = tmp_path / "p.rip.c"
    r = run([RIPPER, "--posix"] + list(flags) + [str(src), "-o", str(out)])
    return r.returncode, out.read_text() if out.exists() else "", r.stderr.decode()


def test_ripper_posix_makes_callers_of_libc_calls_async(tmp_path):
    status, text, err = ripper_posix(tmp_path, (
        "#include <unistd.h>\n"
        "static int get(int fd, char *b) { return (int)read(fd, b, 4); }\n"
        "int main(void) { char b[8]; sleep(0); return get(0, b); }\n"))
    assert status == 0, err
    assert err == ""                # no -Wblocking for the calls --posix handles
    assert "rip__new_rip_posix_read(rip__F->fd" in text and "rip__new_rip_posix_sleep(0)" in text
    assert "rip__new_get(" in text and "rip_run(rip__main_task" in text


def test_ripper_posix_leaves_a_users_own_read_alone(tmp_path):
    status, text, err = ripper_posix(tmp_path, (
        "#include <stddef.h>\n"
        "static long read(int fd, void *b, size_t n) { (void)fd; (void)b; return (long)n; }\n"
        "int main(void) { char b[4]; return (int)read(0, b, 4); }\n"))
    assert status == 0, err
    assert "rip_posix_read" not in text and "read(0, " in text


def test_ripper_posix_warns_at_blocking_calls_it_does_not_handle_yet(tmp_path):
    status, _, err = ripper_posix(tmp_path, (
        "#define _GNU_SOURCE\n#include <signal.h>\n#include <unistd.h>\n"
        "int main(void) { sigset_t s; int n; sigemptyset(&s); sleep(0); return sigwait(&s, &n); }\n"))
    assert status == 0, err
    assert "p.c:4:71: warning: 'sigwait' blocks the whole scheduler in async function 'main'" in err
    assert "--posix does not handle 'sigwait' yet" in err and "'sleep'" not in err


def test_blocking_hint_names_posix_mode_for_the_calls_it_handles(tmp_path):
    from conftest import RIPPER
    src = tmp_path / "w.c"
    src.write_text('#include <unistd.h>\n#include "rip.h"\n'
                   "RIP_ASYNC void task(void *a) { (void)a; sleep(1); }\n")
    r = run([RIPPER, str(src), "-o", str(tmp_path / "w.rip.c")])
    assert r.returncode == 0
    assert "or rip the program with --posix, which makes 'sleep' suspend as written" in \
        r.stderr.decode()


def test_a_libc_call_taken_as_a_pointer_stays_the_library_s_and_is_caught(tmp_path, ripcc):
    """`reader r = read;`: a call through r is the C library's read, which
    the run-time catch (rip/catch.c) runs on the offload pool when it would
    wait, while the other task goes on: no stall, one warning at run time."""
    src = tmp_path / "p.c"
    src.write_text(
        "#include <pthread.h>\n#include <stdio.h>\n#include <unistd.h>\n"
        "typedef ssize_t (*reader)(int, void *, size_t);\n"
        "static int fds[2];\n"
        "static void *writer(void *a) { (void)a; puts(\"writer runs\"); fflush(stdout);\n"
        "    usleep(20000); write(fds[1], \"x\", 1); return 0; }\n"
        "int main(void) { char b[4]; pthread_t t; reader r = read; pipe(fds);\n"
        "    pthread_create(&t, 0, writer, 0);\n"
        "    ssize_t n = r(fds[0], b, 4); pthread_join(t, 0);\n"
        "    printf(\"read %zd\\n\", n); return 0; }\n")
    exe = ripcc(str(src), "rip", extra=["--posix"])
    got = run([exe], timeout=20)
    assert (got.returncode, got.stdout) == (0, b"writer runs\nread 1\n")
    assert got.stderr.decode().startswith(CAUGHT % "read")


def test_a_libc_stdio_call_taken_as_a_pointer_is_caught(tmp_path, ripcc):
    """fgets through a pointer is glibc's, wrapped at the link: it waits
    for the pipe while the writer task runs, as in the plain build."""
    src = tmp_path / "p.c"
    src.write_text(
        "#include <pthread.h>\n#include <stdio.h>\n#include <unistd.h>\n"
        "static int fds[2];\n"
        "static void *writer(void *a) { (void)a; usleep(20000); write(fds[1], \"line\\n\", 5);\n"
        "    return 0; }\n"
        "int main(void) { char b[16]; pthread_t t; char *(*get)(char *, int, FILE *) = fgets;\n"
        "    pipe(fds); FILE *in = fdopen(fds[0], \"r\");\n"
        "    pthread_create(&t, 0, writer, 0);\n"
        "    char *got = get(b, sizeof b, in); pthread_join(t, 0);\n"
        "    printf(\"got %s\", got ? b : \"nothing\\n\"); return 0; }\n")
    exe = ripcc(str(src), "rip", extra=["--posix"])
    got = run([exe], timeout=20)
    assert (got.returncode, got.stdout, got.stderr) == (0, b"got line\n", b"")


def test_plain_code_waiting_for_a_stream_held_below_it_is_a_clear_fatal_error(tmp_path, ripcc):
    """Two tasks read one FILE through a plain pointer's function: the
    first waits in fgets with the other tasks run from inside it; the
    second's fgets would wait for the first, which cannot go on until the
    second returns: a message and SIGABRT, not a hang."""
    src = tmp_path / "p.c"
    src.write_text(
        "#include <pthread.h>\n#include <stdio.h>\n#include <unistd.h>\n"
        "static FILE *in;\n"
        "static int get_line(char *b) { return fgets(b, 16, in) != NULL; }\n"
        "static int (*const getter)(char *) = get_line;\n"
        "static int fds[2];\n"
        "static void *second(void *a) { char b[16]; (void)a; getter(b); return 0; }\n"
        "static void *writer(void *a) { (void)a; usleep(50000); write(fds[1], \"a\\nb\\n\", 4);\n"
        "    return 0; }\n"
        "int main(void) { char b[16]; pthread_t t, w; pipe(fds); in = fdopen(fds[0], \"r\");\n"
        "    pthread_create(&w, 0, writer, 0); pthread_create(&t, 0, second, 0);\n"
        "    getter(b); pthread_join(t, 0); pthread_join(w, 0); return 0; }\n")
    exe = ripcc(str(src), "rip", extra=["--posix"])
    got = run([exe], timeout=20)
    assert got.returncode == -signal.SIGABRT
    assert b"rip: stdio: a call in plain code (a function called through a pointer, or a " \
        b"library) would wait for a stream that a task holds while it waits itself" in got.stderr


def test_a_libc_signal_wait_taken_as_a_pointer_is_a_blocking_warning(tmp_path):
    status, text, err = ripper_posix(tmp_path, (
        "#include <unistd.h>\n"
        "int main(void) { int (*waiter)(void) = pause;\n"
        "    return waiter(); }\n"))
    assert status == 0, err
    assert "p.c:2:40: warning: 'pause' taken as a function pointer: a call through it is the " \
        "C library's, which blocks every task while it waits [-Wblocking]" in err, err
    assert "(*waiter)(void) = pause;" in text


def test_a_pthread_wait_taken_as_a_pointer_is_the_runtime_s_plain_form(tmp_path):
    """tests/posix/pthread_wait_pointers.c runs it; here the text."""
    status, text, err = ripper_posix(tmp_path, (
        "#include <pthread.h>\n"
        "static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;\n"
        "int main(void) { int (*lock)(pthread_mutex_t *) = pthread_mutex_lock;\n"
        "    return lock(&m); }\n"))
    assert status == 0, err
    assert "(*lock)(pthread_mutex_t *) = rip_posix_pthread_mutex_lock;" in text


def test_a_plain_pointer_s_function_calls_an_async_one_by_its_plain_form(tmp_path):
    """log_line write()s, so it is async; handle, called through a plain
    pointer, stays plain and calls log_line's plain definition, which is
    kept beside the ripped one (tests/posix/handler_table.c runs it)."""
    status, text, err = ripper_posix(tmp_path, (
        "#include <string.h>\n#include <unistd.h>\n"
        "static void log_line(const char *m) { write(1, m, strlen(m)); }\n"
        "static int handle(const char *v) { log_line(v); return 0; }\n"
        "int (*hook)(const char *) = handle;\n"
        "int main(void) { log_line(\"direct\\n\"); return hook(\"hooked\\n\"); }\n"))
    assert status == 0, err
    assert "rip__new_log_line(" in text and "rip__new_handle" not in text
    assert "static int handle(const char *v) { log_line(v); return 0; }" in text
    assert "static void log_line(const char *m) { write(1, m, strlen(m)); }" in text


def test_a_plain_pointer_s_function_calling_one_without_a_plain_form_is_refused(tmp_path):
    """log_line's static local is of a type declared inside it, which its
    plain and ripped definitions could not share: no plain form, so a
    plain pointer's function cannot call it."""
    status, _, err = ripper_posix(tmp_path, (
        "#include <string.h>\n#include <unistd.h>\n"
        "static void log_line(const char *m) { typedef int n_t; static n_t n; n++;\n"
        "    write(1, m, strlen(m)); }\n"
        "static int handle(const char *v) { log_line(v); return 0; }\n"
        "int (*hook)(const char *) = handle;\n"
        "int main(void) { return hook(\"hooked\\n\"); }\n"))
    assert status == 1
    assert "p.c:5:36: error: 'handle', which stays plain (a plain function pointer takes it, " \
        "line 6), calls " \
        "async function 'log_line', whose plain definition cannot stay beside its ripped " \
        "one: static local 'n' of a type declared in 'log_line', which its plain and ripped " \
        "definitions could not share\n" in err, err


def test_a_func_name_static_keeps_the_plain_form_from_staying(tmp_path, ripcc):
    """`static const char *fn = __func__;` moved to file scope would name no
    function (""): say keeps no plain form, and the program, which calls it
    only by name, prints its own name."""
    src = tmp_path / "fn.c"
    src.write_text(
        "#include <string.h>\n#include <unistd.h>\n"
        "void say(void) { static const char *fn = __func__; char c;\n"
        "    if (read(0, &c, 0) == 0 && write(1, fn, strlen(fn)) < 0) c = 0; }\n"
        "int main(void) { say(); return 0; }\n")
    got = run([ripcc(str(src), "rip", extra=["--posix"])], input=b"", timeout=20)
    assert (got.returncode, got.stdout) == (0, b"say")


def test_a_c_local_is_not_declared_early_over_a_typedef_of_the_same_name(tmp_path, ripcc):
    """`int x = sizeof(T), T;`: sizeof names the typedef T; declaring the
    local T before the frame store of x would make it measure the int."""
    src = tmp_path / "td.c"
    src.write_text(
        "#include <stdio.h>\n#include <unistd.h>\n"
        "typedef char T;\n"
        "int main(void) { int x = (int)sizeof(T), T; char c; T = 1; x += T;\n"
        "    if (read(0, &c, 0) == 0) printf(\"%d\\n\", x); return 0; }\n")
    got = run([ripcc(str(src), "rip", extra=["--posix"])], input=b"", timeout=20)
    assert (got.returncode, got.stdout) == (0, b"2\n")


C89_PROGRAM = r"""
#include <stdarg.h>
#include <stdio.h>
#include <unistd.h>

static int fds[2];                  /* a pipe that holds a byte for each read */

static int counted(int n) {
    static int calls;               /* to file scope: the plain form shares it */
    int ret = n, spare;             /* ret lives across the wait, spare does not */
    char c;
    if (read(fds[0], &c, 1) != 1)
        return -1;
    spare = ret * 2;
    calls++;
    return spare + calls;
}

static int handle(int n) { return counted(n); }
static int (*hook)(int) = handle;   /* so counted keeps its plain form */

static int say(const char *fmt, ...) {
    va_list ap;
    int n;
    va_start(ap, fmt);
    n = vprintf(fmt, ap);
    va_end(ap);
    return n;
}

int main(void) {
    int a, b;
    if (pipe(fds) != 0 || write(fds[1], "xy", 2) != 2)
        return 1;
    a = counted(1);
    b = hook(2);
    say("%d %d %s\n", a, b, "literal");
    return 0;
}
"""


@pytest.mark.parametrize("flags", [["-std=c89", "-pedantic", "-Wdeclaration-after-statement"],
                                   ["-std=gnu11", "-Wwrite-strings", "-Wcast-qual"]],
                         ids=["c89 declarations", "write-strings"])
def test_ripped_code_adds_no_warning_to_a_strict_build(tmp_path, flags):
    """A declaration of a frame variable and a C local, and a static local
    moved to file scope, keep C89's declarations before statements; a
    literal given to a variadic async function stays const under
    -Wwrite-strings (its copy in the caller's frame too)."""
    from conftest import RIPCC
    src = tmp_path / "strict.c"
    src.write_text(C89_PROGRAM)
    plain = run(["cc", "-Wall", "-Wextra", "-Werror"] + flags + [str(src), "-o",
                                                                   str(tmp_path / "plain")])
    assert plain.returncode == 0, plain.stderr.decode()
    r = run([RIPCC, "--posix", "-Wall", "-Wextra", "-Werror"] + flags +
            [str(src), "-o", str(tmp_path / "ripped")])
    assert r.returncode == 0, r.stderr.decode()
    got = run([str(tmp_path / "ripped")], timeout=20)
    assert (got.returncode, got.stdout, got.stderr) == (0, b"3 6 literal\n", b"")


def test_equiv_posix_compares_the_plain_build_too(tmp_path):
    from conftest import RIPCC
    r = run([RIPCC, "--equiv", "--posix", "-O2", os.path.join(ROOT, "tests", "posix", "socket.c")],
            timeout=300)
    out = r.stdout.decode()
    assert r.returncode == 0, out + r.stderr.decode()
    assert [line.split()[-1] for line in out.splitlines()[1:5]] == \
        ["reference", "same", "same", "same"]
    assert out.splitlines()[4].startswith("plain ")
    src = tmp_path / "which.c"      # a program that tells ripcc's builds from its plain one
    src.write_text("#include <stdio.h>\n#include <unistd.h>\nint main(void) {\n"
                   "#if defined(RIP_RIPPED) || defined(RIP_BACKEND_UCONTEXT) || "
                   "defined(RIP_BACKEND_THREADS)\n    puts(\"ripcc\");\n#else\n"
                   "    puts(\"plain\");\n#endif\n    return sleep(0);\n}\n")
    r = run([RIPCC, "--equiv", "--posix", str(src)], timeout=300)
    out = r.stdout.decode()
    assert r.returncode == 1 and "plain          0            6  DIFFERENT output" in out, out


def test_ripper_posix_keeps_a_function_used_as_a_plain_pointer_plain(tmp_path):
    """A signal handler is called by code that cannot resume it: it stays
    plain, its write the library's.  A thread's start routine is the one
    exception: a thread is a task, so it is ripped (test_posix_pthread.py)."""
    status, text, err = ripper_posix(tmp_path, (
        "#include <pthread.h>\n#include <signal.h>\n#include <unistd.h>\n"
        "static void on_int(int sig) { (void)sig; write(2, \"int\\n\", 4); }\n"
        "static void *reader(void *a) { char b[4]; return (void *)read(*(int *)a, b, 4); }\n"
        "int main(void) { pthread_t t; int fd = 0; signal(SIGINT, on_int);\n"
        "  pthread_create(&t, 0, reader, &fd); pthread_join(t, 0); return (int)sleep(0); }\n"))
    assert status == 0, err
    assert 'static void on_int(int sig) { (void)sig; write(2, "int\\n", 4); }' in text
    assert "rip__new_rip_posix_read(" in text and "rip_posix_pthread_create(&" in text
    assert "rip__new_rip_posix_sleep(0)" in text


def test_fortified_reads_go_to_the_wrappers_on_ucontext(tmp_path, ripcc):
    """-D_FORTIFY_SOURCE turns read and recv into __read_chk and __recv_chk
    where it cannot prove the buffer big enough: the link wraps them too."""
    src = tmp_path / "fort.c"
    src.write_text("#include <stdio.h>\n#include <unistd.h>\n#include <sys/socket.h>\n"
                   "static ssize_t rd(int fd, char *b, size_t n) { return read(fd, b, n); }\n"
                   "int main(int argc, char **argv) { char b[16]; (void)argv;\n"
                   "  ssize_t n = rd(0, b, (size_t)argc * 4), m = recv(0, b, (size_t)argc, 0);\n"
                   "  printf(\"%zd %zd\\n\", n, m); return 0; }\n")
    exe = ripcc(str(src), "ucontext", extra=["--posix", "-D_FORTIFY_SOURCE=2"])
    undefined = run(["nm", "-u", exe]).stdout.decode()
    assert "__read_chk" not in undefined and "__recv_chk" not in undefined, undefined
    r = run([exe], input=b"hi\n")
    assert r.stdout == b"3 -1\n"


def test_a_posix_ucontext_object_linked_without_posix_is_refused(tmp_path):
    """Its calls become the runtime's only at a --posix link: without it
    they would block the scheduler, so the link says so instead."""
    from conftest import RIPCC
    src = tmp_path / "s.c"
    src.write_text("#include <unistd.h>\nint main(void) { return (int)sleep(0); }\n")
    obj = str(tmp_path / "s.o")
    assert run([RIPCC, "--posix", "--backend=ucontext", "-c", str(src), "-o", obj]).returncode == 0
    r = run([RIPCC, "--backend=ucontext", obj, "-o", str(tmp_path / "s")])
    assert r.returncode == 1
    assert "s.o was compiled with --posix: link with ripcc --posix too" in r.stderr.decode()
    r = run([RIPCC, "--posix", "--backend=ucontext", obj, "-o", str(tmp_path / "s")])
    assert r.returncode == 0 and run([str(tmp_path / "s")]).returncode == 0


RIP_RUN_IN_MAIN = ('#include <unistd.h>\n#include "rip.h"\n'
                   'static void task(void *a) { (void)a; sleep(0); }\n'
                   'int main(void) { return rip_run(task, 0); }\n')


def test_ripper_posix_refuses_rip_run_in_a_program(tmp_path):
    status, _, err = ripper_posix(tmp_path, RIP_RUN_IN_MAIN)
    assert status == 1
    assert "p.c:4:25: error: 'rip_run' under --posix, where main runs as the first task " \
        "already" in err


def test_rip_run_inside_a_task_is_a_clear_fatal_error_on_ucontext(tmp_path, ripcc):
    src = tmp_path / "runs.c"
    src.write_text(RIP_RUN_IN_MAIN)
    r = run([ripcc(str(src), "ucontext", extra=["--posix"])], timeout=20)
    assert r.returncode == -6
    assert b"rip: rip_run called inside a task" in r.stderr

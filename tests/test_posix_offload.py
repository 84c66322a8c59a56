"""POSIX mode's calls with no non-blocking form, and fork (issue 22, point
1): what comparing with the plain build (tests/posix/offload.c) cannot show.

- a task waiting in waitpid, system, flock, fcntl(F_SETLKW), getaddrinfo
  or the open of a FIFO does not stop another task (it ticks meanwhile);
- waitpid for one child waits on the child's pidfd: no pool thread is
  started (the ticker counts the process's threads), while waitpid(-1)
  needs one;
- a task in waitpid for a 1 s child leaves another answering a socket in
  microseconds meanwhile;
- a regular file's read is direct while cached, on the pool on a miss;
- fork in a task: the child runs only the forking task (no tick of the
  parent's other task in the child's output); a CGI-style task forks,
  execs sh through a pipe and waits while another task ticks;
- a library compiled on its own (plain cc) that reads in a task, directly
  and through a function pointer: caught at the link, the other tasks run
  meanwhile (rip: one warning naming the call; ucontext: suspends, no
  warning); a fork by a task run inside such a caught call.
"""
import os

import pytest

from conftest import ROOT, cc_library, ripped_as_plain, run, run_with_library

BACKENDS = ("rip", "ucontext")

TICKING = r"""
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include "rip.h"

static int threads(void) {
    int n = 0;
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

static int max_threads;

static void ticker(void *arg) {
    (void)arg;
    for (int i = 0; i < 3; i++) {
        int n = threads();
        if (n > max_threads)
            max_threads = n;
        printf("tick %d\n", i);
        usleep(20000);
    }
}

/* A child that holds `what` (0 flock, 1 fcntl) for 300 ms, then exits. */
static pid_t holder(const char *path, int what) {
    int p[2];
    char c;
    pipe(p);
    pid_t pid = fork();
    if (pid == 0) {
        int fd = open(path, O_RDWR | O_CREAT, 0600);
        struct flock lk = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
        if (what) fcntl(fd, F_SETLKW, &lk); else flock(fd, LOCK_EX);
        write(p[1], "x", 1);
        usleep(300000);
        _exit(0);
    }
    read(p[0], &c, 1);
    return pid;
}

int main(int argc, char **argv) {
    (void)argc;
    int st = 0, r = -1;
    const char *how = argv[1];
    char path[] = "/tmp/rip-tick-XXXXXX";
    int tmp = mkstemp(path);
    close(tmp);
    pid_t pid = 0;
    if (how[0] == 'w' || how[0] == 'a') {   /* waitpid, any */
        pid = fork();
        if (pid == 0) {
            usleep(300000);
            _exit(9);
        }
    } else if (how[0] == 'l' || how[0] == 'f') {   /* lock (flock), fcntl */
        pid = holder(path, how[0] == 'f');
    } else if (how[0] == 'o') {             /* open of a FIFO */
        unlink(path);
        mkfifo(path, 0600);
        pid = fork();
        if (pid == 0) {
            usleep(300000);
            _exit(open(path, O_WRONLY) < 0);
        }
    }
    fflush(stdout);
    rip_spawn(ticker, NULL);
    if (how[0] == 'w') {
        r = waitpid(pid, &st, 0) == pid ? WEXITSTATUS(st) : -1;
    } else if (how[0] == 'a') {
        r = waitpid(-1, &st, 0) == pid ? WEXITSTATUS(st) : -1;
    } else if (how[0] == 's') {
        r = WEXITSTATUS(system("sleep 0.3; exit 5"));
    } else if (how[0] == 'l' || how[0] == 'f') {
        int fd = open(path, O_RDWR);
        struct flock lk = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
        r = how[0] == 'l' ? flock(fd, LOCK_EX) : fcntl(fd, F_SETLKW, &lk);
        waitpid(pid, &st, 0);
    } else if (how[0] == 'o') {
        r = open(path, O_RDONLY) >= 0;
        waitpid(pid, &st, 0);
    }
    unlink(path);
    printf("%s %d threads %d\n", how, r, max_threads);
    return 0;
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("how, result", (("waitpid", 9), ("any", 9), ("system", 5),
                                         ("lock", 0), ("fcntl", 0), ("open", 1)))
def test_a_call_with_no_nonblocking_form_suspends_only_its_task(tmp_path, ripcc, backend, how,
                                                                result):
    """main waits 300 ms in the call; the task it spawned ticks three
    times meanwhile (a call that blocked the scheduler's thread would let
    the ticks come only after it, and print them after the result line
    too late: they are printed first here)."""
    src = tmp_path / "ticking.c"
    src.write_text(TICKING)
    exe = ripcc(str(src), backend, extra=["--posix"])
    r = run([exe, how], timeout=20)
    assert r.returncode == 0, r.stderr.decode()
    lines = r.stdout.decode().splitlines()
    assert lines[:3] == ["tick 0", "tick 1", "tick 2"], lines
    said, got, _, threads = lines[3].split()
    assert (said, int(got)) == (how, result)
    if how == "waitpid":            # the child's pidfd: no pool thread at all
        assert int(threads) == 1
    if how == "any":                # waitpid(-1) has no one fd: it waits on the pool
        assert int(threads) >= 2


FORKING = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "rip.h"

static volatile int ticks;
static rip_chan *handoff;

static void waiter(void *arg) {      /* parked on a channel when main forks */
    int v;
    (void)arg;
    rip_chan_recv(handoff, &v);
    printf("[%d] waiter got %d\n", (int)getpid(), v);
}

static void ticker(void *arg) {
    (void)arg;
    for (int i = 0; i < 10; i++) {
        printf("[%d] tick %d\n", (int)getpid(), i);
        fflush(stdout);
        ticks++;
        usleep(10000);
    }
}

/* A CGI request: the child execs echo with its output on a pipe. */
static void cgi(void *arg) {
    (void)arg;
    int p[2];
    pipe(p);
    pid_t pid = fork();
    if (pid == 0) {
        dup2(p[1], 1);
        close(p[0]);
        execl("/bin/sh", "sh", "-c", "sleep 0.05; echo cgi output", (char *)NULL);
        _exit(127);
    }
    close(p[1]);
    char buf[64];
    ssize_t n, got = 0;
    while ((n = read(p[0], buf + got, sizeof buf - 1 - (size_t)got)) > 0)
        got += n;
    buf[got] = 0;
    int st;
    waitpid(pid, &st, 0);
    printf("cgi said: %s", buf);
    printf("cgi status %d\n", WEXITSTATUS(st));
}

int main(void) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    handoff = rip_chan_new(sizeof(int), 0);
    rip_spawn(waiter, NULL);
    rip_spawn(ticker, NULL);
    usleep(15000);                  /* the ticker runs, then sleeps: a timer */
    int p[2];
    pipe(p);
    pid_t pid = fork();
    if (pid == 0) {                 /* only this code path runs here */
        usleep(50000);              /* long enough for the parent's ticker to tick again */
        int one = 1;
        rip_chan_send(handoff, &one);   /* readies the parent's waiter: the child must not run it */
        usleep(10000);
        printf("child: %d ticks seen\n", ticks > 0);
        write(p[1], "k", 1);
        return 3;                   /* ends the child's program, as main's return does */
    }
    char c;
    ssize_t n = read(p[0], &c, 1);
    int st;
    waitpid(pid, &st, 0);
    printf("parent: child said %zd, status %d\n", n, WEXITSTATUS(st));
    int two = 2;
    rip_chan_send(handoff, &two);
    cgi(NULL);
    return 0;
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_fork_in_a_task_runs_only_that_task_in_the_child(tmp_path, ripcc, backend):
    src = tmp_path / "forking.c"
    src.write_text(FORKING)
    exe = ripcc(str(src), backend, extra=["--posix"])
    r = run([exe], timeout=20)
    assert r.returncode == 0, r.stderr.decode()
    out = r.stdout.decode()
    pids = {line.split("]")[0][1:] for line in out.splitlines() if line.startswith("[")}
    assert len(pids) == 1, out      # every tick from the parent: the child ran none
    assert "child: 1 ticks seen" in out
    assert "waiter got 2" in out and "waiter got 1" not in out
    assert "parent: child said 1, status 3" in out
    assert "cgi said: cgi output\ncgi status 0\n" in out


LIBRARY = r"""
/* A library built on its own with plain cc: ripper never sees it.  It
 * reads directly and through a function pointer. */
#include <unistd.h>
ssize_t (*lib_reader)(int, void *, size_t) = read;
ssize_t lib_read(int fd, void *buf, size_t n) { return read(fd, buf, n); }
ssize_t lib_read_through_pointer(int fd, void *buf, size_t n) { return lib_reader(fd, buf, n); }
"""

USES_LIBRARY = r"""
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "rip.h"
ssize_t lib_read(int fd, void *buf, size_t n);
ssize_t lib_read_through_pointer(int fd, void *buf, size_t n);

static void ticker(void *arg) {
    (void)arg;
    for (int i = 0; i < 3; i++) {
        printf("tick %d\n", i);
        usleep(20000);
    }
}

int main(void) {
    int p[2];
    char buf[16];
    pipe(p);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        usleep(200000);
        write(p[1], "late", 4);
        usleep(200000);
        write(p[1], "later", 5);
        _exit(0);
    }
    rip_spawn(ticker, NULL);
    ssize_t n = lib_read(p[0], buf, sizeof buf);
    printf("lib_read %zd %.*s\n", n, (int)n, buf);
    rip_spawn(ticker, NULL);
    n = lib_read_through_pointer(p[0], buf, sizeof buf);
    printf("through a pointer %zd %.*s\n", n, (int)n, buf);
    write(p[1], "ready", 5);        /* ready: read direct, no wait */
    n = lib_read(p[0], buf, sizeof buf);
    printf("ready %zd\n", n);
    close(p[1]);
    n = lib_read(p[0], buf, sizeof buf);
    printf("end of file %zd\n", n);
    n = lib_read(-1, buf, 1);
    printf("bad fd %zd %s\n", n, strerror(errno));
    waitpid(pid, NULL, 0);
    return 0;
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_library_ripper_never_saw_blocks_only_its_task(tmp_path, ripcc, backend):
    """lib.o, compiled by cc alone, calls read in a task (directly and
    through a pointer): the link catches it (--wrap).  On rip the call
    cannot suspend (it runs on the task's C stack): it runs on the offload
    pool while the other tasks run, with one warning naming it; on
    ucontext the task suspends in it as in its own code, silently."""
    out = run_with_library(tmp_path, ripcc, backend, LIBRARY, USES_LIBRARY, ("read",))
    assert out == ("tick 0\ntick 1\ntick 2\nlib_read 4 late\n"
                   "tick 0\ntick 1\ntick 2\nthrough a pointer 5 later\n"
                   "ready 5\nend of file 0\nbad fd -1 Bad file descriptor\n")


DISK = r"""
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int threads(void) {
    int n = 0;
    DIR *d = opendir("/proc/self/task");
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += e->d_name[0] != '.';
    if (d)
        closedir(d);
    return n;
}

/* Is the file's first page in the page cache? */
static int resident(int fd) {
    unsigned char v = 0;
    void *m = mmap(NULL, 4096, PROT_READ, MAP_SHARED, fd, 0);
    if (m == MAP_FAILED)
        return -1;
    mincore(m, 4096, &v);
    munmap(m, 4096);
    return v & 1;
}

#define SIZE (64 * 1024)            /* under the size a write or read goes to the pool by */

static int same(const char *in) {
    for (int i = 0; i < SIZE; i++)
        if (in[i] != (char)(i % 251))
            return 0;
    return 1;
}

int main(int argc, char **argv) {
    (void)argc;
    static char in[SIZE];           /* static: no free on the early return */
    int fd = open(argv[1], O_RDONLY);   /* written and synced by the test */
    ssize_t n = read(fd, in, SIZE);
    printf("cached read: %zd same %d threads %d\n", n, same(in), threads());
    n = pread(fd, in, SIZE, 0);
    printf("cached pread: %zd same %d threads %d\n", n, same(in), threads());
    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    if (resident(fd)) {
        printf("still resident\n");
        return 0;
    }
    /* The kernel may finish the readahead that RWF_NOWAIT starts before
       it looks at the page again (a fast disk, a loaded machine), and then
       the direct read is right not to block: try the miss a few times. */
    int all_same = 1, tries = 0;
    do {
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        memset(in, 0, SIZE);
        lseek(fd, 0, SEEK_SET);
        n = read(fd, in, SIZE);
        all_same &= n == SIZE && same(in);
    } while (threads() == 1 && ++tries < 20);
    printf("evicted read: %zd same %d threads %d\n", n, all_same, threads() > 1);
    if (threads() == 1) {
        /* the kernel's own answer, past the runtime: does a nonblocking
           read of the evicted pages say it would block? */
        struct iovec v = { in, SIZE };
        posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
        long got = syscall(SYS_preadv2, fd, &v, 1, 0L, 0L, RWF_NOWAIT);
        printf("the kernel's nonblocking read: %s\n", got < 0 && errno == EAGAIN ? "EAGAIN"
               : "served");
    }
    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    memset(in, 0, SIZE);
    n = pread(fd, in, SIZE, 0);
    printf("evicted pread: %zd same %d\n", n, same(in));
    printf("at the end: %zd\n", read(fd, in, SIZE));
    return 0;
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_file_read_goes_to_the_pool_only_when_the_page_cache_misses(tmp_path, ripcc, backend):
    """A read of cached file data is direct (preadv2 RWF_NOWAIT succeeds:
    no thread but main's); once the pages are evicted (POSIX_FADV_DONTNEED
    on the synced file) the same read goes to the pool (a pool thread
    appears; the miss is tried up to 20 times, since the kernel may
    complete the readahead inside the nonblocking read).  Each result is
    what the kernel's own read gives."""
    data = tmp_path / "data"
    with open(data, "wb") as f:
        f.write(bytes(i % 251 for i in range(64 * 1024)))
        f.flush()
        os.fsync(f.fileno())
    src = tmp_path / "disk.c"
    src.write_text(DISK)
    exe = ripcc(str(src), backend, extra=["--posix"])
    r = run([exe, str(data)], timeout=20)
    assert r.returncode == 0, r.stderr.decode()
    out = r.stdout.decode()
    assert out.startswith("cached read: 65536 same 1 threads 1\n"
                          "cached pread: 65536 same 1 threads 1\n"), out
    if "still resident" in out:
        pytest.skip("this file system keeps the pages (tmpfs?): no miss to see")
    if "the kernel's nonblocking read: served" in out:
        pytest.skip("this kernel serves a nonblocking read of evicted pages at once (its "
                    "readahead done within the call): no miss to see")
    assert out.endswith("evicted read: 65536 same 1 threads 1\nevicted pread: 65536 same 1\n"
                        "at the end: 0\n"), out


FORK_IN_CAUGHT = r"""
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "rip.h"
ssize_t lib_read(int fd, void *buf, size_t n);
static int p[2];

static void forker(void *arg) {
    (void)arg;
    pid_t pid = fork();
    if (pid == 0) {
        usleep(10000);
        printf("child task done\n");
        return;                     /* the child's last task ends: the child exits 0 */
    }
    int st;
    waitpid(pid, &st, 0);
    printf("child exited %d\n", WEXITSTATUS(st));
    write(p[1], "x", 1);
}

int main(void) {
    char c;
    pipe(p);
    setvbuf(stdout, NULL, _IOLBF, 0);
    rip_spawn(forker, NULL);
    ssize_t n = lib_read(p[0], &c, 1);  /* caught: forker runs inside it, and forks */
    printf("main read %zd\n", n);
    return 0;
}
"""


def test_a_fork_in_a_task_run_inside_a_caught_call_ends_its_child(tmp_path, ripcc):
    """rip: main is caught in a library's read, the scheduler runs the
    forking task inside it; the child (whose main is the parent's) runs
    its task to the end and exits 0, as a threaded program's child does
    when its last thread ends."""
    obj = cc_library(tmp_path, LIBRARY)
    src = tmp_path / "fork_in_caught.c"
    src.write_text(FORK_IN_CAUGHT)
    exe = ripcc(str(src), "rip", extra=["--posix", str(obj)])
    env = dict(os.environ)
    if "detect_leaks=1" in env.get("ASAN_OPTIONS", ""):
        # gcc 12's LeakSanitizer, checking at the child's exit, locks the
        # allocator, which another thread (the offload pool's) may have
        # held at the fork: the child then waits for good (8 runs in 60,
        # gdb: __lsan::LockAllocator in __cxa_finalize).  Not the runtime's.
        env["ASAN_OPTIONS"] = env["ASAN_OPTIONS"].replace("detect_leaks=1", "detect_leaks=0")
    r = run([exe], timeout=20, env=env)
    assert r.returncode == 0, r.stderr.decode()
    assert r.stdout.decode() == "child task done\nchild exited 0\nmain read 1\n"


ANSWERS = r"""
#include <stdio.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include "rip.h"

static int sv[2];
static long worst_us;
static int waiting;                 /* main is in waitpid */
static int answered_meanwhile;      /* answers that came while it was */

static long now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000L + t.tv_nsec / 1000;
}

static void answerer(void *arg) {
    char c;
    (void)arg;
    while (read(sv[1], &c, 1) == 1)
        write(sv[1], &c, 1);
}

static void asker(void *arg) {
    char c = 'x';
    (void)arg;
    usleep(100000);                 /* main is in waitpid by now */
    for (int i = 0; i < 20; i++) {
        long t0 = now_us();
        write(sv[0], &c, 1);
        read(sv[0], &c, 1);
        if (now_us() - t0 > worst_us)
            worst_us = now_us() - t0;
        answered_meanwhile += waiting;
        usleep(10000);
    }
    shutdown(sv[0], SHUT_WR);       /* the answerer sees EOF and ends */
}

int main(void) {
    socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        sleep(1);
        _exit(7);
    }
    rip_spawn(answerer, NULL);
    rip_spawn(asker, NULL);
    int st;
    long t0 = now_us();
    waiting = 1;
    pid_t got = waitpid(pid, &st, 0);
    waiting = 0;
    printf("waitpid %d status %d after %ld ms\n", got == pid, WEXITSTATUS(st), (now_us() - t0) / 1000);
    printf("worst answer %ld us, %d of 20 while main waited\n", worst_us, answered_meanwhile);
    return 0;
}
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_task_in_waitpid_for_a_1s_child_leaves_another_answering_in_ms(tmp_path, ripcc,
                                                                         backend):
    src = tmp_path / "answers.c"
    src.write_text(ANSWERS)
    exe = ripcc(str(src), backend, extra=["--posix"])
    r = run([exe], timeout=20)
    assert r.returncode == 0, r.stderr.decode()
    first, second = r.stdout.decode().splitlines()
    said, ok, _, status, _, ms, _ = first.split()
    assert (ok, status) == ("1", "7") and 950 <= int(ms) < 3000, first
    words = second.replace(",", "").split()
    assert int(words[2]) < 50000, second    # milliseconds, not the child's second
    assert words[4] == "20", second         # every answer came while main waited


@pytest.mark.parametrize("backend", BACKENDS)
def test_large_file_names_are_wrapped_too(tmp_path, ripcc, backend):
    """-D_FILE_OFFSET_BITS=64 makes glibc's headers call open64, pread64,
    fcntl64...: tests/posix/offload.c built so prints what its plain build
    prints, and on ucontext the program's calls went to the wrappers."""
    src = os.path.join(ROOT, "tests", "posix", "offload.c")
    exe = ripped_as_plain(tmp_path, ripcc, src, backend, ["-D_FILE_OFFSET_BITS=64"])
    if backend == "ucontext":
        defined = run(["nm", "--defined-only", exe]).stdout.decode().split()
        assert "__wrap_open64" in defined and "__wrap_fcntl64" in defined


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("how, result", (("fcntl", 0), ("open", 1)))
def test_large_file_calls_suspend_only_their_task(tmp_path, ripcc, backend, how, result):
    """The same waits as test_a_call_with_no_nonblocking_form_suspends_only_its_task
    (fcntl(F_SETLKW) on a held lock, a FIFO's open), built with
    -D_FILE_OFFSET_BITS=64 (fcntl64, open64): the ticks come meanwhile."""
    src = tmp_path / "ticking_lfs.c"
    src.write_text(TICKING)
    exe = ripcc(str(src), backend, extra=["--posix", "-D_FILE_OFFSET_BITS=64"])
    r = run([exe, how], timeout=20)
    assert r.returncode == 0, r.stderr.decode()
    lines = r.stdout.decode().splitlines()
    assert lines[:3] == ["tick 0", "tick 1", "tick 2"], lines
    assert lines[3].split()[:2] == [how, str(result)]


def test_rip_posix_links_the_catch_but_not_main(tmp_path):
    """rip --posix: the link wraps each call (for code ripper did not rip)
    but not main, which ripper makes the first task itself."""
    from conftest import RIPCC
    src = tmp_path / "t.c"
    src.write_text("#include <unistd.h>\nint main(void) { return sleep(0); }\n")
    r = run([RIPCC, "-v", "--posix", "--backend=rip", str(src), "-o", str(tmp_path / "t")])
    assert r.returncode == 0, r.stderr.decode()
    link = [line for line in r.stderr.decode().splitlines()
            if line.startswith("ripcc: ") and " -o " + str(tmp_path) in line][-1]
    assert "-Wl,--wrap=read" in link and "-Wl,--wrap=waitpid" in link and \
        "-Wl,--wrap=open64" in link
    assert "-Wl,--wrap=main" not in link
    assert run([str(tmp_path / "t")]).returncode == 0

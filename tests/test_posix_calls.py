"""POSIX mode's later calls (issue 22, point 1): popen (its stream is a
pipe, which stdio.c suspends on), pclose, wait3, wait4, gethostbyaddr,
sync, syncfs and lockf (a pidfd or the offload pool,
runtime/src/core/pxcall.c).  Their contracts are checked against the
plain build by tests/posix/popen.c and offload_later.c (test_posix.py);
here: --posix rips them without a -Wblocking warning, and a library
ripper never saw that calls them in a task is caught at the link and
leaves the other tasks running, and its popen's and system's command
inherits the calling task's signal mask (rip/catch.c's caught_masked)."""
import os

import pytest

from conftest import RIPPER, ROOT, ripped_as_plain, run, run_with_library

LATER = r"""
#define _GNU_SOURCE
#include <netdb.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void) {
    int st;
    FILE *fp = popen("true", "r");
    pclose(fp);
    wait3(&st, 0, NULL);
    wait4(-1, &st, 0, NULL);
    gethostbyaddr("\x7f\0\0\1", 4, 2);
    sync();
    syncfs(0);
    return lockf(0, F_LOCK, 0);
}
"""


def test_ripper_posix_takes_the_later_calls_without_a_warning(tmp_path):
    """Each becomes its resume point; before, each was "--posix does not
    handle 'X' yet"."""
    src = tmp_path / "later.c"
    src.write_text(LATER)
    out = tmp_path / "later.rip.c"
    r = run([RIPPER, "--posix", str(src), "-o", str(out)])
    assert r.returncode == 0, r.stderr.decode()
    assert r.stderr.decode() == ""
    text = out.read_text()
    for name in ("popen", "pclose", "wait3", "wait4", "gethostbyaddr", "sync", "syncfs", "lockf"):
        assert "rip__new_rip_posix_%s(" % name in text, name


def test_without_posix_the_later_calls_still_warn(tmp_path):
    src = tmp_path / "w.c"
    src.write_text('#include <stdio.h>\n#include <unistd.h>\n#include "rip.h"\n'
                   "RIP_ASYNC void task(void *a) { (void)a; pclose(popen(\"true\", \"r\"));"
                   " lockf(0, F_LOCK, 0); }\n")
    r = run([RIPPER, str(src), "-o", str(tmp_path / "w.rip.c")])
    err = r.stderr.decode()
    assert r.returncode == 0, err
    assert "'pclose' blocks the whole scheduler" in err and "'popen' blocks" in err
    assert "or rip the program with --posix, which makes 'lockf' suspend as written" in err


LIBRARY = r"""
/* Built on its own with plain cc: ripper never sees it. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>
int lib_pclose(FILE *fp) { return pclose(fp); }
pid_t lib_wait4(pid_t pid, int *st) { struct rusage ru; return wait4(pid, st, 0, &ru); }
int lib_lockf(int fd, int cmd) { return lockf(fd, cmd, 0); }
"""

USES_LIBRARY = r"""
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
#include "rip.h"
int lib_pclose(FILE *fp);
pid_t lib_wait4(pid_t pid, int *st);
int lib_lockf(int fd, int cmd);

static void ticker(void *arg) {
    (void)arg;
    for (int i = 0; i < 3; i++) {
        printf("tick %d\n", i);
        usleep(20000);
    }
}

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    FILE *fp = popen("exec >&-; sleep 0.2; exit 4", "r");
    rip_spawn(ticker, NULL);
    int st = lib_pclose(fp);
    printf("pclose: exited %d\n", WEXITSTATUS(st));
    pid_t pid = fork();
    if (pid == 0) {
        usleep(200000);
        _exit(5);
    }
    rip_spawn(ticker, NULL);
    int own = lib_wait4(pid, &st) == pid;
    printf("wait4: own %d, exited %d\n", own, WEXITSTATUS(st));
    char file[] = "/tmp/rip-lockf-XXXXXX";
    int fd = mkstemp(file), p[2];
    pipe(p);
    pid = fork();
    if (pid == 0) {
        lockf(fd, F_LOCK, 0);
        write(p[1], "x", 1);
        usleep(200000);
        _exit(0);
    }
    char c;
    read(p[0], &c, 1);
    rip_spawn(ticker, NULL);
    printf("lockf: %d\n", lib_lockf(fd, F_LOCK));
    waitpid(pid, NULL, 0);
    unlink(file);
    return 0;
}
"""


@pytest.mark.parametrize("backend", ("rip", "ucontext"))
def test_a_library_ripper_never_saw_waits_only_its_task(tmp_path, ripcc, backend):
    """lib.o calls pclose (of a child that closed its output and lingers
    200 ms), wait4 and lockf(F_LOCK) (of a region a child holds 200 ms)
    in a task: the link catches each (--wrap), and a ticking task runs
    meanwhile; on rip each says once that it was caught."""
    ticks = "tick 0\ntick 1\ntick 2\n"
    out = run_with_library(tmp_path, ripcc, backend, LIBRARY, USES_LIBRARY,
                           ("pclose", "wait4", "lockf"))
    assert out == ticks + "pclose: exited 4\n" + ticks + "wait4: own 1, exited 5\n" + \
        ticks + "lockf: 0\n"


@pytest.mark.parametrize("backend", ("rip", "ucontext", "threads"))
def test_large_file_lockf_is_wrapped_too(tmp_path, ripcc, backend):
    """-D_FILE_OFFSET_BITS=64 makes glibc's headers call lockf64:
    tests/posix/offload_later.c built so prints what its plain build
    prints (its lockf(F_LOCK) lets the other thread tick), and on ucontext
    the program's call went to the wrapper."""
    src = os.path.join(ROOT, "tests", "posix", "offload_later.c")
    exe = ripped_as_plain(tmp_path, ripcc, src, backend, ["-D_FILE_OFFSET_BITS=64"])
    if backend == "ucontext":
        assert "__wrap_lockf64" in run(["nm", "--defined-only", exe]).stdout.decode().split()


def test_posix_scanf_is_a_resume_point_and_fwscanf_warns(tmp_path):
    """fscanf under --posix suspends (rip_posix_fscanf, no warning); the
    wide forms are not handled: the warning says where they would wait
    and what suspends."""
    src = tmp_path / "s.c"
    src.write_text('#include <stdio.h>\n#include <wchar.h>\n'
                   'int main(void) { int x; fscanf(stdin, "%d", &x);\n'
                   '  return fwscanf(stdin, L"%d", &x); }\n')
    r = run([RIPPER, "--posix", str(src), "-o", str(tmp_path / "s.rip.c")])
    err = r.stderr.decode()
    assert r.returncode == 0, err
    assert "'fscanf'" not in err
    assert "rip__new_rip_posix_fscanf(" in (tmp_path / "s.rip.c").read_text()
    assert "warning: 'fwscanf' blocks the whole scheduler in async function 'main'" in err
    assert "--posix does not handle 'fwscanf' yet: on a socket, pipe or terminal" in err
    assert "read with fscanf or fgets, which --posix makes suspend" in err


MASK_LIBRARY = r"""
/* Built on its own with plain cc: its popen and system are caught at the link. */
#include <stdio.h>
#include <stdlib.h>
FILE *lib_popen(const char *command) { return popen(command, "r"); }
int lib_system(const char *command) { return system(command); }
"""

USES_MASK_LIBRARY = r"""
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
FILE *lib_popen(const char *command);
int lib_system(const char *command);

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    sigset_t usr1;
    sigemptyset(&usr1);
    sigaddset(&usr1, SIGUSR1);
    sigprocmask(SIG_BLOCK, &usr1, NULL);
    char line[64] = "";
    FILE *fp = lib_popen("exec grep SigBlk /proc/self/status");
    if (!fp || !fgets(line, sizeof line, fp))
        return 1;
    printf("popen's command %s", line);
    printf("pclose: exited %d\n", WEXITSTATUS(pclose(fp)));
    printf("system: exited %d\n", WEXITSTATUS(lib_system("printf \"system's command \"; "
                                                         "exec grep SigBlk /proc/self/status")));
    return 0;
}
"""


@pytest.mark.parametrize("backend", ("rip", "ucontext"))
def test_a_library_s_popen_and_system_run_under_the_caller_s_signal_mask(tmp_path, ripcc,
                                                                          backend):
    """lib.o's popen and system, called in a task with SIGUSR1 blocked: the
    command inherits that mask (SigBlk 0x200), not the offload pool
    thread's, which blocks every signal (rip runs the caught call there)."""
    out = run_with_library(tmp_path, ripcc, backend, MASK_LIBRARY, USES_MASK_LIBRARY,
                           ("popen", "system"))
    assert out == ("popen's command SigBlk:\t0000000000000200\npclose: exited 0\n"
                   "system's command SigBlk:\t0000000000000200\nsystem: exited 0\n")

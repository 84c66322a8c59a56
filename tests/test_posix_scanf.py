"""POSIX mode's scanf family (ripcc --posix, issue 22 point 1, stdio):
fscanf on a pipe that must wait suspends only its task, on rip and
ucontext, and a prompt on a terminal shows before scanf reads.

tests/posix/stdio_scanf.c and stdio_scanf_shared.c show that results,
errno, the bytes left in the stream and the flags are the plain build's
(tests/test_posix.py compares them); with one task a scanf that blocked
the whole thread would print the same, so here a second task ticks while
main waits in fscanf for a number sent in two pieces."""
import pytest

from conftest import run

WAITS = r"""
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

static volatile int ticks;

static void *ticker(void *arg) {
    (void)arg;
    for (int i = 0; i < 30; i++) {
        ticks++;
        usleep(10000);
    }
    return NULL;
}

int main(void) {
    int p[2];
    if (pipe(p) != 0)
        return 1;
    fflush(stdout);
    if (fork() == 0) {              /* the peer: "12" 200 ms late, "3 x" 100 ms later */
        usleep(200000);
        if (write(p[1], "12", 2) != 2)
            _exit(1);
        usleep(100000);
        _exit(write(p[1], "3 x\n", 4) != 4);
    }
    close(p[1]);
    pthread_t t;
    pthread_create(&t, NULL, ticker, NULL);
    FILE *in = fdopen(p[0], "r");
    int n = 0;
    int r = fscanf(in, "%d", &n);
    int seen = ticks;
    printf("fscanf %d: %d; the ticker %s\n", r, n, seen >= 10 ? "ran meanwhile" : "was blocked");
    printf("left: %c", getc(in));
    printf("%c\n", getc(in));
    pthread_join(t, NULL);
    return 0;
}
"""


@pytest.mark.parametrize("backend", ("rip", "ucontext"))
def test_a_task_waiting_in_fscanf_lets_the_others_run(tmp_path, ripcc, backend):
    """main waits 300 ms in fscanf("%d") for "12" then "3 x"; the
    ticker thread (a task) runs meanwhile, and the space after 123 is
    left in the stream, as glibc leaves it."""
    src = tmp_path / "waits.c"
    src.write_text(WAITS)
    exe = ripcc(str(src), backend, extra=["--posix"])
    r = run([exe], timeout=20)
    assert r.returncode == 0, r.stderr.decode()
    assert r.stdout.decode() == "fscanf 1: 123; the ticker ran meanwhile\nleft:  x\n"


PROMPT = r"""
#include <stdio.h>
int main(void) {
    char name[16];
    int age;
    printf("name and age? ");
    if (scanf("%15s %d", name, &age) != 2)
        return 1;
    printf("hello %s, %d\n", name, age);
    return 0;
}
"""


@pytest.mark.parametrize("backend", ("rip", "ucontext"))
def test_a_prompt_on_a_terminal_shows_before_scanf_reads(tmp_path, ripcc, backend):
    """stdin and stdout a terminal: glibc writes stdout's pending prompt
    before scanf reads stdin, and so does POSIX mode (else the user
    would never see the question: here the test would wait); the answer
    comes in two lines, so scanf waits twice."""
    import os
    import pty
    import select
    import subprocess
    src = tmp_path / "prompt.c"
    src.write_text(PROMPT)
    exe = ripcc(str(src), backend, extra=["--posix"])
    master, slave = pty.openpty()
    proc = subprocess.Popen([exe], stdin=slave, stdout=slave, stderr=subprocess.PIPE)
    os.close(slave)

    def read_until(text):
        seen = b""
        while text not in seen:
            ready, _, _ = select.select([master], [], [], 10)
            assert ready, "no %r on the terminal, only %r" % (text, seen)
            seen += os.read(master, 1024)
        return seen
    try:
        read_until(b"name and age? ")
        os.write(master, b"bob\n")
        os.write(master, b"42\n")
        assert b"hello bob, 42" in read_until(b"hello bob, 42")
        assert proc.wait(timeout=10) == 0, proc.stderr.read().decode()
    finally:
        proc.kill()
        proc.wait()
        proc.stderr.close()
        os.close(master)


PRE_C99 = ('#define _GNU_SOURCE\n#include <stdio.h>\n'
           'int main(void) { char *s = 0; return fscanf(stdin, "%as", &s); }\n')


@pytest.mark.parametrize("std,refused", [("gnu89", True), ("gnu99", False)])
def test_a_pre_c99_scanf_is_refused_not_converted_as_c99(tmp_path, std, refused):
    """C89 with _GNU_SOURCE gives glibc's scanf from before C99, whose %as
    allocates a string where C99's reads a float: --posix runs C99's on
    rip, so that file is an error; from C99 on its fscanf is ripped."""
    from conftest import RIPPER
    src = tmp_path / "p.c"
    src.write_text(PRE_C99)
    out = tmp_path / "p.rip.c"
    r = run([RIPPER, "--posix", str(src), "-o", str(out), "--", "-std=" + std])
    if refused:
        assert r.returncode == 1
        assert "p.c:3:38: error: 'fscanf' is the C library's scanf from before C99 here" \
            in r.stderr.decode(), r.stderr.decode()
    else:
        assert r.returncode == 0, r.stderr.decode()
        assert "rip_posix_fscanf" in out.read_text()

"""POSIX mode's stdio (ripcc --posix, issue 22 point 1): a stdio call on a
socket or pipe that must wait suspends only its task, on rip and ucontext.

tests/posix/stdio_read.c and stdio_write.c show that the bytes, results
and flags are the plain build's (tests/test_posix.py compares them); with
one task a call that blocked the whole thread would print the same, so
here a second task ticks while main waits in fgets, getline, fgetc, fread
(a peer process sends 200 ms late), in fwrite or dprintf (a peer that
starts reading 200 ms late) or in a stdin read; and two tasks writing to one stream keep
each call's bytes together."""
import pytest

from conftest import run

WAITS = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "rip.h"

#define BIG (1 << 20)

static void ticker(void *arg) {
    (void)arg;
    for (int i = 0; i < 3; i++) {
        printf("tick %d\n", i);
        usleep(10000);
    }
}

int main(void) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
        return 1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {                 /* the peer: 200 ms late, both ways */
        close(sv[0]);
        usleep(200000);
        if (write(sv[1], "late line\n", 10) != 10)
            _exit(1);
        char *sink = malloc(BIG);
        ssize_t n;
        size_t total = 0;
        while (total < BIG && (n = read(sv[1], sink, BIG)) > 0)
            total += (size_t)n;
        _exit(total != BIG);
    }
#ifdef USE_STDIN
    int p[2];
    if (pipe(p) != 0 || dup2(p[0], 0) != 0)
        return 1;
    if (fork() == 0) {
        usleep(200000);
        _exit(write(p[1], "stdin line\n", 11) != 11);
    }
    close(p[1]);
#endif
    close(sv[1]);
    FILE *f = fdopen(sv[0], "r+");
    char line[64] = "";
    volatile int size = sizeof line, ten = 10; /* not constants: _FORTIFY_SOURCE checks them */
    (void)line, (void)size, (void)ten;
    rip_spawn(ticker, NULL);
#if defined USE_FGETS
    printf("fgets: %s", fgets(line, size, f));
#elif defined USE_GETLINE
    char *l = NULL;
    size_t cap = 0;
    printf("getline: %zd\n", getline(&l, &cap, f));
    free(l);
#elif defined USE_FGETC
    printf("fgetc: %c\n", fgetc(f));
#elif defined USE_FREAD
    printf("fread: %zu\n", fread(line, 1, (size_t)ten, f));
#elif defined USE_STDIN
    printf("stdin: %s", fgets(line, sizeof line, stdin));
#elif defined USE_DPRINTF
    char *text = malloc(BIG + 1);
    memset(text, 'a', BIG);
    text[BIG] = '\0';
    printf("dprintf: %d\n", dprintf(sv[0], "%s", text));
    free(text);
#else
    char *big = calloc(1, BIG);
    printf("fwrite: %zu\n", fwrite(big, 1, BIG, f));
    free(big);
#endif
    fclose(f);
    int status;
    waitpid(pid, &status, 0);
    return 0;
}
"""
WAITED = {"fgets": "fgets: late line\n", "getline": "getline: 10\n", "fgetc": "fgetc: l\n",
          "fread": "fread: 10\n", "stdin": "stdin: stdin line\n", "fwrite": "fwrite: 1048576\n",
          "dprintf": "dprintf: 1048576\n"}


@pytest.mark.parametrize("call", sorted(WAITED) + ["fgets-fortified", "fread-fortified"])
@pytest.mark.parametrize("backend", ("rip", "ucontext"))
def test_a_waiting_stdio_call_suspends_only_its_task(tmp_path, ripcc, backend, call):
    """main waits 200 ms in the stdio call; the task it spawned ticks
    meanwhile (a call that blocked the thread would print the ticks after).
    -fortified: built with _FORTIFY_SOURCE, which calls __fgets_chk,
    __fread_chk and __printf_chk instead (ucontext wraps those)."""
    src = tmp_path / "waits.c"
    src.write_text(WAITS)
    name = call.split("-")[0]
    fortify = ["-U_FORTIFY_SOURCE", "-D_FORTIFY_SOURCE=2"] if call.endswith("fortified") else []
    exe = ripcc(str(src), backend, extra=["--posix", "-DUSE_" + name.upper()] + fortify)
    if fortify and backend == "ucontext":     # the object calls the _chk forms
        from conftest import CFLAGS, RIPCC
        obj = str(tmp_path / "waits.o")
        assert run([RIPCC, "--posix", "--backend=ucontext", "-c"] + CFLAGS + fortify +
                   ["-DUSE_" + name.upper(), str(src), "-o", obj]).returncode == 0
        undefined = run(["nm", "-u", obj]).stdout.decode().split()
        assert "__%s_chk" % name in undefined and "__printf_chk" in undefined
    r = run([exe], timeout=20)
    assert r.returncode == 0, r.stderr.decode()
    assert r.stdout.decode() == "tick 0\ntick 1\ntick 2\n" + WAITED[name]


TOGETHER = r"""
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include "rip.h"

#define BIG (1 << 20)
static FILE *out;

static void second(void *arg) {
    (void)arg;
    fputs("SECOND", out);           /* while main's fwrite waits for the peer */
}

int main(void) {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0)
        return 1;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {                 /* the peer reads late; says where SECOND came */
        close(sv[0]);
        usleep(200000);
        char *all = malloc(BIG + 4096);
        size_t total = 0;
        ssize_t n;
        while ((n = read(sv[1], all + total, BIG + 4096 - total)) > 0)
            total += (size_t)n;
        char *s = memmem(all, total, "SECOND", 6);
        printf("peer: %zu bytes, SECOND at %ld\n", total, s ? (long)(s - all) : -1L);
        fflush(stdout);
        _exit(0);
    }
    close(sv[1]);
    out = fdopen(sv[0], "w");
    char *big = malloc(BIG + 100);  /* whole blocks go straight out, the rest to the buffer */
    memset(big, 'a', BIG + 100);
    rip_spawn(second, NULL);
    printf("fwrite: %zu\n", fwrite(big, 1, BIG + 100, out));
    fflush(stdout);
    rip_sleep_ms(50);               /* second's call goes on */
    fclose(out);
    free(big);
    int status;
    waitpid(pid, &status, 0);
    return 0;
}
"""


@pytest.mark.parametrize("backend", ("rip", "ucontext"))
def test_a_stream_is_held_by_the_call_that_waits_on_it(tmp_path, ripcc, backend):
    """A task's fputs to a stream whose fwrite (another task's) waits for
    the peer goes after the whole fwrite, as glibc's lock orders threads
    (unheld, it would land in the buffer before the fwrite's last bytes)."""
    src = tmp_path / "together.c"
    src.write_text(TOGETHER)
    exe = ripcc(str(src), backend, extra=["--posix"])
    r = run([exe], timeout=20)
    assert r.returncode == 0, r.stderr.decode()
    assert r.stdout.decode() == "fwrite: 1048676\npeer: 1048682 bytes, SECOND at 1048676\n"


PROMPT = r"""
#include <stdio.h>
int main(void) {
    char line[64];
    printf("name? ");
    if (!fgets(line, sizeof line, stdin))
        return 1;
    printf("hello %s", line);
    return 0;
}
"""


@pytest.mark.parametrize("backend", ("rip", "ucontext"))
def test_a_prompt_on_a_terminal_shows_before_the_read(tmp_path, ripcc, backend):
    """stdin and stdout a terminal: glibc writes stdout's pending prompt
    before it reads stdin (both line-buffered), and so does POSIX mode, or
    the user would never see the question (here: the test would wait)."""
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
        read_until(b"name? ")
        os.write(master, b"bob\n")
        assert b"hello bob" in read_until(b"hello bob")
        assert proc.wait(timeout=10) == 0, proc.stderr.read().decode()
    finally:
        proc.kill()
        proc.wait()
        proc.stderr.close()
        os.close(master)


def ripper_posix(tmp_path, source):
    """ripper --posix on `source`: (exit status, ripped text, stderr)."""
    from conftest import RIPPER
    src = tmp_path / "p.c"
    src.write_text(source)
    out = tmp_path / "p.rip.c"
    r = run([RIPPER, "--posix", str(src), "-o", str(out)])
    return r.returncode, out.read_text() if out.exists() else "", r.stderr.decode()


SORTED = """
#include <stdio.h>
#include <stdlib.h>
static void answer(FILE *f) { fputs("hi\\n", f); }
static void shared(void) { printf("shared\\n"); }
static int by_value(const void *a, const void *b) {
    answer(stdout); shared();
    return *(const int *)a - *(const int *)b;
}
int main(void) {
    int v[3] = {3, 1, 2};
    shared();
    printf("m\\n");
    qsort(v, 3, sizeof v[0], by_value);
    return v[0] != 1;
}
"""


def test_what_only_a_plain_pointers_function_calls_stays_plain(tmp_path):
    """A function called through a plain pointer (a qsort comparator) runs
    where it is called: what it calls stays plain, its stdio the
    library's, even where main calls it too (one definition cannot be
    both); main's own printf suspends."""
    status, text, err = ripper_posix(tmp_path, SORTED)
    assert status == 0, err
    assert "rip__new_answer" not in text and "rip__new_by_value" not in text
    assert "rip__new_shared" not in text and "rip__new_rip_posix_printf(\"m\\n\")" in text


def test_a_variadic_logging_helper_is_ripped(tmp_path):
    """A variadic function is ripped like any other: its vfprintf suspends
    (the runtime formats the va_list at the call), and so does a read."""
    helper = ("#include <stdarg.h>\n#include <stdio.h>\n#include <unistd.h>\n"
              "static int say(const char *fmt, ...) { va_list ap; va_start(ap, fmt);\n"
              "    int n = vfprintf(stdout, fmt, ap); va_end(ap); %s return n; }\n"
              "int main(void) { return say(\"%%d\\n\", 1) < 0; }\n")
    for extra in ("", "char c; n += (int)read(0, &c, 1);"):
        status, text, err = ripper_posix(tmp_path, helper % extra)
        assert status == 0, err
        assert "rip__new_say" in text and "rip__new_rip_posix_vfprintf(" in text

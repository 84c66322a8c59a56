"""ripper/blocking.py: which plain blocking calls in async functions are
reported, where, and with what hint (the commands' side is in test_cli.py)."""
import re
import subprocess

from ripper import blocking
from ripper.analysis import Analysis
from ripper.parse import parse
from ripper.preprocess import preprocess

from conftest import RIPPER

HEAD = b'#include <fcntl.h>\n#include <stdio.h>\n#include <sys/socket.h>\n#include <unistd.h>\n' \
    b'#include "rip.h"\n'


def found(tmp_path, code, all_async=False, how="warn"):
    """[(line, col, message)] of the check on a file of HEAD + `code` (the
    lines of `code` count from 1)."""
    path = tmp_path / "b.c"
    path.write_bytes(HEAD + code)
    unit = parse(preprocess(str(path), HEAD + code))
    first = HEAD.count(b"\n")
    return [(d.line - first, d.col, d.message)
            for d in blocking.check(unit, Analysis(unit, all_async), how)]


def test_a_direct_call_in_an_async_function_is_found_at_its_name(tmp_path):
    assert found(tmp_path, b"void task(void *a) {\n  rip_yield(); (void)a; sleep(1);\n}\n") == [
        (2, 25, "'sleep' blocks the whole scheduler in async function 'task'")]


def test_a_call_a_macro_expands_to_is_found_at_the_macro_once_per_use(tmp_path):
    code = b"#define NAP() (rip_yield(), sleep(1))\nvoid task(void *a) {\n  (void)a;\n" \
           b"  NAP(); NAP();\n  NAP();\n}\n"
    message = "'sleep' (in the expansion of macro 'NAP') blocks the whole scheduler in " \
        "async function 'task'"
    assert found(tmp_path, code) == [(4, 3, message), (4, 10, message), (5, 3, message)]


def test_a_call_in_a_plain_function_is_not_reported(tmp_path):
    assert found(tmp_path, b"void helper(void) { sleep(1); }\n"
                           b"void task(void *a) { (void)a; rip_yield(); helper(); }\n") == []


def test_a_users_own_function_named_like_libcs_is_not_reported(tmp_path):
    code = b"ssize_t read(int fd, void *buf, size_t n) { (void)fd; (void)buf; return n; }\n" \
           b"void task(void *a) { char b[4]; rip_yield(); read(0, b, 4); (void)a; }\n"
    assert found(tmp_path, code) == []


def test_a_call_in_sizeof_is_not_reported(tmp_path):
    assert found(tmp_path, b"void task(void *a) { rip_yield(); (void)a; "
                           b"(void)sizeof(sleep(1)); }\n") == []


def test_all_async_checks_nothing(tmp_path):
    assert found(tmp_path, b"void task(void *a) { rip_yield(); (void)a; sleep(1); }\n",
                 all_async=True) == []


def test_off_checks_nothing_and_error_reports_errors(tmp_path):
    code = b"void task(void *a) { rip_yield(); (void)a; sleep(1); }\n"
    assert found(tmp_path, code, how="off") == []
    unit = parse(preprocess(str(tmp_path / "b.c"), HEAD + code))
    assert [d.severity for d in blocking.check(unit, Analysis(unit), "error")] == ["error"]


def test_fcntl_only_when_it_waits_for_a_lock(tmp_path):
    code = b"void task(int fd, struct flock *l) {\n  rip_yield();\n" \
           b"  fcntl(fd, F_SETLK, l);\n  fcntl(fd, F_SETLKW, l);\n}\n"
    assert [f[0] for f in found(tmp_path, code)] == [4]


def test_a_socket_call_told_not_to_wait_is_not_reported(tmp_path):
    code = b"void task(int fd, char *b) {\n  rip_yield();\n" \
           b"  send(fd, b, 1, MSG_DONTWAIT | MSG_NOSIGNAL);\n  send(fd, b, 1, 0);\n}\n"
    assert [f[0] for f in found(tmp_path, code)] == [4]


def test_output_stdio_is_not_reported_input_stdio_is(tmp_path):
    code = b"void task(char *b) {\n  rip_yield();\n  printf(\"x\"); fputs(b, stdout); " \
           b"fflush(stdout);\n  fgets(b, 4, stdin);\n}\n"
    assert [f[0] for f in found(tmp_path, code)] == [4]


def test_every_hint_names_what_to_do_instead():
    for name in blocking.HINT_OF:
        assert re.search(r"\brip_\w+", blocking.hint(name)), name
    assert "rip_sleep_ms" in blocking.hint("sleep")
    assert "all len bytes" in blocking.hint("write")
    assert "rip_offload(fn, arg)" in blocking.hint("waitpid")
    assert "close" not in blocking.HINT_OF


def test_hints_mention_posix_mode_exactly_when_ripper_has_it():
    has_posix = b"--posix" in subprocess.run([RIPPER, "--help"], capture_output=True).stdout
    assert ("--posix" in blocking.hint("read")) == has_posix


def test_the_last_option_of_each_kind_wins_as_with_gcc():
    assert blocking.mode([]) == "warn"
    assert blocking.mode(["-Werror=blocking"]) == "error"
    assert blocking.mode(["-Wno-blocking", "-Werror=blocking"]) == "error"
    assert blocking.mode(["-Werror=blocking", "-Wno-blocking"]) == "off"
    assert blocking.mode(["-Werror=blocking", "-Wno-error=blocking"]) == "warn"
    assert blocking.mode(["-Werror"]) == "warn"
    assert blocking.mode(["-w", "-Werror=blocking"]) == "off"      # -w wins, as in gcc
    assert blocking.mode(["-Werror=blocking", "-w"]) == "off"

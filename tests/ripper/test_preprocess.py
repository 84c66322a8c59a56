"""ripper/preprocess.py: the file as the user's compiler preprocesses it,
and where each byte of that came from."""
import os

import pytest

from ripper.diag import Diagnostic
from ripper.preprocess import LineMap, preprocess, start_preprocess


def test_the_compilers_own_predefined_macros_decide_the_branch():
    src = b"#ifdef __OPTIMIZE__\nint optimized;\n#else\nint plain;\n#endif\n"
    assert b"int optimized;" in preprocess("<stdin>", src, ["-O2"]).text
    assert b"int plain;" in preprocess("<stdin>", src, ["-O0"]).text


def test_the_users_flags_reach_the_preprocessor():
    src = b"int x = VALUE;\n#ifdef GONE\nint gone;\n#endif\n"
    text = preprocess("<stdin>", src, ["-DVALUE=42", "-DGONE", "-UGONE"]).text
    assert b"int x = 42;" in text and b"gone" not in text


FALLS_THROUGH = b"int f(int x) { switch (x) { case 1: x++; /* fall through */ case 2: x++; } return x; }\n"


def test_comments_are_kept_for_the_compilers_fallthrough_warning():
    for flags in (["-Wextra"], ["-W"], ["-Wimplicit-fallthrough"], ["-Wimplicit-fallthrough=3"],
                  ["-Wno-implicit-fallthrough", "-Wimplicit-fallthrough"],
                  ["-Werror=implicit-fallthrough"],
                  ["-Wimplicit-fallthrough", "-Wno-extra"]):
        assert b"/* fall through */" in preprocess("<stdin>", FALLS_THROUGH, flags).text, flags


def test_without_the_fallthrough_warning_comments_are_dropped_and_the_warning_off():
    """One preprocessor run, a text a third as long: and a file ripped
    without -Wextra, then compiled with it, must not warn."""
    for flags in ([], ["-Wall"], ["-Wextra", "-Wno-implicit-fallthrough"],
                  ["-Wimplicit-fallthrough=0", "-Wextra"], ["-Wextra", "-Wno-extra"]):
        running = start_preprocess("<stdin>", FALLS_THROUGH, flags)
        assert len(running.runs.procs) == 1, flags
        text = running.result().text
        assert b"/* fall through */" not in text, flags
        assert text.startswith(b'#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"'), flags


def test_a_comment_before_a_directive_drops_comments_rather_than_the_directive():
    src = b"/* c */ #define A 1\nint v = A;\n"
    assert b"int v = 1;" in preprocess("<stdin>", src, ["-Wextra"]).text


def test_the_frame_abi_comes_first_and_includes_nothing():
    text = preprocess("<stdin>", b"int x;\n").text
    assert b"struct rip__frame {" in text
    assert b"stdint.h" not in text and b"sys/socket.h" not in text


def test_a_preprocessor_error_is_a_diagnostic_at_its_place(tmp_path):
    src = tmp_path / "bad.c"
    src.write_bytes(b"int a;\n#include \"missing.h\"\n")
    with pytest.raises(Diagnostic) as e:
        preprocess(str(src), src.read_bytes())
    assert (e.value.path, e.value.line) == (str(src), 2)
    assert "missing.h" in e.value.message


def test_linemap_names_the_users_file_and_line_through_linemarkers():
    text = b'# 1 "a.c"\nint x;\n# 7 "b.h" 1 3 4\nint y;\n# 3 "a.c" 2\nint z;\n'
    lines = LineMap(text, "a.c")
    assert lines.where(text.index(b"x")) == ("a.c", 1, "")
    assert lines.where(text.index(b"y")) == ("b.h", 7, "3 4")
    assert lines.in_system_header(text.index(b"y"))
    assert lines.where(text.index(b"z")) == ("a.c", 3, "")


def test_linemap_finds_the_column_in_the_users_own_line(tmp_path):
    src = tmp_path / "spaced.c"
    src.write_bytes(b"int   a  =   1;\n")
    pre = preprocess(str(src), src.read_bytes())
    assert pre.lines.column(pre.text.rindex(b"1;")) == 14      # respaced by cc -E


def test_ripcc_cc_is_the_compiler_it_preprocesses_with(monkeypatch):
    monkeypatch.setenv("RIPCC_CC", "no-such-compiler-here")
    with pytest.raises(Diagnostic) as e:
        preprocess("<stdin>", b"int x;\n")
    assert "RIPCC_CC" in e.value.message or "C compiler" in e.value.message
    monkeypatch.setenv("RIPCC_CC", os.environ.get("CC", "cc"))


def test_a_comment_in_a_stringified_macro_argument_drops_comments():
    """gcc's -C puts the comment into the string (and unescaped): the
    program would print something else than it does."""
    src = b'#define S(x) #x\nconst char *s = S(a(/* "q" */ 1));\n'
    text = preprocess("<stdin>", src, ["-Wextra"]).text
    assert b'"a( 1)"' in text


def test_without_a_thread_to_be_had_the_text_is_settled_in_the_caller(monkeypatch):
    import threading

    def refuse(self):
        raise RuntimeError("can't start new thread")
    monkeypatch.setattr(threading.Thread, "start", refuse)
    assert b"/* fall through */" in preprocess("<stdin>", FALLS_THROUGH, ["-Wextra"]).text
    assert preprocess("<stdin>", FALLS_THROUGH).text.count(b"x++") == 2


def test_linemap_reads_octal_escapes_in_clangs_linemarkers():
    """clang writes a UTF-8 file name's bytes as octal escapes (gcc as
    they are): both name the same file."""
    for raw in (b'# 1 "inc-\\303\\251/u.h"\nint x;\n', '# 1 "inc-\u00e9/u.h"\nint x;\n'.encode()):
        lm = LineMap(raw, "a.c")
        assert lm.where(raw.index(b"x"))[:2] == ("inc-\u00e9/u.h", 1)
    lm = LineMap(b'# 3 "a\\\\b\\"c.h"\nint y;\n', "a.c")
    assert lm.where(lm.text.index(b"y"))[:2] == ('a\\b"c.h', 3)

"""ripper/analysis.py: which functions are async, why, and what keeps a
function from being ripped."""
from helpers import unit_of
from ripper.analysis import Analysis, unrippable

HEAD = b'#include "rip.h"\n'


def analysis(code, all_async=False):
    return Analysis(unit_of(HEAD + code), all_async)


def test_a_caller_of_an_async_function_is_async_through_the_call_graph():
    a = analysis(b"static int leaf(void) { rip_yield(); return 1; }\n"
                 b"static int mid(void) { return leaf(); }\n"
                 b"int top(void) { return mid() + 1; }\n"
                 b"int plain(int x) { return x; }\n")
    assert {"leaf", "mid", "top"} <= a.names and "plain" not in a.names
    assert "mid" in a.chain("top") and "rip_yield" in a.chain("top")


def test_a_function_declared_but_not_defined_is_async_only_when_marked():
    a = analysis(b"int ext(int);\nRIP_ASYNC int marked(int);\n"
                 b"int f(void) { return ext(1); }\nint g(void) { return marked(1); }\n")
    assert "marked" in a.names and "g" in a.names
    assert "ext" not in a.names and "f" not in a.names


def test_all_async_makes_every_defined_function_async_until_made_plain():
    a = analysis(b"int f(int x) { return x; }\nint g(void) { return f(1); }\n", all_async=True)
    assert {"f", "g"} <= a.names
    a.make_plain("f", "a reason")
    assert "f" not in a.names and a.plain["f"] == "a reason"


def test_a_variadic_async_function_can_be_ripped():
    unit = unit_of(HEAD + b"int v(int n, ...) { rip_yield(); return n; }\n")
    assert unrippable(unit.definitions["v"], unit.lines) is None


def test_setjmp_in_an_async_function_cannot_be_ripped():
    unit = unit_of(HEAD + b"#include <setjmp.h>\nstatic jmp_buf jb;\n"
                   b"int s(void) { if (setjmp(jb)) return 1; rip_yield(); return 0; }\n")
    assert "setjmp" in unrippable(unit.definitions["s"], unit.lines)[1]

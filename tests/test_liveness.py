"""Frames hold only what is live across a suspension (ripper/liveness.py)."""
import pytest

from ripper.analysis import find_async, is_async_call
from ripper.liveness import frame_variables
from ripper.parse import parse

HEAD = b'#include "rip.h"\nRIP_ASYNC int f(int);\nint use(int);\n'


def frame_names(body):
    """Names of the locals of task() that must live in its frame."""
    src = HEAD + b"static void task(void *arg) {\n(void)arg;\n" + body + b"\n}\n"
    unit = parse("t.c", src)
    names = find_async(unit)
    fn = next(f for f in unit.functions if f.name == "task" and f.body)
    locals_ = {n.key: n for n in fn.body.walk() if n.kind == "VAR_DECL"}
    keys = frame_variables(fn.body, {k: n.type for k, n in locals_.items()},
                           lambda c: is_async_call(c, names))
    return sorted(locals_[k].name for k in keys)


@pytest.mark.parametrize("body,expected", [
    # written and read between suspensions: a C local
    (b"int t = use(1); use(t); f(0);", []),
    # read after the suspension: frame
    (b"int t = use(1); f(0); use(t);", ["t"]),
    # the call's result lands in it after the suspension: a C local
    (b"int n; n = f(1); use(n);", []),
    (b"int n = f(1); use(n);", []),
    # its old value is read in the next iteration: frame
    (b"int sum = 0; for (int i = 0; i < 3; i++) { sum += i; f(0); } use(sum);", ["i", "sum"]),
    # address taken, arrays: frame whatever the flow
    (b"int x = 1; int *p = &x; use(*p);", ["x"]),
    (b"char buf[8]; buf[0] = 0; use(buf[0]);", ["buf"]),
    # a value carried by a backward goto across a suspension: frame
    (b"int k = 0; again: f(k); if (use(k++)) goto again;", ["k"]),
    # a switch case that falls into a read after a suspension: frame
    (b"int v = use(0); switch (v) { case 0: f(0); case 1: use(v); }", ["v"]),
    # declarators are in order: t is written before the suspension in u's initializer
    (b"int t = use(1), u = f(t); use(t + u);", ["t"]),
    # written on both branches after the suspension before any read: a C local
    (b"int w; f(0); if (use(1)) w = 1; else w = 2; use(w);", []),
])
def test_frame_holds_exactly_the_variables_live_across_a_suspension(body, expected):
    assert frame_names(body) == expected

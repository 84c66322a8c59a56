"""Frames hold only what is live across a suspension (ripper/liveness.py)."""
import pytest

from helpers import HEAD, normalized
from ripper import tree as T
from ripper.liveness import frame_variables


def frame_names(body):
    """Names of the locals (and temporaries) of task() that must live in its frame."""
    src = HEAD + b"static void task(void *arg) {\n(void)arg;\n" + body + b"\n}\n"
    fn, _, norm = normalized(src, "task")
    locals_ = {n.key: n for n in fn.body.walk() if isinstance(n, T.VarDecl)}
    candidates = {k: n.ctype for k, n in locals_.items()}
    candidates.update({t.key: t.ctype for t in norm.temps})
    keys = frame_variables(norm.body, candidates)
    names = {k: n.name for k, n in locals_.items()}
    names.update({t.key: "temp" for t in norm.temps})
    return sorted(names[k] for k in keys)


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
    # read in a while loop's next round, after this round's suspension: frame
    (b"int t = use(1); while (use(2)) { use(t); f(0); }", ["t"]),
    # read in a case the switch after the suspension may jump to: frame
    (b"int t = use(1); f(0); switch (use(2)) { case 1: use(t); break; default: break; }",
     ["t"]),
    # a switch case that falls into a read after a suspension: frame
    (b"int v = use(0); switch (v) { case 0: f(0); case 1: use(v); }", ["v"]),
    # declarators are in order: t is written before the suspension in u's initializer
    (b"int t = use(1), u = f(t); use(t + u);", ["t"]),
    # written on both branches after the suspension before any read: a C local
    (b"int w; f(0); if (use(1)) w = 1; else w = 2; use(w);", []),
    # a temporary that holds an operand across a later call: frame
    (b"use(use(1) + f(2));", ["temp"]),
    # a temporary read right after its call: a C local
    (b"use(f(2) + 1);", []),
    # live only along a goto out of a statement expression
    (b"int e = use(9); f(0); int r = ({ if (use(2)) goto out; 1; }); use(r); return; "
     b"out: use(e);", ["e"]),
    # a sizeof of a variably modified type reads its size
    (b"int n = use(3); f(0); use(sizeof(int[n]));", ["n"]),
    # an ordinary sizeof reads nothing
    (b"int n = use(3); f(0); use(sizeof n);", []),
])
def test_frame_holds_exactly_the_variables_live_across_a_suspension(body, expected):
    assert frame_names(body) == expected

"""ripper/lower.py: the driver of the passes after analysis."""
from helpers import unit_of
from ripper import lower as L
from ripper.analysis import Analysis

# three functions lowering finds it cannot rip (an async call inside
# _Generic): --all-async leaves them plain
GENERIC = b"static int f(int x) { return x + 1; }\n" + b"".join(
    b"int g%d(void) { return _Generic(f(1), int: f(2), default: 0); }\n" % i for i in range(3))


def test_all_async_leaves_every_unrippable_function_plain_in_one_pass(monkeypatch):
    """The unit is lowered twice however many functions stay plain (it
    was once per function: sqlite3.c, with 48, took minutes more)."""
    runs = []
    real = L._Lowering.run
    monkeypatch.setattr(L._Lowering, "run", lambda self: runs.append(1) or real(self))
    unit = unit_of(GENERIC)
    analysis = Analysis(unit, True)
    L.lower(unit, analysis, all_async=True)
    assert sorted(analysis.plain) == ["g0", "g1", "g2"] and len(runs) == 2


def test_a_pass_that_leaves_functions_plain_is_freed_before_the_next():
    """With the collector off, as ripper rips, the first --all-async pass
    is freed before the second runs (a caught Diagnostic's traceback held
    all of it: SQLite's took some 100 MB to the end), and keep=False keeps
    no function's normalized tree or layout."""
    import gc
    unit = unit_of(GENERIC)
    analysis = Analysis(unit, True)
    gc.collect()
    gc.disable()
    try:
        rw = L.lower(unit, analysis, all_async=True, keep=False)
        passes = [o for o in gc.get_objects() if isinstance(o, L._Lowering)]
        assert passes == [rw.lowering] and rw.lowering.ripped == {}
    finally:
        gc.enable()

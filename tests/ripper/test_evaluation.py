"""ripper/evaluation.py: which operands C evaluates (and ripper's order)."""
from helpers import function
from ripper.evaluation import calls, evaluated, unevaluated_calls


def stmt(code):
    _, fn = function(b"int h(int);\nvoid t(int n) {\n" + code + b"\n}\n", "t")
    return fn.body.items[0]


def called(code):
    return [c.args[0].start for c in calls(stmt(code))]


def never(code):
    return len(unevaluated_calls(stmt(code)))


def test_calls_in_sizeof_typeof_and_types_compatible_are_never_made():
    assert never(b"(void)sizeof h(1);") == 1
    assert never(b"(void)(__typeof__(h(2)))3;") == 1
    assert never(b"(void)__builtin_types_compatible_p(__typeof__(h(3)), int);") == 1
    assert never(b"(void)__builtin_classify_type(h(4));") == 1
    assert never(b"(void)(__typeof__(h(5))){7};") == 1


def test_a_call_in_a_variably_modified_sizeof_is_made():
    assert len(called(b"(void)sizeof(char[h(1)]);")) == 1


def test_operands_run_left_to_right_with_the_callee_first():
    s = stmt(b"n = h(1) + h(2) * h(3);")
    order = [c.args[0] for c in calls(s)]
    assert [o.start for o in order] == sorted(o.start for o in order)


def test_designators_are_constants_and_not_evaluated():
    s = stmt(b"int a[4] = { [1 + 1] = h(1) };")
    item = s.decls[0].init.items[0]
    assert evaluated(item) == [item.value]

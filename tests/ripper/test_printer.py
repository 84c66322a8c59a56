"""ripper/printer.py: how tightly each expression binds, and the
parentheses an expression gets where it is printed (Printer.expr)."""
from helpers import function, unit_of
from ripper.analysis import Analysis
from ripper.lower import lower
from ripper import printer as P
from ripper import tree as T


def expr(code):
    """The tree of expression `code` (in a function with int x, y, *p)."""
    _, fn = function(b"int g(int);\nint t(int x, int y, int *p) {\n return " + code +
                     b";\n}\n", "t")
    return fn.body.items[0].value


def test_precedence_follows_c_grammar_loosest_first():
    assert P.precedence(expr(b"x, y")) == P.COMMA
    assert P.precedence(expr(b"x = y")) == P.ASSIGN
    assert P.precedence(expr(b"x ? y : 1")) == P.CONDITIONAL
    assert P.precedence(expr(b"x || y")) < P.precedence(expr(b"x && y"))
    assert P.precedence(expr(b"x + y")) < P.precedence(expr(b"x * y"))
    assert P.precedence(expr(b"-x")) == P.UNARY
    assert P.precedence(expr(b"g(x)")) == P.POSTFIX
    assert P.precedence(expr(b"(x, y)")) == P.PRIMARY


def test_generated_code_binds_as_its_node_does():
    t = T.TempRef(T.Temp("rip__t1", None, "int"))
    assert P.precedence(T.NoValue()) == P.UNARY
    assert P.precedence(t) == P.PRIMARY
    assert P.precedence(T.Discard(t)) == P.UNARY
    assert P.precedence(T.Unary(t, "!")) == P.UNARY
    assert P.precedence(T.Member(t, "next", True)) == P.POSTFIX
    assert P.precedence(T.Binary(T.NoValue(), t, ",")) == P.COMMA


def printed(node):
    """What the printer writes for generated expression `node`."""
    unit = unit_of(b'#include "rip.h"\nint f(int x) { rip_yield(); return x; }\n')
    printer = P.Printer(lower(unit, Analysis(unit)).lowering.ripped["f"])
    printer.node(node)
    return "".join(t for t, _ in printer.pieces)


def test_generated_code_gets_the_parentheses_its_operands_need():
    a, b = T.Ref("a", "a", "var"), T.Ref("b", "b", "var")
    assert printed(T.Unary(T.Binary(a, b, "+"), "!")) == "!(a + b)"
    assert printed(T.Unary(T.Unary(a, "!"), "!")) == "!!a"
    assert printed(T.Discard(T.Binary(a, b, "=="))) == "(void)(a == b)"
    assert printed(T.Discard(a)) == "(void)a"
    assert printed(T.Member(T.Unary(a, "*"), "low", False)) == "(*a).low"
    assert printed(T.Unary(T.Member(a, "low", True), "&")) == "&a->low"
    assert printed(T.Binary(T.Binary(a, b, "-"), T.Binary(a, b, "-"), "-")) == "a - b - (a - b)"
    assert printed(T.Assign(a, T.Binary(T.NoValue(), b, ","), "=")) == "a = ((void)0, b)"


def test_generated_prefix_operators_never_merge_into_another_token():
    a = T.Ref("a", "a", "var")
    assert printed(T.Unary(T.Unary(a, "&"), "&")) == "& &a"       # not the label address &&a
    assert printed(T.Unary(T.Unary(a, "-"), "-")) == "- -a"


def test_an_expression_libclang_does_not_expose_counts_as_the_loosest():
    assert P.precedence(T.Opaque([], "unexposed")) == P.COMMA
    assert P.precedence(T.Opaque([], "__builtin_offsetof")) == P.PRIMARY


def test_a_replacement_that_binds_looser_than_what_it_replaces_is_parenthesized():
    """normalize.py's replacements bind as tightly as what they replace
    today (temporaries, parenthesized code); one that does not keeps its
    grouping in its place: `x * 2` with x replaced by `a + b`."""
    unit = unit_of(b'#include "rip.h"\nint f(int x) { rip_yield(); return x * 2; }\n')
    fn = lower(unit, Analysis(unit)).lowering.ripped["f"]
    ret = fn.f.body.items[-1]
    x = ret.value.lhs
    sum_ = T.Binary(T.Ref("a", "a", "var"), T.Ref("b", "b", "var"), "+")
    printer = P.Printer(fn)
    printer.node(T.replace(ret, {id(x): sum_}))
    assert "(a + b) * 2" in "".join(t for t, _ in printer.pieces)

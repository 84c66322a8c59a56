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


def test_generated_code_binds_as_its_template_reads():
    def text(template):
        return P.precedence(T.Text([], template))
    assert text("((void)0, {})") == P.PRIMARY
    assert text("(*{})") == P.PRIMARY
    assert text("!({})") == P.UNARY
    assert text("(void)({})") == P.UNARY
    assert text("{}->next") == P.POSTFIX
    assert text("({}).low") == P.POSTFIX
    assert text("{} + 1") == P.COMMA          # unknown shape: always parenthesized
    assert text("(a) + (b)") == P.COMMA       # not one group


def test_a_template_argument_needs_a_postfix_operand_beside_an_operator():
    assert P._slot("!{}", 0) == P.POSTFIX
    assert P._slot("{}->next", 0) == P.POSTFIX
    assert P._slot("!({})", 0) == P.COMMA
    assert P._slot("((void)0, {})", 0) == P.ASSIGN


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
    fn.norm.subst[id(x)] = T.Text([], "a + b")
    printer = P.Printer(fn)
    printer.node(ret)
    assert "(a + b) * 2" in "".join(t for t, _ in printer.pieces)

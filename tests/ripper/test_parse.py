"""ripper/parse.py: the tree of tricky C, one shape per test."""
import os

import pytest

from helpers import function, unit_of
from ripper import tree as T

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def body_of(code, head=b""):
    _, fn = function(head + b"void g(int);\nint h(int);\nvoid t(int n) {\n" + code + b"\n}\n", "t")
    return fn.body.items


def expr_of(code, head=b""):
    item = body_of(code + b";", head)[0]
    return item.expr if isinstance(item, T.ExprStmt) else item


def test_implicit_conversions_are_not_nodes_but_say_the_converted_type():
    expr_of(b"int a[3]; g(a[0]); a", b"")   # parses
    items = body_of(b"int a[3]; int *p = a;")
    init = items[1].decls[0].init
    assert isinstance(init, T.Ref) and init.type.array and init.conv.spelling == "int *"


def test_parentheses_are_kept_and_seen_through():
    e = expr_of(b"(n)")
    assert isinstance(e, T.Paren) and T.strip_parens(e).name == "n"


def test_assignment_call_and_operators_have_named_fields():
    e = expr_of(b"n = h(n + 1) * 2")
    assert isinstance(e, T.Assign) and e.op == "="
    assert isinstance(e.rhs, T.Binary) and e.rhs.op == "*"
    call = e.rhs.lhs
    assert isinstance(call, T.Call) and call.callee.name == "h" and call.args[0].op == "+"


def test_the_gnu_conditional_without_middle_operand():
    e = expr_of(b"n ?: 2")
    assert isinstance(e, T.Cond) and e.then is None and e.cond.name == "n"


def test_designators_are_not_operands():
    items = body_of(b"int a[4] = { [3 - 1] = 7, [0] = n };")
    items_ = items[0].decls[0].init.items
    assert all(isinstance(d, T.Designated) for d in items_)
    assert items_[0].value.start > items_[0].designators[0].end


def test_sizeof_of_a_variably_modified_type_is_evaluated_and_a_plain_one_is_not():
    v = expr_of(b"(void)sizeof(int[n])")
    p = expr_of(b"(void)sizeof n")
    assert isinstance(v.operand, T.SizeOf) and v.operand.evaluated
    assert v.operand.type_exprs[0].role == "size"
    assert isinstance(p.operand, T.SizeOf) and not p.operand.evaluated


def test_a_typeof_operand_is_marked_as_such():
    d = body_of(b"__typeof__(h(1)) x = 0;")[0].decls[0]
    assert d.type_exprs and d.type_exprs[0].role == "typeof"


def test_func_is_a_function_name_node():
    e = expr_of(b"(void)__func__")
    assert isinstance(T.strip_parens(e.operand), T.FuncName)


def test_a_statement_expression_holds_statements():
    e = expr_of(b"n = ({ int v = h(n); if (v < 0) goto out; v; }); out: ")
    assert isinstance(e.rhs, T.StmtExpr)
    kinds = [type(i) for i in e.rhs.body.items]
    assert kinds == [T.DeclStmt, T.If, T.ExprStmt]


def test_asm_goto_lists_its_labels():
    items = body_of(b'asm goto ("jmp %l0" :::: out, away); out: away: ;')
    assert items[0].labels == ["out", "away"]


def test_statements_that_end_in_a_semicolon_include_it():
    items = body_of(b"if (n) g(1); else return;")
    assert unit_of is not None and items[0].then.end > items[0].then.expr.end


def test_attributed_statements_wrap_their_statement():
    items = body_of(b"switch (n) { case 1: g(1); __attribute__((fallthrough)); case 2: g(2); }")
    case = items[0].body.items[0]
    assert any(isinstance(n, T.Attributed) for n in items[0].walk()) and case is not None


def test_a_for_statement_tells_its_three_parts_apart():
    f = body_of(b"for (; n < 3;) g(n);")[0]
    assert f.init is None and isinstance(f.cond, T.Binary) and f.step is None


def test_old_style_definitions_are_read():
    _, fn = function(b"int add(a, b) int a, b; { return a + b; }\n", "add")
    assert fn.knr and [p.name for p in fn.params] == ["a", "b"]


def test_a_block_local_struct_is_a_local_type_and_shadows_the_file_scope_one():
    src = b"struct s { int a; };\nint t(void) { struct s { double d; } v; struct s *p = &v; " \
          b"return (int)p->d; }\n"
    _, fn = function(src, "t")
    v, p = fn.body.items[0].decls[-1], fn.body.items[1].decls[0]
    assert v.ctype.local and p.ctype.local and p.ctype.pointee.size == 8


def test_errors_in_system_headers_are_not_the_users():
    unit = unit_of(b"#include <stdio.h>\n#include <emmintrin.h>\nint main(void) { return 0; }\n")
    assert "main" in unit.definitions


def test_node_offsets_are_libclangs_own_for_every_node(monkeypatch):
    """parse.py reads offsets from raw locations (one libclang call a node);
    they must be what libclang's location calls give, node for node."""
    import ripper.parse as P
    source = open(os.path.join(ROOT, "examples", "httpd.c"), "rb").read()
    flags = ["-I" + os.path.join(ROOT, d) for d in ("runtime/include", "examples")]
    fast = unit_of(source, flags)
    monkeypatch.setattr(P, "_measure_raw_base", lambda cursors, size: None)
    slow = unit_of(source, flags)

    def spans(unit):
        return [(n.start, n.end, type(n).__name__) for f in unit.definitions.values()
                if f.body is not None for root in f.params + [f.body] for n in root.walk()]
    assert P._raw_base is None and len(spans(fast)) > 3000
    assert spans(fast) == spans(slow)


def test_a_preprocessing_under_way_is_parsed_with_comments_when_they_change_no_code():
    from ripper.parse import parse
    from ripper.preprocess import start_preprocess
    src = b"int f(int x) { switch (x) { case 1: x++; /* fall through */ case 2: x++; } return x; }\n"
    unit = parse(start_preprocess("<stdin>", src, ["-Wextra"]))
    assert b"/* fall through */" in unit.text and "f" in unit.definitions


def test_a_preprocessing_under_way_whose_comments_change_code_is_parsed_again_without():
    """libclang parses the commented text while the check runs; when -C
    turned a directive into text, the tree must be the plain text's."""
    from ripper.parse import parse
    from ripper.preprocess import start_preprocess
    src = b"/* c */ #define A 1\nint v = A;\nint g(void) { return v; }\n"
    unit = parse(start_preprocess("<stdin>", src, ["-Wextra"]))
    assert b"int v = 1;" in unit.text and b"#define" not in unit.text
    g = unit.definitions["g"]
    assert unit.text[g.start:g.end].startswith(b"int g(void)")


def test_a_system_headers_functions_are_read_from_libclang_only_when_asked():
    unit = unit_of(b"#include <stdio.h>\nint main(void) { return 0; }\n")
    printf = next(f for f in unit.functions if f.name == "printf")
    with pytest.raises(AttributeError):     # not read from libclang yet
        T.Function.__dict__["variadic"].__get__(printf)
    assert printf.system and not printf.definition and not printf.marked_async
    assert printf.variadic and printf.prototyped and not printf.static
    assert len(printf.param_types) == 1 and printf.body is None


def test_a_preprocessing_under_way_is_parsed_once_when_it_is_settled_as_it_began(monkeypatch):
    from ripper import parse as P
    from ripper.preprocess import start_preprocess
    texts = []
    real = P._parse_text
    monkeypatch.setattr(P, "_parse_text", lambda *a: texts.append(a[3]) or real(*a))
    for flags in ([], ["-Wextra"]):
        del texts[:]
        unit = P.parse(start_preprocess("<stdin>", b"int g(void) { return 1; }\n", flags))
        assert texts == [unit.text], flags


def test_an_array_completed_by_its_initializer_has_its_bound():
    items = body_of(b"struct W { int a; } w[] = { {1}, {2}, {3} };")
    d = [x for x in items[0].decls if isinstance(x, T.VarDecl)][0]
    assert d.ctype.local and d.ctype.canonical == "CONSTANTARRAY" and d.ctype.count == 3


def test_a_local_struct_with_an_aligned_bit_field_is_bounded_for_gcc():
    """gcc lays it out in 12 bytes, clang in 11: the frame keeps it in as
    many bytes as gcc's layout can take.  One without such a bit-field
    keeps clang's size."""
    items = body_of(b"#pragma pack(push, 1)\n"
                    b"struct P { int x : 12; char y : 6; long long z : 63;\n"
                    b"  __attribute__((aligned(16))) char a : 4; long long b : 2; } p;\n"
                    b"#pragma pack(pop)\n"
                    b"struct Q { int x : 12; char y; } q;")
    p, q = [d for it in items if isinstance(it, T.DeclStmt) for d in it.decls
            if isinstance(d, T.VarDecl)]
    assert p.ctype.size == 11 and p.ctype.bound >= 12
    assert q.ctype.bound is None


def _decls(items):
    """name -> VarDecl of every declaration in `items`, nested blocks too."""
    out = {}
    for item in items:
        for n in item.nodes():
            if isinstance(n, T.VarDecl):
                out.setdefault(n.name, []).append(n)
    return out


def test_typeof_of_a_shadowed_name_is_the_type_its_block_sees():
    """`__typeof__(*p)` in two blocks, each with its own `p`: two types,
    each spelled as file scope means it (the frame is at file scope)."""
    d = _decls(body_of(b"{ int *p = 0; __typeof__(*p) a = 1; (void)a; }"
                       b"{ float *p = 0; __typeof__(*p) b = 1; __typeof__(p) c = p; }"))
    assert d["a"][0].ctype.spelling == "int"
    assert d["b"][0].ctype.spelling == "float" and d["b"][0].ctype.size == 4
    assert d["c"][0].ctype.spelling == "float *" and not d["c"][0].ctype.local


def test_a_blocks_typedef_is_spelled_as_what_it_names():
    """`typedef float T;` in one block and `typedef short T;` in another:
    file scope knows no T, so the frame spells float and short; the
    declaration says which typedefs its written type names."""
    d = _decls(body_of(b"{ typedef float T; T a = 1; (void)a; }"
                       b"{ typedef short T; T *b = 0; (void)b; }"
                       b"{ typedef struct { int x; } S; S s = {1}; (void)s; }"))
    assert d["a"][0].ctype.spelling == "float" and d["a"][0].block_typedefs == ["T"]
    assert d["b"][0].ctype.spelling == "short *" and d["b"][0].block_typedefs == ["T"]
    assert d["s"][0].ctype.local          # an unnamed struct: kept as bytes


def test_file_scope_typedefs_keep_their_names():
    """A file-scope typedef means the same everywhere ripper writes it:
    its name stays (readable messages and -Wall output)."""
    d = _decls(body_of(b"size_t a = 1; (void)a;", b"typedef unsigned long size_t;\n"))
    assert d["a"][0].ctype.spelling == "size_t" and d["a"][0].block_typedefs == []


def test_attributes_are_read_from_the_attributes_not_the_initializer():
    """`cleanup`, `asm("reg")` and alignment come from the declaration's
    attribute cursors: a call named cleanup_count or aligned in the
    initializer is a call."""
    d = _decls(body_of(
        b"int q __attribute__((unused)) = cleanup_count();"
        b"int m __attribute__((unused)) = aligned(3);"
        b"int c __attribute__((__cleanup__(fr), aligned)) = 1;"
        b"_Alignas(32) char b = 2; int x __attribute__((aligned(0x20))) = 3;"
        b"_Alignas(double) char t = 4; register int r __asm__(\"ebx\") = 5;",
        b"int cleanup_count(void); int aligned(int); void fr(int *);\n"))
    attrs = {name: (v[0].cleanup, v[0].asm_register, v[0].alignment) for name, v in d.items()}
    assert attrs == {"q": (False, False, 0), "m": (False, False, 0), "c": (True, False, 16),
                     "b": (False, False, 32), "x": (False, False, 32),
                     "t": (False, False, -1), "r": (False, True, 0)}

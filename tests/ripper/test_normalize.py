"""ripper/normalize.py returns a new tree: what did not change is shared,
what changed is rebuilt (standing for the node it rebuilds), and the tree
it was given is left as it was."""
from helpers import HEAD, function, normalized
from ripper import tree as T
from ripper.analysis import Analysis
from ripper.normalize import normalize


def task(body):
    src = HEAD + b"static void task(void *arg) {\n(void)arg;\n" + body + b"\n}\n"
    fn, _, norm = normalized(src, "task")
    return fn, norm


def shape(node):
    """Every node under `node` with the ids of its children: what a pass
    that changed the tree in place would change."""
    return [(id(n), type(n).__name__, [id(c) for c in n.children()]) for n in node.walk()]


def test_normalize_changes_nothing_it_is_given():
    src = HEAD + b"static void task(void *arg) {\n(void)arg;\n" \
        b"int a = use(1) + f(2); while (f(a)) a = use(a) ? f(a) : 0; }\n"
    unit, fn = function(src, "task")
    analysis = Analysis(unit)
    before = shape(fn.body)
    norm = normalize(fn, analysis.names, analysis.functions, None)
    assert shape(fn.body) == before
    assert shape(norm.body) != before           # what it made is another tree


def test_normalize_leaves_the_source_tree_as_parse_made_it():
    fn, norm = task(b"int a = use(1); a = use(a) + f(a); use(a);")
    assert [type(s).__name__ for s in fn.body.items] == ["ExprStmt", "DeclStmt", "ExprStmt",
                                                         "ExprStmt"]
    assert isinstance(fn.body.items[2].expr, T.Assign)
    assert norm.body is not fn.body


def test_statements_without_async_calls_are_shared_not_copied():
    fn, norm = task(b"int a = use(1); a = f(a); use(a);")
    old, new = fn.body.items, norm.body.items
    assert new[0] is old[0] and new[1] is old[1] and new[3] is old[3]
    assert new[2] is not old[2] and isinstance(new[2], T.Seq)


def test_a_rebuilt_node_stands_for_the_node_it_rebuilds():
    fn, norm = task(b"int a = use(1); a = use(a) + f(a);")
    new_stmt = norm.body.items[2].stmts[-1]        # a = t1 + t2;
    old_stmt = fn.body.items[2]
    assert isinstance(new_stmt, T.Eval)
    rebuilt = new_stmt.expr                         # the assignment, rebuilt
    assert rebuilt.origin is old_stmt.expr
    assert (rebuilt.start, rebuilt.end) == (old_stmt.expr.start, old_stmt.expr.end)
    assert rebuilt.lhs is old_stmt.expr.lhs        # unchanged: shared
    assert isinstance(rebuilt.rhs.rhs, T.TempRef) and rebuilt.rhs.origin is old_stmt.expr.rhs


def test_a_continue_of_a_loop_whose_condition_waits_becomes_a_goto_in_the_new_body_only():
    fn, norm = task(b"int i = 0; do { if (use(i)) continue; i++; } while (f(i));")
    assert any(isinstance(n, T.Continue) for n in fn.body.walk())
    assert not any(isinstance(n, T.Continue) for n in norm.body.walk())
    assert any(isinstance(n, T.GotoS) for n in norm.body.walk())

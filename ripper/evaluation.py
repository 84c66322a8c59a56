"""evaluation.py -- what C evaluates, and in which order ripper evaluates it.

The one place that answers, for every expression node, which of its
children run when it runs.  Unevaluated operands never run: sizeof and
_Alignof of anything but a variably modified type, typeof operands,
_Generic's controlling expression, __builtin_types_compatible_p and the
builtins that only look at their argument.  Where C leaves the order open,
ripper goes left to right (source order); &&, || and ?: run their later
operands only when C would (normalize.py asks `conditional`).

    sizeof f(x)             -> nothing runs
    a[i] = g(j) + h(k)      -> a, i, g(j) (g, j), h(k) (h, k), left to right
    sizeof(int[n()])        -> n() runs: the type is variably modified
"""

from . import tree as T

# Builtins whose arguments are looked at, never run.
UNEVALUATED_BUILTINS = ("__builtin_classify_type", "__builtin_constant_p",
                        "__builtin_object_size", "__builtin_dynamic_object_size")


def callee_name(call):
    """The function a Call calls by name, or None (through a pointer)."""
    callee = T.strip_parens(call.callee)
    if isinstance(callee, T.Unary) and callee.op in ("*", "&"):
        callee = T.strip_parens(callee.operand)     # (*f)(x), (&f)(x)
    if isinstance(callee, T.Ref) and callee.what == "fn":
        return callee.name
    return None


def _sizes(node):
    return [x for x in node.type_exprs if x.role == "size"]


def _sizeof(node):
    if not node.evaluated:
        return []
    return _sizes(node) + ([node.operand] if node.operand is not None else [])


def _choose(node):
    if node.first is None:
        return [node.then, node.else_]
    return [node.then if node.first else node.else_]      # only the one chosen


def _call(node):
    if callee_name(node) in UNEVALUATED_BUILTINS:
        return [node.callee]
    return node.children()


def _opaque(node):
    if node.what == "__builtin_types_compatible_p":
        return []                   # only types
    return node.children()


# The nodes that do not evaluate all their children, by exact class (tree.py
# makes no subclasses of node classes).
_SPECIAL = {
    T.SizeOf: _sizeof,
    T.Cast: lambda n: _sizes(n) + [n.operand],
    T.CompoundLiteral: lambda n: _sizes(n) + [n.init],
    T.VarDecl: lambda n: _sizes(n) + ([n.init] if n.init is not None else []),
    T.TypeDecl: _sizes,
    T.ParamDecl: _sizes,
    T.Generic: lambda n: list(n.assocs),        # one of them; ripper cannot tell which
    T.Choose: _choose,
    T.Call: _call,
    T.Designated: lambda n: [n.value],          # designators are constants
    T.Opaque: _opaque,
    T.StaticAssert: lambda n: [],               # a constant expression, at compile time
}


def evaluated(node):
    """The children of `node` that C evaluates when it evaluates `node`
    (some perhaps only under a condition), in ripper's order."""
    special = _SPECIAL.get(type(node))
    return node.children() if special is None else special(node)


def walk_evaluated(node):
    """`node` and every node below it that C may evaluate, pre-order:
    statements, declarations and expressions alike."""
    special = _SPECIAL
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        how = special.get(type(n))
        kids = n.children() if how is None else how(n)
        if kids:
            stack.extend(reversed(kids))


def calls(node):
    """The Call nodes under `node` that C may evaluate."""
    return [n for n in walk_evaluated(node) if isinstance(n, T.Call)]


def walk_marked(node):
    """(n, runs) for `node` and every node below it, pre-order: runs is
    whether C may evaluate n."""
    special = _SPECIAL
    stack = [(node, True)]
    while stack:
        n, runs = stack.pop()
        yield n, runs
        kids = n.children()
        how = special.get(type(n)) if runs else None
        if how is not None:
            run = {id(x) for x in how(n)}
            stack.extend((x, id(x) in run) for x in reversed(kids))
        elif kids:
            stack.extend((x, runs) for x in reversed(kids))


def unevaluated_calls(node):
    """The Call nodes under `node` that C never evaluates (inside sizeof,
    typeof...), outermost first."""
    return node.memo("unevaluated calls", lambda root: [
        n for n, runs in walk_marked(root) if not runs and isinstance(n, T.Call)])

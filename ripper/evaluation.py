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


def evaluated(node):
    """The children of `node` that C evaluates when it evaluates `node`
    (some perhaps only under a condition), in ripper's order."""
    if isinstance(node, T.SizeOf):
        if not node.evaluated:
            return []
        return [x for x in node.type_exprs if x.role == "size"] + \
            ([node.operand] if node.operand is not None else [])
    if isinstance(node, (T.Cast, T.CompoundLiteral)):
        sizes = [x for x in node.type_exprs if x.role == "size"]
        return sizes + [node.operand if isinstance(node, T.Cast) else node.init]
    if isinstance(node, T.VarDecl):
        return [x for x in node.type_exprs if x.role == "size"] + \
            ([node.init] if node.init is not None else [])
    if isinstance(node, (T.TypeDecl, T.ParamDecl)):
        return [x for x in node.type_exprs if x.role == "size"]
    if isinstance(node, T.Generic):
        return list(node.assocs)    # one of them; ripper cannot tell which
    if isinstance(node, T.Choose):
        if node.first is None:
            return [node.then, node.else_]
        return [node.then if node.first else node.else_]      # only the one chosen
    if isinstance(node, T.Call) and callee_name(node) in UNEVALUATED_BUILTINS:
        return [node.callee]
    if isinstance(node, T.Designated):
        return [node.value]         # designators are constants
    if isinstance(node, T.Opaque) and node.what == "__builtin_types_compatible_p":
        return []                   # only types
    return node.children()


def unevaluated(node):
    """The children of `node` that C never evaluates."""
    run = {id(x) for x in evaluated(node)}
    return [x for x in node.children() if id(x) not in run]


def conditional(node):
    """The children of expression `node` that run only under a condition:
    the right of && and ||, the arms of ?: (and Choose/Generic's, of which
    one runs)."""
    if isinstance(node, T.Binary) and node.op in ("&&", "||"):
        return [node.rhs]
    if isinstance(node, T.Cond):
        return [x for x in (node.then, node.else_) if x is not None]
    if isinstance(node, (T.Choose, T.Generic)):
        return evaluated(node)
    return []


def walk_evaluated(node, subst=None):
    """`node` and every node below it that C may evaluate, pre-order:
    statements, declarations and expressions alike.  With `subst`
    (normalize.py's replacements), a replaced node is walked as its
    replacement."""
    stack = [(node, False)]
    while stack:
        n, keep = stack.pop()
        if subst and not keep:
            n = subst.get(id(n), n)
        yield n
        if isinstance(n, T.KEEPS):
            stack.append((n.node, True))
        else:
            stack.extend((c, False) for c in reversed(evaluated(n)))


def walk(node, subst=None):
    """Every node below `node` (evaluated or not), replacements walked
    in place of what they replace."""
    stack = [(node, False)]
    while stack:
        n, keep = stack.pop()
        if subst and not keep:
            n = subst.get(id(n), n)
        yield n
        if isinstance(n, T.KEEPS):
            stack.append((n.node, True))
        else:
            stack.extend((c, False) for c in reversed(n.children()))


def calls(node):
    """The Call nodes under `node` that C may evaluate."""
    return [n for n in walk_evaluated(node) if isinstance(n, T.Call)]


def unevaluated_calls(node):
    """The Call nodes under `node` that C never evaluates (inside sizeof,
    typeof...), outermost first."""
    run = {id(n) for n in walk_evaluated(node)}
    return [n for n in node.walk() if isinstance(n, T.Call) and id(n) not in run]

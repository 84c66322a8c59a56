"""analysis.py -- which functions are async.

A function is async when any declaration of it is marked RIP_ASYNC, when
it is defined in the file and calls an async function or calls through a
pointer of an async function type (through the call graph, to a fixed
point), or when it is defined here and its name is converted to an async
function type (made with RIP_ASYNC_FN): rip_task_fn for rip_spawn and
rip_run, a handler table...  Calls in unevaluated operands (sizeof) do not
count.  `main` is never async: it starts tasks, it is not one.

    RIP_ASYNC void rip_yield(void);
    static void helper(void) { rip_yield(); }       -> async (calls one)
    static void task(void *a) { helper(); }         -> async (calls helper)
    static void pure(void *a) { }                   -> async if rip_spawn(pure, ...)
    int main(void) { return rip_run(task, 0); }     -> not async
"""

import bisect

UNEVALUATED = ("sizeof", "_Alignof", "alignof", "__alignof__", "__alignof")
UNEVALUATED_BUILTINS = ("__builtin_constant_p", "__builtin_types_compatible_p",
                        "__builtin_object_size", "__builtin_dynamic_object_size")
JMP_HINT = "a suspension would leave the saved stack behind; restructure with return codes"
UNRIPPABLE_CALLS = {
    "alloca": "allocate with malloc and free before returning",
    "__builtin_alloca": "allocate with malloc and free before returning",
    "setjmp": JMP_HINT, "_setjmp": JMP_HINT, "sigsetjmp": JMP_HINT, "__sigsetjmp": JMP_HINT,
}


def unrippable(f):
    """(node, message, hint) for the first construct that keeps function
    `f` from being ripped, or None."""
    for n in f.body.walk():
        if n.kind == "VAR_DECL" and n.type and n.type.kind == "VARIABLEARRAY" and not n.storage:
            return (n, "variable-length array '%s' in async function '%s'" % (n.name, f.name),
                    "give it a constant size, or allocate it with malloc")
        if n.kind == "CALL_EXPR" and callee_name(n) in UNRIPPABLE_CALLS:
            return (n, "'%s' in async function '%s'" % (callee_name(n), f.name),
                    UNRIPPABLE_CALLS[callee_name(n)])
        if n.kind in ("ADDR_LABEL_EXPR", "INDIRECT_GOTO_STMT"):
            return (n, "labels as values in async function '%s'" % f.name,
                    "use a switch on an int instead of computed goto")
        if n.kind == "COMPOUND_LITERAL_EXPR" and n.type is not None and \
                (n.type.canonical_kind in ("CONSTANTARRAY", "INCOMPLETEARRAY") or
                 (n.parent is not None and n.parent.kind == "UNARY_OPERATOR" and n.parent.op == "&")):
            return (n, "compound literal whose address is used, in async function '%s'" % f.name,
                    "it would not survive a suspension: use a named local instead")
        if n.kind == "VAR_DECL" and not n.storage and \
                any(c.kind.endswith("_ATTR") and c.kind != "ANNOTATE_ATTR" for c in n.children):
            return (n, "attribute on local '%s' of async function '%s'" % (n.name, f.name),
                    "cleanup would run at every suspension, and alignment is not kept in "
                    "frames: move the variable to a plain function")
        if n.kind in ("VAR_DECL", "PARM_DECL") and n.type is not None and n.type.align > 16:
            return (n, "'%s' needs %d-byte alignment, more than frames give (16), in async "
                    "function '%s'" % (n.name, n.type.align, f.name),
                    "allocate it with aligned_alloc and keep a pointer")
    if f.result is not None and f.result.align > 16:
        return (f.body, "async function '%s' returns a %d-byte aligned type; frames give 16"
                % (f.name, f.result.align), "return a pointer instead")
    return None


def evaluated_calls(node):
    """CALL_EXPR nodes under `node` that C evaluates: not in the operand of
    sizeof, a typeof in a declaration's type, or _Generic's controlling
    expression."""
    if node.kind == "CXX_UNARY_EXPR" and node.op in UNEVALUATED:
        return
    if node.kind == "TYPEDEF_DECL":
        return
    if node.kind == "CALL_EXPR":
        yield node
    children = node.children
    if node.kind == "VAR_DECL":
        children = [node.init] if node.init is not None else []
    elif node.kind == "GENERIC_SELECTION_EXPR":
        children = children[1:]
    elif node.kind == "CSTYLE_CAST_EXPR":
        children = children[-1:]            # the rest spells the type
    elif node.kind == "CALL_EXPR" and callee_name(node) in UNEVALUATED_BUILTINS:
        children = children[:1]
    for child in children:
        yield from evaluated_calls(child)


def callee_name(call):
    """The function a CALL_EXPR calls by name, or None (a call through a pointer)."""
    if call.ref and call.ref.startswith("fn:"):
        return call.ref[3:]
    return None


def function_values(node):
    """DECL_REF_EXPRs under `node` that use a function as a value, not as
    the callee of a call."""
    for n in node.walk():
        if n.kind == "DECL_REF_EXPR" and n.ref and n.ref.startswith("fn:"):
            use = value_use(n)
            p = use.parent
            if not (p is not None and p.kind == "CALL_EXPR" and use is p.children[0]):
                yield n


def value_use(ref):
    """The outermost node that is `ref` behind parentheses, implicit
    conversions and `&`."""
    use = ref
    while use.parent is not None and (use.parent.kind in ("UNEXPOSED_EXPR", "PAREN_EXPR") or
                                      (use.parent.kind == "UNARY_OPERATOR" and use.parent.op == "&")):
        p = use.parent
        if p.kind == "UNEXPOSED_EXPR" and p.type is not None and p.type.kind == "VOID":
            break                   # a designated initializer: `.field = value`
        use = p
    return use


def value_destination(ref):
    """The type a function used as a value is converted to, or None when
    ripper cannot tell (an initializer list, a variadic argument...)."""
    use = value_use(ref)
    p = use.parent
    if p is None:
        return None
    if p.kind == "VAR_DECL":
        return p.type
    if p.kind == "BINARY_OPERATOR" and p.op == "=" and use is p.children[1]:
        return p.children[0].type
    if p.kind == "CSTYLE_CAST_EXPR":
        return p.type
    if p.kind == "CALL_EXPR" and use is not p.children[0]:
        i = p.children.index(use) - 1
        if p.param_types is not None and i < len(p.param_types):
            return p.param_types[i]
    designator = None
    if p.kind == "UNEXPOSED_EXPR" and p.type is not None and p.type.kind == "VOID" and \
            p.children and p.children[0].kind == "MEMBER_REF" and use is p.children[-1]:
        designator, use, p = p.children[0].name, p, p.parent      # .field = value
    if p is not None and p.kind == "INIT_LIST_EXPR" and p.type is not None and p.type.members:
        members = p.type.members
        if members[0][0] == "":                                   # an array: its element
            return members[0][1]
        if designator is not None:
            return next((t for name, t in members if name == designator), None)
        plain = [c for c in p.children]
        i = plain.index(use)
        if i < len(members) and all(c.kind != "UNEXPOSED_EXPR" or c.type is None or
                                    c.type.kind != "VOID" for c in plain[:i + 1]):
            return members[i][1]
    return None


def is_async_call(call, async_names):
    return call.kind == "CALL_EXPR" and (callee_name(call) in async_names or call.callee_async)


def find_async(unit, all_async=False):
    """The set of names of async functions in `unit`.

    With all_async (a testing mode), every function defined here is async,
    `main` too (it runs as the first task), except those that cannot be:
    variadic, unrippable, or used as a plain function pointer (a qsort
    comparator), and every function they call."""
    defined = {f.name: f for f in unit.functions if f.in_main and f.is_definition}
    result = {f.name for f in unit.functions if f.marked_async}
    if all_async:
        result |= set(defined) - plain_for_all_async(unit, defined)
    callees = {}
    bodies = [f.body for f in defined.values() if f.body] + list(unit.globals)
    for body in bodies:
        for ref in function_values(body):
            dest = value_destination(ref)
            if dest is not None and dest.async_fn and ref.ref[3:] in defined:
                result.add(ref.ref[3:])
    for name, f in defined.items():
        calls = list(evaluated_calls(f.body)) if f.body else []
        callees[name] = {callee_name(c) for c in calls} - {None}
        if any(c.callee_async for c in calls) and name != "main":
            result.add(name)
    changed = True
    while changed:
        changed = False
        for name, names in callees.items():
            if name not in result and name != "main" and names & result:
                result.add(name)
                changed = True
    return result


def plain_for_all_async(unit, defined):
    """Functions that --all-async must leave plain, and all they call."""
    plain = {name for name, f in defined.items() if f.variadic or unrippable(f)}
    for body in [f.body for f in defined.values()] + list(unit.globals):
        for ref in function_values(body):
            dest = value_destination(ref)
            if dest is None or not dest.async_fn:
                plain.add(ref.ref[3:])
    calls = {name: {callee_name(c) for c in evaluated_calls(f.body)} & set(defined)
             for name, f in defined.items()}
    todo = list(plain)
    while todo:
        for callee in calls.get(todo.pop(), ()):
            if callee not in plain:
                plain.add(callee)
                todo.append(callee)
    return plain


def invocation_at(macros, offset):
    """The outermost macro invocation (start, end) holding `offset`, or None
    (`macros`: sorted, disjoint, as Unit.macros)."""
    i = bisect.bisect_right(macros, (offset, float("inf"))) - 1
    if i >= 0 and macros[i][0] <= offset < macros[i][1]:
        return macros[i]
    return None

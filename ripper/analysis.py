"""analysis.py -- which functions are async.

A function is async when any declaration of it is marked RIP_ASYNC, when
it is defined in the file and calls an async function (through the call
graph, to a fixed point), or when it is defined here and named as the task
of rip_spawn or rip_run.  Calls in unevaluated operands (sizeof) do not
count.  `main` is never async: it starts tasks, it is not one.

    RIP_ASYNC void rip_yield(void);
    static void helper(void) { rip_yield(); }       -> async (calls one)
    static void task(void *a) { helper(); }         -> async (calls helper)
    static void pure(void *a) { }                   -> async if rip_spawn(pure, ...)
    int main(void) { return rip_run(task, 0); }     -> not async
"""

TASK_STARTERS = ("rip_spawn", "rip_run")
UNEVALUATED = ("sizeof", "_Alignof", "alignof", "__alignof__", "__alignof")


def evaluated_calls(node):
    """CALL_EXPR nodes under `node` that C evaluates (not inside sizeof)."""
    if node.kind == "CXX_UNARY_EXPR" and node.op in UNEVALUATED:
        return
    if node.kind == "CALL_EXPR":
        yield node
    for child in node.children:
        yield from evaluated_calls(child)


def callee_name(call):
    """The function a CALL_EXPR calls by name, or None (a call through a pointer)."""
    if call.ref and call.ref.startswith("fn:"):
        return call.ref[3:]
    return None


def task_functions(call):
    """Functions named as the task argument of rip_spawn(fn, arg) / rip_run."""
    if callee_name(call) in TASK_STARTERS and len(call.children) > 1:
        arg = call.children[1]
        for n in arg.walk():
            if n.kind == "DECL_REF_EXPR" and n.ref and n.ref.startswith("fn:"):
                yield n.ref[3:]


def find_async(unit, all_async=False):
    """The set of names of async functions in `unit`."""
    defined = {f.name: f for f in unit.functions if f.in_main and f.is_definition}
    result = {f.name for f in unit.functions if f.marked_async}
    if all_async:
        result |= set(defined) - {"main"}
    callees = {}
    for name, f in defined.items():
        calls = list(evaluated_calls(f.body)) if f.body else []
        callees[name] = {callee_name(c) for c in calls} - {None}
        for c in calls:
            result |= {t for t in task_functions(c) if t in defined}
    changed = True
    while changed:
        changed = False
        for name, names in callees.items():
            if name not in result and name != "main" and names & result:
                result.add(name)
                changed = True
    return result

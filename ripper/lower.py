"""lower.py -- rewrite async functions into continuation-passing frames.

Each async function becomes a frame struct, a constructor and a resume
entry (the ABI of runtime/src/rip/rip_frame.h).  Its locals move into the
frame (`x` becomes `rip_F->x`), and each async call becomes a resume
point; the function's own control flow stays as written, because the
resume entry's dispatch jumps with `goto` to the label right after the
call it suspended in, wherever that is (in a loop, a user switch, ...).

    RIP_ASYNC int twice(int a) {            struct twice__frame { rip_frame rip_hdr;
        int b = a;                              __typeof__(int) rip_result;
        wait(a);                                __typeof__(int) a; __typeof__(int) b; };
        rip_yield();                        static rip_frame *twice__rip(int a) {...}
        return a + b;                       static int twice__resume(rip_frame *rip_self,
    }                                               rip_frame *rip_c) { ...dispatch...
                                                rip_F->b = rip_F->a;
                                                { rip_c = wait__rip(rip_F->a);
                                                  if (!rip_call(rip_self, rip_c)) {
                                                      rip_self->state = 1; return 0; }
                                                  rip_resume_1: rip_frame_free(rip_c); }
                                                { rip_self->state = 2;
                                                  return rip__yield_in(rip_self);
                                                  rip_resume_2: ; }
                                                { rip_F->rip_result = rip_F->a + rip_F->b;
                                                  return 1; }
                                                return 1; }

A resume entry returns 1 when the function has returned, 0 when it
suspended.  rip_yield, rip_chan_send/recv and rip_wg_wait called directly
are inlined (INTRINSICS: rip_frame.h's intrinsics); other async calls
build the callee's frame with its constructor and start it with rip_call.
An async call standing alone (`f(x);`, `y = f(x);`, `T y = f(x);`,
`return f(x);`) stores its result straight from the callee's frame; one
anywhere else in an expression or a condition goes through expr.py.  What
cannot be ripped is a diagnostic, never wrong code.

Names inside macro invocations are never edited in place (a `#v` in the
macro would stringify the edit).  Instead the outermost invocation is
bracketed by preprocessor aliases, and the preprocessor does the rest:

    LOG_VAR(count);         ->  #define count (rip_F->count)
                                LOG_VAR(count);     // "count", (rip_F->count)
                                #undef count

The same works for a local named in a macro's body, and for a macro that
expands to exactly one async call (`#define SUSPEND rip_yield()`).
"""

import re
from collections import namedtuple

from .analysis import (callee_name, evaluated_calls, function_values, invocation_at,
                       is_async_call, unrippable, value_destination)
from .diag import Diagnostic
from .emit import Rewriter, line_directive
from .expr import ExprLowering
from .liveness import frame_variables

# Wrappers clang puts between a call and the place that uses its value.
TRANSPARENT = ("UNEXPOSED_EXPR", "PAREN_EXPR")
# Children that are a statement of their parent (not a condition).
STATEMENT_PARENTS = ("COMPOUND_STMT", "IF_STMT", "WHILE_STMT", "DO_STMT",
                     "FOR_STMT", "SWITCH_STMT", "CASE_STMT", "DEFAULT_STMT",
                     "LABEL_STMT")
RESERVED_FIELDS = ("rip_hdr", "rip_result", "rip_w")
# Runtime primitives whose direct calls are inlined (rip_frame.h's intrinsics):
# name -> (the entry that tries, the entry that gives the result after a wait);
# rip_yield always suspends.
INTRINSICS = {
    "rip_yield": None,
    "rip_chan_send": ("rip__chan_send_try", "rip__chan_send_woken"),
    "rip_chan_recv": ("rip__chan_recv_try", "rip__chan_recv_woken"),
    "rip_wg_wait": ("rip__wg_wait_try", None),
}
FRAME_HEADER = 24                   # sizeof(rip_frame), 8-aligned
WAIT_BYTES = 32                     # sizeof(rip_wait)


class FrameStats:
    """What ripper --stats prints for one async function."""

    def __init__(self, name, frame_bytes, suspensions, in_frame, c_locals):
        self.name = name                # the function
        self.frame_bytes = frame_bytes  # sizeof its frame struct
        self.suspensions = suspensions  # resume points
        self.in_frame = in_frame        # variables in the frame (parameters included)
        self.c_locals = c_locals        # locals left as C locals of the resume entry


RESERVED = re.compile(r"^(rip_F|rip_c|rip_r|rip_self|rip_resume_\d+|rip_cont_\d+|rip_main_\w+)$")
LINE_DIRECTIVE = re.compile(rb"^[ \t]*#[ \t]*(line[ \t]+)?\d", re.M)


def check_names(unit):
    """The names ripper generates must not be the user's."""
    m = LINE_DIRECTIVE.search(unit.source)
    if m:
        line = unit.source.count(b"\n", 0, m.start()) + 1
        raise Diagnostic(unit.path, line, 1, "#line directive in the input",
                         hint="rip the original source, not generated code with #line")
    nodes = list(unit.globals)
    for f in unit.functions:
        if f.in_main and RESERVED.match(f.name):
            raise Diagnostic(unit.path, f.line, f.col, "'%s' is a name ripper reserves" % f.name,
                             hint="rename it")
        nodes += f.params + ([f.body] if f.body else [])
    for root in nodes:
        for n in root.walk():
            if n.kind in ("VAR_DECL", "PARM_DECL", "LABEL_STMT") and RESERVED.match(n.name):
                raise Diagnostic(unit.path, n.line, n.col, "'%s' is a name ripper reserves"
                                 % n.name, hint="rename it")


def lower(unit, async_names, all_async=False, stats=None):
    """Record in a Rewriter every edit that rips `unit`; raise Diagnostic
    for what cannot be ripped.  With all_async, every async function yields
    once on entry and an async `main` runs as the first task.  `stats`, a
    list, receives a FrameStats per async function."""
    check_names(unit)
    rw = Rewriter(unit.source)
    lowering = _Lowering(unit, async_names, rw, all_async, stats if stats is not None else [])
    for g in unit.globals:
        lowering.prototypes_for(g, g.line)
        lowering.function_values(g)
        lowering.apply_aliases(g)
    for f in unit.functions:
        if not f.in_main:
            continue
        if f.body is not None:
            lowering.prototypes_for(f.body, f.line)
        if f.is_definition and f.name in async_names:
            lowering.async_function(f)
        elif f.is_definition:
            lowering.plain_function(f)
        elif f.name in async_names:
            lowering.prototype(f)
    main = next((f for f in unit.functions if f.in_main and f.is_definition
                 and f.name == "main"), None)
    if main is not None and "main" in async_names:
        lowering.main_task(main)
    check_directives_kept(unit, rw)
    return rw


DIRECTIVE_LINE = re.compile(rb"(?:^|\n)([ \t]*(?:#|%:)[^\n]*)")


def check_directives_kept(unit, rw):
    """A statement ripper rewrites is generated anew from its parts: a
    preprocessor line inside it (`#if` in the middle of a declaration)
    would be lost, and what is left may not compile.  Refuse it."""
    for start, end, data in rw.edits:
        for m in DIRECTIVE_LINE.finditer(unit.source, start, end):
            line = m.group(1).strip()
            if m.start(1) >= start and line not in data:
                off = m.start(1) + len(m.group(1)) - len(m.group(1).lstrip())
                raise Diagnostic(unit.path, unit.source.count(b"\n", 0, off) + 1,
                                 off - unit.source.rfind(b"\n", 0, off),
                                 "preprocessor directive inside a statement that ripper "
                                 "rewrites ('%s')" % line.decode("utf-8", "replace"),
                                 hint="put the directive around whole statements")


def is_statement(node):
    """Does `node` stand where C expects a statement?"""
    p = node.parent
    if p is None or p.kind not in STATEMENT_PARENTS:
        return False
    if p.kind == "COMPOUND_STMT" or p.kind == "LABEL_STMT" or p.kind == "DEFAULT_STMT":
        return True
    if p.kind == "DO_STMT":
        return node is p.children[0]
    if p.kind == "IF_STMT":
        return node is not p.children[0]
    return node is p.children[-1]       # the body of a loop, switch or case: always last


def _unwrap_up(node):
    """The outermost node that is `node` inside parentheses and implicit casts."""
    while node.parent is not None and node.parent.kind in TRANSPARENT:
        node = node.parent
    return node


class _Lowering:
    def __init__(self, unit, async_names, rw, all_async, stats):
        self.unit = unit
        self.src = unit.source
        self.async_names = async_names
        self.rw = rw
        self.all_async = all_async  # the testing mode: every async function yields on entry
        self.stats = stats          # receives a FrameStats per async function
        self.aliases = {}           # macro invocation -> {name: (new text, reference)}
        self.declared = {f.name for f in unit.functions if f.in_main}  # constructors declared
        self.headers = {f.name: f for f in unit.functions if not f.in_main}
        self.defined = {f.name: f for f in unit.functions if f.in_main and f.is_definition
                        and f.name in async_names}     # async functions with frames here

    # -- helpers ------------------------------------------------------------

    def error(self, node, message, hint=None):
        return Diagnostic(self.unit.path, node.line, node.col, message, hint)

    def text(self, node):
        return self.rw.text(node.start, node.end)

    def invocation(self, offset):
        """The outermost macro invocation (start, end) around `offset`, or None."""
        return invocation_at(self.unit.macros, offset)

    def rename(self, ref, new):
        """Make the name `ref` refers to read as `new` at that reference:
        an edit of its token, or an alias around a macro invocation."""
        inv = self.invocation(ref.loc)
        if inv is None:
            name = ref.name.encode()
            if self.src[ref.loc:ref.loc + len(name)] != name:
                raise self.error(ref, "cannot find the name '%s' in the source" % ref.name)
            self.rw.replace(ref.loc, ref.loc + len(name), new)
            return
        if ref.name in self.unit.macro_names:
            raise self.error(ref, "'%s' is also the name of a macro" % ref.name,
                             hint="rename the variable or the macro")
        aliases = self.aliases.setdefault(inv, {})
        aliases[ref.name] = (new, ref)

    def check_stringification(self, start, aliases):
        """An alias is safe for `#v` in the invoked macro itself, but not
        when the macro hands the name on to another macro that stringifies
        it: by then the alias has replaced it."""
        m = re.match(rb"[A-Za-z_]\w*", self.src[start:start + 256])
        name = m.group().decode() if m else ""
        seen, todo = set(), list(self.unit.macro_uses.get(name, ()))
        while todo:
            inner = todo.pop()
            if inner in seen:
                continue
            seen.add(inner)
            if inner in self.unit.stringifying:
                ref = next(iter(aliases.values()))[1]
                raise self.error(ref, "macro '%s' passes '%s' on to macro '%s', which "
                                 "stringifies it" % (name, ref.name, inner),
                                 hint="copy the value into a local that is not live "
                                 "across a suspension, or expand the macro by hand")
            todo.extend(self.unit.macro_uses.get(inner, ()))

    def apply_aliases(self, body):
        """Bracket each macro invocation that names frame fields or async
        functions by #define/#undef of those names."""
        for (ms, me), aliases in sorted(self.aliases.items()):
            self.check_stringification(ms, aliases)
            for name, (new, ref) in aliases.items():
                clash = next((n for n in body.walk() if ms <= n.start and n.end <= me
                              and n.name == name and n.ref != ref.ref and n is not ref
                              and n.kind in ("DECL_REF_EXPR", "MEMBER_REF_EXPR", "VAR_DECL",
                                             "FIELD_DECL", "CALL_EXPR")), None)
                if clash is not None:
                    raise self.error(clash, "'%s' means two things in this macro invocation"
                                     % name, hint="rename the variable, or expand the macro "
                                     "by hand")
            first = self.src.count(b"\n", 0, ms) + 1
            last = self.src.count(b"\n", 0, me) + 1
            defines = "".join("#define %s %s\n" % (name, new if new.endswith("__rip")
                                                    else "(%s)" % new)
                              for name, (new, _) in sorted(aliases.items()))
            undefs = "".join("#undef %s\n" % name for name in sorted(aliases))
            self.rw.replace(ms, me, "\n%s%s\n%s\n%s%s\n" % (
                defines, line_directive(first, self.unit.path), self.rw.text(ms, me),
                undefs, line_directive(last, self.unit.path)))
        self.aliases = {}

    def stmt_end(self, node):
        """End of a statement node's text, including its ';'."""
        last = self.src[node.end - 1:node.end]
        if last == b";" or ((last == b"}" or self.src[node.end - 2:node.end] == b"%>")
                            and node.kind.endswith("_STMT")):
            return node.end
        i = node.end
        while i < len(self.src) and self.src[i:i + 1] in (b" ", b"\t", b"\n", b"\r"):
            i += 1
        if self.src[i:i + 1] == b";":
            return i + 1
        raise self.error(node, "cannot find the end of this statement",
                         hint="a macro may hide its ';'; write the statement out")

    # -- plain functions ----------------------------------------------------

    def unevaluated_calls(self, body):
        """An async call C never evaluates (sizeof f(x)) keeps only its type.
        Run after the edits inside it (renamed locals), which it drops; an
        unevaluated call inside another goes first, for the same reason."""
        evaluated = {id(c) for c in evaluated_calls(body)}
        calls = [n for n in body.walk() if n.kind == "CALL_EXPR" and id(n) not in evaluated
                 and self.is_async_call(n)]
        for n in sorted(calls, key=lambda n: n.end - n.start):
            if n.in_macro:
                raise self.error(n, "unevaluated async call to '%s' inside a macro"
                                 % callee_name(n), hint="write it out")
            void = n.type is None or n.type.kind == "VOID"
            self.rw.replace(n.start, n.end, "((void)0)" if void else
                            "(*(__typeof__(%s) *)0)" % n.type.spelling)

    def plain_function(self, f):
        for call in evaluated_calls(f.body):
            if self.is_async_call(call):
                raise self.error(call, "'%s' calls async function '%s' outside a task"
                                 % (f.name, callee_name(call) or "through a pointer"),
                                 hint="start the work as a task with rip_run or rip_spawn")
        self.function_values(f.body)
        self.unevaluated_calls(f.body)
        self.apply_aliases(f.body)

    def function_values(self, node):
        """An async function used as a value becomes its frame constructor;
        it may only go where an async function type (RIP_ASYNC_FN) is expected."""
        for ref in function_values(node):
            name = ref.ref[3:]
            dest = value_destination(ref)
            if name in self.async_names:
                if dest is None:
                    raise self.error(ref, "async function '%s' used as a value where ripper "
                                     "cannot tell the type it becomes" % name,
                                     hint="assign it to a variable of a RIP_ASYNC_FN type first")
                if not dest.async_fn:
                    raise self.error(ref, "async function '%s' used where a plain function "
                                     "pointer ('%s') is expected" % (name, dest.spelling),
                                     hint="a function that may suspend cannot be called from "
                                     "code that does not expect it (a qsort comparator); "
                                     "declare the pointer's type with RIP_ASYNC_FN")
                self.rename(ref, name + "__rip")
            elif dest is not None and dest.async_fn:
                raise self.error(ref, "'%s' is not async but is used as an async function "
                                 "('%s')" % (name, dest.spelling),
                                 hint="mark its declaration RIP_ASYNC, or define it in this file")

    def prototypes_for(self, node, line):
        """Declare, before `line`, the constructors of async functions that
        `node` uses but the main file never declares (they live in a header)."""
        lines = []
        for n in node.walk():
            if n.kind != "DECL_REF_EXPR" or not n.ref or not n.ref.startswith("fn:"):
                continue
            name = n.ref[3:]
            f = self.headers.get(name)
            if name in self.async_names and name not in self.declared and f is not None \
                    and not name.startswith("rip_"):        # rip_frame.h declares those
                params = ", ".join("__typeof__(%s)" % t.spelling for t in f.param_types) or "void"
                lines.append("struct rip_frame *%s__rip(%s);" % (name, params))
                self.declared.add(name)
        if lines:
            self.rw.insert_lines(line, lines)

    def main_task(self, main):
        """A new `main` that runs the ripped user main as the first task."""
        args = ["rip_main_argc", "rip_main_argv", "rip_main_envp"][:len(main.params)]
        status = "0" if main.result.kind == "VOID" else "RIP_RESULT(int, rip_c)"
        self.rw.insert(len(self.src), "\n".join([
            "",
            "/* --all-async: the program's main runs as the first task. */",
            "static int rip_main_argc; static char **rip_main_argv, **rip_main_envp;",
            "static int rip_main_status;",
            "static int rip_main_resume(rip_frame *rip_self, rip_frame *rip_c) {",
            "    if (rip_self->state == 0) {",
            "        rip_self->state = 1;",
            "        rip_c = main__rip(%s);" % ", ".join(args),
            "        if (!rip_call(rip_self, rip_c))",
            "            return 0;",
            "    }",
            "    rip_main_status = %s;" % status,
            "    rip_frame_free(rip_c);",
            "    return 1;",
            "}",
            "static struct rip_frame *rip_main_task(void *arg) {",
            "    (void)arg;",
            "    return rip_frame_alloc(sizeof(rip_frame), rip_main_resume);",
            "}",
            "int main(int argc, char **argv, char **envp) {",
            "    rip_main_argc = argc; rip_main_argv = argv; rip_main_envp = envp;",
            "    if (rip_run(rip_main_task, 0) != 0)",
            "        return 1;",
            "    return rip_main_status;",
            "}",
            ""]))

    def prototype(self, f):
        others = [g for g in self.unit.functions if g is not f and g.in_main
                  and g.start == f.start and not g.is_definition]
        if others:
            raise Diagnostic(self.unit.path, f.line, f.col, "async function '%s' declared in "
                             "one declaration with other functions" % f.name,
                             hint="declare it on its own")
        definition = next((g for g in self.unit.functions if g.in_main and g.is_definition
                           and g.name == f.name), None)
        params = self.param_list(definition or f)
        if not f.params and not (definition and definition.params) and \
                b"void" not in self.src[f.start:f.end].split(b"(", 1)[-1]:
            params = ""             # `int f();` declares no prototype: neither do we
        static = "static " if f.static else ""
        self.rw.replace(f.start, f.end, "%sstruct rip_frame *%s__rip(%s)"
                        % (static, f.name, params))

    def param_list(self, f):
        if not f.params:
            return "void"
        return ", ".join(self.src[p.start:p.end].decode("utf-8", "surrogateescape")
                         for p in f.params)

    # -- async functions ----------------------------------------------------

    def async_function(self, f):
        if f.variadic:
            raise Diagnostic(self.unit.path, f.line, f.col,
                             "async function '%s' is variadic" % f.name,
                             hint="take a va_list or an array instead")
        self.check_unrippable(f)
        locals_ = [n for n in f.body.walk() if n.kind == "VAR_DECL" and not n.storage and n.name]
        in_frame = frame_variables(f.body, {d.key: d.type for d in locals_}, self.is_async_call)
        unused = self.unused_params(f)
        fields = self.frame_fields(f, in_frame, unused)
        params = {p.key for p in f.params}
        self.c_local_count = len(locals_) - len([k for k, _, _ in fields if k not in params])
        self.names = {key: field for key, field, _ in fields}
        self.used_fields = set(RESERVED_FIELDS) | set(self.names.values())
        self.temps = []             # (field, declaration, size, align) of temporaries
        self.waits = False          # an intrinsic waits in the frame's rip_w
        self.uses_r = False         # an intrinsic's result passes through the C local rip_r
        self.labels = 0             # rip_cont_N labels made so far
        self.handled = set()        # ids of async calls lowered
        for n in f.body.walk():
            if n.kind == "DECL_REF_EXPR" and n.ref in self.names:
                self.rename(n, "rip_F->" + self.names[n.ref])
            elif n.kind == "DECL_REF_EXPR" and n.ref in unused:
                self.rename(n, "0")        # (void)arg: (void)0
        self.function_values(f.body)
        calls = [c for c in evaluated_calls(f.body) if self.is_async_call(c)]
        for call in calls:
            if callee_name(call) in self.async_names:
                self.rename_callee(call)
        self.unevaluated_calls(f.body)
        self.apply_aliases(f.body)
        self.points = {id(c): i for i, c in enumerate(calls, 1)}
        self.expr = ExprLowering(self)
        self.lower_declarations(f)
        self.lower_returns(f)
        for call in calls:
            if id(call) not in self.handled:
                self.lower_statement_of(call)
        missed = [c for c in calls if id(c) not in self.handled]
        if missed:
            raise self.error(missed[0], "async call to '%s' in this position is not supported"
                             % callee_name(missed[0]),
                             hint="call it before, and use a variable here")
        self.frame(f, fields, len(calls))

    def check_unrippable(self, f):
        found = unrippable(f)
        if found:
            node, message, hint = found
            raise self.error(node, message, hint=hint)
        for n in f.body.walk():
            if n.kind == "UNEXPOSED_EXPR" and \
                    self.src[n.start:n.start + 21] == b"__builtin_choose_expr" and \
                    any(self.is_async_call(c) for c in n.walk()):
                raise self.error(n, "async call inside __builtin_choose_expr",
                                 hint="choose with an if statement")

    def unused_params(self, f):
        """Keys of the parameters that f's body never reads: it names them
        only cast to void (`(void)arg;`).  They need no place in the frame."""
        uses = {p.key: [] for p in f.params if p.name}
        for n in f.body.walk():
            if n.kind == "DECL_REF_EXPR" and n.ref in uses:
                uses[n.ref].append(n)
        return {key for key, refs in uses.items() if all(_cast_to_void(r) for r in refs)}

    def frame_fields(self, f, in_frame, unused=()):
        """(key, field name, type) of the parameters (less the unused) and of
        the locals that live in the frame."""
        used = set(RESERVED_FIELDS)
        fields = []
        decls = [p for p in f.params if p.key not in unused] + \
            [n for n in f.body.walk() if n.kind == "VAR_DECL" and not n.storage and n.key in in_frame]
        for d in decls:
            if not d.name:
                continue
            if d.type is None or d.type.local:
                raise self.error(d, "the type of '%s' is declared inside a function or has no name"
                                 % d.name, hint="declare the type at file scope, with a name, "
                                 "so the frame of '%s' can hold it" % f.name)
            name, i = d.name, 2
            while name in used:
                name, i = "%s_%d" % (d.name, i), i + 1
            used.add(name)
            fields.append((d.key, name, d.type))
        return fields

    def frame(self, f, fields, points):
        """The frame struct, constructor and resume entry around the body."""
        fr = "%s__frame" % f.name
        static = "static __attribute__((unused)) " if f.static else ""
        members = ["rip_frame rip_hdr;"]
        if f.result.kind != "VOID":
            members.append("__typeof__(%s) rip_result;" % f.result.unqualified)
        members += ["__typeof__(%s) %s;" % (t.unqualified, name) for _, name, t in fields]
        members += [decl for _, decl, _, _ in self.temps]
        layout = [(f.result.size, f.result.align)] if f.result.kind != "VOID" else []
        layout += [(t.size, t.align) for _, _, t in fields]
        layout += [(size, align) for _, _, size, align in self.temps]
        if self.waits:
            members.append("rip_wait rip_w;")
            layout.append((WAIT_BYTES, 8))
        self.stats.append(FrameStats(f.name, frame_size(layout), points + self.all_async,
                                     len(fields), self.c_local_count))
        param_names = {p.key: p.name for p in f.params}
        stores = " ".join(["%s;" % self.store("rip_F->" + name, t, param_names[key])
                           for key, name, t in fields if key in param_names] +
                          ["(void)%s;" % p.name for p in f.params
                           if p.name and p.key not in self.names])
        if f.name == "main" and f.result.kind != "VOID":
            stores = ("rip_F->rip_result = 0; " + stores).strip()   # main may end without return
        resume = "static int %s__resume(rip_frame *rip_self, rip_frame *rip_c)" % f.name
        self.rw.insert_lines(self.unit.source.count(b"\n", 0, f.start) + 1, [
            "struct %s { %s };" % (fr, " ".join(members)),
            resume + ";",
            "%sstruct rip_frame *%s__rip(%s) { struct %s *rip_F = rip_frame_alloc(sizeof *rip_F, "
            "%s__resume); %s%sreturn &rip_F->rip_hdr; }"
            % (static, f.name, self.param_list(f), fr, f.name, stores, " " if stores else ""),
        ])
        entry = ""
        if self.all_async:          # the testing mode: a suspension on entry
            points += 1
            entry = " " + yield_point(points)
        cases = " ".join("case %d: goto rip_resume_%d;" % (i, i) for i in range(1, points + 1))
        head = ("%s { struct %s *rip_F = (struct %s *)rip_self; (void)rip_F; (void)rip_c; %s"
                "switch (rip_self->state) { case 0: break; %s%sdefault: __builtin_unreachable(); }%s"
                % (resume, fr, fr, "int rip_r; " if self.uses_r else "", cases,
                   " " if cases else "", entry))
        opening, closing = self.body_braces(f)
        self.rw.replace(f.start, f.body.start + opening, head)
        self.rw.replace(f.body.end - closing, f.body.end, "return 1; }")

    def body_braces(self, f):
        """Bytes of the braces of f's body: 1 for { }, 2 for <% %>."""
        src, b = self.src, f.body
        opening = (1 if src[b.start:b.start + 1] == b"{" else
                   2 if src[b.start:b.start + 2] == b"<%" else 0)
        closing = (1 if src[b.end - 1:b.end] == b"}" else
                   2 if src[b.end - 2:b.end] == b"%>" else 0)
        if not opening or not closing:
            raise self.error(b, "the braces of this async function's body come from a macro",
                             hint="write { and } out")
        return opening, closing

    # -- the interface expr.py uses -----------------------------------------

    def is_async_call(self, node):
        return is_async_call(node, self.async_names)

    def new_field(self, decl_type, size, align):
        """A new frame temporary; returns its C expression."""
        i = len(self.temps) + 1
        while "rip_t%d" % i in self.used_fields:
            i += 1
        name = "rip_t%d" % i
        self.used_fields.add(name)
        self.temps.append((name, decl_type % name, size, align))
        return "rip_F->" + name

    def temp(self, type_info):
        return self.new_field("__typeof__(%s) %%s;" % type_info.unqualified,
                              type_info.size, type_info.align)

    def temp_int(self):
        return self.new_field("int %s;", 4, 4)

    def temp_pointer(self, type_info):
        return self.new_field("__typeof__(%s) *%%s;" % type_info.spelling, 8, 8)

    def call_code(self, call, values=None, used=True):
        """The CallCode of async call `call`; `values` maps arguments already
        lowered (id) to their text; `used`: is its value read?"""
        if any(a.kind == "STMT_EXPR" for a in _ancestors(call)):
            raise self.error(call, "async call to '%s' inside a statement expression"
                             % callee_name(call), hint="move it out of the ({ ... })")
        self.handled.add(id(call))
        point = self.points[id(call)]
        values = values or {}
        name = self.intrinsic(call)
        if name is None:
            free = "rip_frame_free(rip_c);"
            callee = self.defined.get(callee_name(call))
            frame = None
            if callee is not None and callee.start < call.start:   # its frame struct is above
                frame = "struct %s__frame" % callee.name
                free = "rip_frame_free_sized(rip_c, sizeof(%s));" % frame
            void = call.type is None or call.type.kind == "VOID"
            return CallCode(resume_point(point, self.expr.splice(call, values)),
                            None if void else self.result(call, frame), free)
        if name == "rip_yield":
            return CallCode(yield_point(point), None, "")
        tries, woken = INTRINSICS[name]
        args = [values.get(id(a)) or self.text(a) for a in call.children[1:]]
        self.waits = True
        attempt = "%s(%s, &rip_F->rip_w)" % (tries, ", ".join(args))
        if used and woken:
            self.uses_r = True
            return CallCode(wait_point(point, "(rip_r = %s)" % attempt,
                                       "rip_r = %s(&rip_F->rip_w);" % woken), "rip_r", "")
        after = "(void)%s(&rip_F->rip_w);" % woken if woken == "rip__chan_send_woken" else ";"
        return CallCode(wait_point(point, attempt, after), None, "")

    def intrinsic(self, call):
        """The runtime primitive `call` calls directly, if it is one ripper
        inlines (rip_frame.h's intrinsics); None for a call to anything else,
        through a pointer, or written by a macro (those call constructors)."""
        name = callee_name(call)
        if name in INTRINSICS and name in self.headers and not call.in_macro:
            return name
        return None

    def call_then(self, call, consume=None):
        """A lone async call (arguments without async calls): the call, then
        consume(its value)'s statement, then what it used released."""
        code = self.call_code(call, used=consume is not None)
        return "%s%s %s" % (code.begin, consume(code.result) if consume else "", code.end)

    # -- calls --------------------------------------------------------------

    def rename_callee(self, call):
        """`f(...)` becomes `f__rip(...)`, the callee's frame constructor."""
        name = callee_name(call)
        callee = next(n for n in call.walk() if n.kind == "DECL_REF_EXPR" and n.ref == call.ref)
        inv = self.invocation(callee.loc)
        if inv is not None:
            use = _unwrap_up(call)
            if (call.start, call.end) != inv or use.parent is None or \
                    (use.parent.start, use.parent.end) == inv:
                raise self.error(call, "async call to '%s' inside a macro that does more than "
                                 "the call" % name, hint="expand the macro by hand here")
        self.rename(callee, name + "__rip")

    def result(self, call, frame=None):
        """The value of a constructor call's callee, read from its frame.
        With the callee's frame struct at hand, its type is taken from
        there: a local type of the same name may hide the one the callee
        returns (`struct vec` declared again in a block)."""
        if frame is not None:
            return "RIP_RESULT(__typeof__(((%s *)0)->rip_result), rip_c)" % frame
        return "RIP_RESULT(%s, rip_c)" % call.type.spelling

    def simple_call(self, node):
        """An async call whose arguments hold no async call."""
        return self.is_async_call(node) and \
            not any(self.expr.has_async(a) for a in node.children[1:])

    def store(self, target, type_info, value):
        """`target = value`, also for structs with const members (a copy)."""
        if type_info is None or type_info.assignable:
            return "%s = %s" % (target, value)
        return "__builtin_memcpy((void *)&%s, (%s[1]){%s}, sizeof %s)" % (
            target, "__typeof__(%s)" % type_info.unqualified, value, target)

    def lower_statement_of(self, call):
        """Lower the statement, or the statement's condition, holding `call`."""
        x = call
        while True:
            p = x.parent
            if p is None:
                raise self.error(call, "async call to '%s' outside any statement" % callee_name(call))
            if is_statement(x) and x.kind not in STATEMENT_PARENTS:
                return self.expression_statement(x)
            if p.kind in ("IF_STMT", "WHILE_STMT", "SWITCH_STMT") and x is p.children[0]:
                return self.condition(p)
            if p.kind == "DO_STMT" and x is p.children[-1]:
                return self.do_loop(p)
            if p.kind == "FOR_STMT" and x is not p.children[-1]:
                return self.for_loop(p)
            if p.kind == "DECL_STMT" and p.parent is not None and \
                    p.parent.kind == "FOR_STMT" and p is not p.parent.children[-1]:
                return self.for_loop(p.parent)      # a declaration in a for's init
            if p.kind in ("RETURN_STMT", "CASE_STMT") or \
                    (p.kind == "DECL_STMT" and p.parent is not None):
                return              # not ours: left for the final check to report
            x = p

    def expression_statement(self, stmt):
        end = self.stmt_end(stmt)
        call = _unwrap_down(stmt)
        if self.simple_call(call):              # f(...);
            self.rw.replace(stmt.start, end, "{ %s }" % self.call_then(call))
            return
        if stmt.kind == "BINARY_OPERATOR" and stmt.op == "=" and \
                self.simple_call(_unwrap_down(stmt.children[1])) and \
                not self.expr.has_async(stmt.children[0]):     # lhs = f(...);
            call = _unwrap_down(stmt.children[1])
            lhs = self.text(stmt.children[0])
            self.rw.replace(stmt.start, end, "{ %s }" % self.call_then(
                call, lambda value: "%s = %s;" % (lhs, value)))
            return
        pre, value = self.expr.lower(stmt)
        if value == "(void)0" or self.expr.is_temp(value):
            value = ""              # its value is discarded: nothing left to do
        else:
            value += ";"
        self.rw.replace(stmt.start, end, "{ %s %s }" % (" ".join(pre), value))

    # -- control statements with async calls in their header -----------------

    def header_end(self, stmt, last):
        """Offset just past the ')' that follows node `last` in a header."""
        i = self.skip_space(last.end)
        if self.src[i:i + 1] != b")":
            raise self.error(last, "cannot find the ')' of this statement's header",
                             hint="a macro may hide it; write the header out")
        return i + 1

    def skip_space(self, i):
        while i < len(self.src) and self.src[i:i + 1] in (b" ", b"\t", b"\n", b"\r"):
            i += 1
        return i

    def close_after(self, stmt, text):
        """Insert `text` right after statement `stmt`."""
        self.rw.insert(self.stmt_end(stmt), text, depth=sum(1 for _ in _ancestors(stmt)))

    def condition(self, stmt):
        """if / while / switch (cond with async calls)."""
        cond = stmt.children[0]
        pre, value = self.expr.lower(cond)
        head_end = self.header_end(stmt, cond)
        if stmt.kind == "WHILE_STMT":       # continue re-evaluates: for(;;) top
            self.rw.replace(stmt.start, head_end, "for (;;) { %s if (!(%s)) break;"
                            % (" ".join(pre), value))
        else:
            keyword = "if" if stmt.kind == "IF_STMT" else "switch"
            self.rw.replace(stmt.start, head_end, "{ %s %s (%s)" % (" ".join(pre), keyword, value))
        self.close_after(stmt, " }")

    def continue_label(self, loop, body):
        """Point every `continue` of `loop` at a new label; return the
        label's definition ("" when nothing continues)."""
        continues = list(_own_continues(body))
        if not continues:
            return ""
        for n in continues:
            if n.in_macro:
                raise self.error(n, "a continue written by a macro, in a loop whose condition "
                                 "waits", hint="write the continue out")
        self.labels += 1
        label = "rip_cont_%d" % self.labels
        for n in continues:
            self.rw.replace(n.start, n.end, "goto " + label)
        return label + ": ;"

    def do_loop(self, stmt):
        body, cond = stmt.children[0], stmt.children[-1]
        pre, value = self.expr.lower(cond)
        label = self.continue_label(stmt, body)
        self.rw.replace(stmt.start, stmt.start + 2, "for (;;) {")
        body_end = self.stmt_end(body)
        self.rw.replace(body_end, self.stmt_end(stmt), " %s %s if (!(%s)) break; }"
                        % (label, " ".join(pre), value))

    def for_parts(self, stmt):
        """(init, cond, inc, body, (offsets of the two ';')) of a for statement."""
        if stmt.for_parts is None:
            raise self.error(stmt, "async call in a for statement whose header a macro builds",
                             hint="write the header's three parts out")
        init, cond, inc, semi1, semi2, _ = stmt.for_parts
        return init, cond, inc, stmt.children[-1], (semi1, semi2)

    def for_loop(self, stmt):
        init, cond, inc, body, semis = self.for_parts(stmt)
        code = ["{"]                # everything is lowered before the header is replaced
        if init is not None:
            if init.kind == "DECL_STMT":
                code.append(self.declaration_code(init))
            else:
                pre, value = self.expr.lower(init)
                code += pre + ["%s;" % value]
        if (cond is None or not self.expr.has_async(cond)) and \
                (inc is None or not self.expr.has_async(inc)):
            # Only the init clause waits: run it before an ordinary loop.
            self.rw.replace(stmt.start, semis[0] + 1, " ".join(code) + " for (;")
            self.close_after(stmt, " }")
            return
        code.append("for (;;) {")
        if cond is not None:
            pre, value = self.expr.lower(cond)
            code += pre + ["if (!(%s)) break;" % value]
        label = self.continue_label(stmt, body)
        tail = [" " + label] if label else [""]
        if inc is not None:
            pre, value = self.expr.lower(inc)
            tail += pre + ["%s;" % value]
        head_end = self.header_end(stmt, inc) if inc is not None else \
            self.skip_space(semis[1] + 1) + 1
        self.rw.replace(stmt.start, head_end, " ".join(code))
        self.close_after(stmt, " ".join(tail) + " } }")

    # -- declarations and returns --------------------------------------------

    def lower_declarations(self, f):
        """Frame variables' declarations become stores into the frame; C
        locals keep their declarations (regenerated only when they share one
        with frame variables or wait for an async initializer)."""
        for stmt in [n for n in f.body.walk() if n.kind == "DECL_STMT"]:
            decls = [d for d in stmt.children if d.kind == "VAR_DECL"]
            if not decls or any(d.storage for d in decls):
                continue
            in_frame = [d for d in decls if d.key in self.names]
            waits = any(d.init is not None and self.expr.has_async(d.init) for d in decls)
            if not in_frame and not waits:
                continue            # plain C locals: untouched
            if stmt.in_macro:
                raise self.error(stmt, "a declaration written by a macro declares '%s', which "
                                 "must live in the frame" % decls[0].name,
                                 hint="write the declaration out")
            loop = stmt.parent
            if loop is not None and loop.kind == "FOR_STMT":
                header = loop.for_parts[:3] if loop.for_parts else loop.children[:-1]
                if any(p is not None and self.expr.has_async(p) for p in header):
                    continue        # the whole header is lowered with the loop
                if len(in_frame) < len(decls):
                    self.for_loop(loop)     # declares C locals before the loop
                    continue
                inits = [self.init_code(d, d.init) for d in decls if d.init is not None]
                self.rw.replace(stmt.start, self.stmt_end(stmt), ", ".join(inits) + ";")
                continue
            self.rw.replace(stmt.start, self.stmt_end(stmt), self.declaration_code(stmt))

    def declaration_code(self, stmt):
        """Statements that initialize a declaration's frame fields and
        declare its C locals, in order, each on its declarator's line."""
        parts = []
        prev = stmt.start
        for d in [d for d in stmt.children if d.kind == "VAR_DECL"]:
            newlines = self.src.count(b"\n", prev, d.loc)
            prev = d.loc
            if newlines and parts:
                parts.append("\n" * newlines)
            code = self.frame_init(d) if d.key in self.names else self.c_local(stmt, d)
            if code:
                parts.append(code)
        return " ".join(parts).replace(" \n", "\n").replace("\n ", "\n") or ";"

    def frame_init(self, d):
        """Statements that store the initializer of frame variable `d`."""
        if d.init is None:
            return ""
        value = _unwrap_down(d.init)
        if self.simple_call(value):
            target = "rip_F->" + self.names[d.key]
            return "{ %s }" % self.call_then(
                value, lambda v: "%s;" % self.store(target, d.type, v))
        if self.expr.has_async(d.init):
            pre, v = self.expr.lower(d.init)
            return "{ %s %s; }" % (" ".join(pre), self.init_code(d, d.init, v))
        return self.init_code(d, d.init) + ";"

    def c_local(self, stmt, d):
        """The declaration of C local `d`, its async initializer lowered first."""
        if d.init is None or not self.expr.has_async(d.init):
            return "__typeof__(%s) %s%s;" % (
                d.type.spelling, d.name, "" if d.init is None else " = " + self.text(d.init))
        value = _unwrap_down(d.init)
        if self.simple_call(value):
            # The label needs a statement after it: `rip_resume_N: ;` then the declaration.
            code = self.call_code(value)
            return "%s; %s = %s; %s" % (code.begin, self.c_local_declaration(stmt, d),
                                        code.result, code.end)
        pre, v = self.expr.lower(d.init)
        return "%s %s = %s;" % (" ".join(pre), self.c_local_declaration(stmt, d), v)

    def c_local_declaration(self, stmt, d):
        """`T name` for a C local whose initializer is lowered apart: the
        user's own text when it is a lone declarator."""
        name_end = d.loc + len(d.name.encode())
        own = self.rw.text(stmt.start, name_end)
        lone = len([c for c in stmt.children if c.kind == "VAR_DECL"]) == 1
        rest = self.src[name_end:d.init.start] if d.init is not None else b""
        if lone and own.endswith(d.name) and stmt.start <= d.loc and "=" not in own and \
                rest.strip() == b"=":       # nothing of the declarator after the name
            return own
        return "__typeof__(%s) %s" % (d.type.spelling, d.name)

    def init_code(self, decl, init, text=None):
        """An expression that initializes the frame field of `decl`."""
        target = "rip_F->" + self.names[decl.key]
        if text is None:
            text = self.text(init)
        if decl.type.canonical_kind in ("CONSTANTARRAY", "INCOMPLETEARRAY"):
            if init.kind != "INIT_LIST_EXPR":
                text = "{" + text + "}"
            return "__builtin_memcpy((void *)&%s, &(%s)%s, sizeof %s)" % (
                target, decl.type.unqualified, text, target)
        if not decl.type.assignable:
            return self.store(target, decl.type, text)
        if init.kind == "INIT_LIST_EXPR":
            return "%s = (%s)%s" % (target, decl.type.unqualified, text)
        return "%s = %s" % (target, text)

    def lower_returns(self, f):
        void = f.result.kind == "VOID"
        for ret in [n for n in f.body.walk() if n.kind == "RETURN_STMT"]:
            if ret.in_macro:
                raise self.error(ret, "a return written by a macro, in async function '%s'"
                                 % f.name, hint="write the return out")
            done = "return 1; }"
            if not ret.children:
                code = "{ " + done
            else:
                expr = ret.children[0]
                value = _unwrap_down(expr)
                if self.simple_call(value):
                    store = None if void else lambda v: "%s;" % self.store(
                        "rip_F->rip_result", f.result, v)
                    code = "{ %s %s" % (self.call_then(value, store), done)
                else:
                    pre, v = self.expr.lower(expr)
                    store = "%s;" % v if void else "%s;" % self.store("rip_F->rip_result",
                                                                     f.result, v)
                    code = "{ %s %s %s" % (" ".join(pre), store, done)
            self.rw.replace(ret.start, self.stmt_end(ret), code)


class CallCode(namedtuple("CallCode", "begin result end")):
    """An async call lowered: `begin` starts it and, if it suspends, suspends
    this function too, to resume right after; `result` is its value after
    `begin` (None for void); `end` releases what it used (its frame)."""


def resume_point(point, constructor):
    """Start a callee (its frame from `constructor`); if it suspends, so does
    this function, to resume at the label right after.  The resume point is
    stored only then.  rip_call's indirect call is devirtualized: the inline
    rip_frame_alloc has just stored the resume entry."""
    return ("rip_c = %s; if (!rip_call(rip_self, rip_c)) { rip_self->state = %d; return 0; } "
            "rip_resume_%d: " % (constructor, point, point))


def yield_point(point):
    """rip_yield() inlined: this frame is the one the task resumes."""
    return "rip_self->state = %d; return rip__yield_in(rip_self); rip_resume_%d: ;" % (
        point, point)


def wait_point(point, attempt, woken):
    """A channel or wait-group intrinsic: `attempt` returns RIP_WAITS when this
    frame is queued; then suspend, and run `woken` once resumed."""
    return ("if (%s == RIP_WAITS) { rip_self->state = %d; return rip__wait_in(rip_self); "
            "rip_resume_%d: %s }" % (attempt, point, point, woken))


def frame_size(layout):
    """sizeof a frame: the header, then members of (size, align) in order."""
    offset, biggest = FRAME_HEADER, 8
    for size, align in layout:
        size, align = (size, align) if size > 0 and align > 0 else (8, 8)
        offset = (offset + align - 1) // align * align + size
        biggest = max(biggest, align)
    return (offset + biggest - 1) // biggest * biggest


def _own_continues(node):
    """CONTINUE_STMT nodes in `node` that belong to the loop around it."""
    for child in node.children:
        if child.kind == "CONTINUE_STMT":
            yield child
        elif child.kind not in ("FOR_STMT", "WHILE_STMT", "DO_STMT"):
            yield from _own_continues(child)
    if node.kind == "CONTINUE_STMT":
        yield node


def _cast_to_void(ref):
    """Is `ref` the operand of a cast to void, (void)ref?"""
    use = _unwrap_up(ref)
    p = use.parent
    return p is not None and p.kind == "CSTYLE_CAST_EXPR" and p.type is not None and \
        p.type.kind == "VOID"


def _unwrap_down(node):
    while node.kind in TRANSPARENT and len(node.children) == 1:
        node = node.children[0]
    return node


def _ancestors(node):
    node = node.parent
    while node is not None:
        yield node
        node = node.parent

"""lower.py -- async functions become frames, a constructor and a resume entry.

Each async function becomes a frame struct, a constructor and a resume
entry (the ABI of abi.py and runtime/src/rip/rip_frame.h).  Its locals
that liveness.py puts in the frame move there (`x` becomes `rip_F->x`),
each Await of normalize.py becomes a resume point, and the function's
own control flow stays as written: the resume entry's dispatch jumps
with `goto` to the label right after the call it suspended in, wherever
that is (in a loop, a user switch, ...).

    RIP_ASYNC int twice(int a) {        struct twice__frame { struct rip_frame rip_hdr;
        int b = a;                          __typeof__(int) rip_result; __typeof__(int) a; };
        rip_yield();                    static int twice__resume(...);
        return a + b;                   struct rip_frame *twice__rip(int a) {...}
    }                                   static int twice__resume(struct rip_frame *rip_self,
                                                struct rip_frame *rip_c) { ...dispatch...
                                            int b = rip_F->a;       (b: not live across)
                                            rip_self->state = 1; return rip__yield_in(rip_self);
                                            rip_resume_1: ;
                                            { rip_F->rip_result = rip_F->a + b; return 1; }
                                        return 1; }

The printer writes a node as its own text with the parts that changed in
their places (so untouched code stays byte for byte, comments included),
and synthesized statements as generated code.  Declarations of async
functions gain a constructor prototype; RIP_ASYNC_FN types become
constructor types.  What cannot be ripped is a diagnostic, never wrong
code.
"""

import re

from . import abi
from . import tree as T
from .analysis import (explicit_alignment, function_values, is_async_call, unrippable,
                       value_destination, variably_modified)
from .diag import Diagnostic
from .emit import ENCODING, Overlap, Rewriter
from .evaluation import callee_name, walk_evaluated
from .liveness import frame_variables
from .normalize import normalize

RESERVED_FIELDS = (abi.HEADER, abi.RESULT, abi.WAIT)
RESERVED = re.compile(r"^(rip_F|rip_c|rip_r|rip_self|rip_t\d+|rip_resume_\d+|rip_cont_\d+|"
                      r"rip_main_\w+|rip__\w*)$")
RUNTIME_HEADER = "rip.h"


class FrameStats:
    """What ripper --stats prints for one async function."""

    def __init__(self, name, frame_bytes, suspensions, in_frame, c_locals):
        self.name = name                # the function
        self.frame_bytes = frame_bytes  # sizeof its frame struct
        self.suspensions = suspensions  # resume points
        self.in_frame = in_frame        # variables in the frame (parameters included)
        self.c_locals = c_locals        # locals left as C locals of the resume entry


def lower(unit, analysis, all_async=False, stats=None):
    """A Rewriter holding every edit that rips `unit`; raise Diagnostic
    for what cannot be ripped.  With all_async, every ripped function
    yields once on entry and keeps its plain definition beside, and an
    async `main` runs as the first task.  `stats`, a list, receives a
    FrameStats per async function."""
    return _Lowering(unit, analysis, all_async, stats if stats is not None else []).run()


class _Lowering:
    def __init__(self, unit, analysis, all_async, stats):
        self.unit = unit
        self.text = unit.text
        self.analysis = analysis
        self.names = analysis.names
        self.all_async = all_async
        self.stats = stats
        self.rw = Rewriter(unit.pre)
        self.functions = analysis.functions
        self.typedefs = set()       # async functions whose result typedef is emitted
        self.hoisted = {}           # key of a static local -> its file-scope name (--all-async)
        self.declared = set()       # async functions whose constructor is declared so far

    def error(self, node, message, hint=None):
        offset = node if isinstance(node, int) else node.start
        name, line, _ = self.unit.lines.where(max(offset, 0))
        return Diagnostic(name, line, self.unit.lines.column(max(offset, 0)), message, hint)

    def run(self):
        self.check_names()
        for start, name_at, annotations in self.unit.async_typedefs:
            self.async_typedef(start, name_at, annotations)
        groups = _declaration_groups(self.unit.functions)
        for group in groups:
            first = group[0]
            if first.definition and first.body is not None and not first.system:
                if first.name in self.names:
                    self.async_definition(first)
                else:
                    self.plain_definition(first)
            else:
                self.declarations(group)
        for g in self.unit.globals:
            self.plain_edits(g)
        main = self.analysis.defined.get("main")
        if main is not None and "main" in self.names:
            self.main_task(main)
        self.rw.insert(len(self.text), [("\n" + abi.check() + "\n", None)])
        self.rw.lowering = self     # for ripper --stage (stages.py)
        return self.rw

    # -- names ----------------------------------------------------------------

    def check_names(self):
        """The names ripper generates must not be the user's."""
        for f in self.unit.functions:
            if not f.system and RESERVED.match(f.name):
                raise self.error(f.name_at, "'%s' is a name ripper reserves" % f.name,
                                 hint="rename it")
        for name, offset in self.unit.global_names:
            if RESERVED.match(name):
                raise self.error(offset, "'%s' is a name ripper reserves" % name,
                                 hint="rename it")
        for f in self.analysis.defined.values():
            for n in list(f.params) + list(f.body.walk()):
                if isinstance(n, (T.VarDecl, T.ParamDecl, T.Label)) and RESERVED.match(n.name):
                    raise self.error(n, "'%s' is a name ripper reserves" % n.name,
                                     hint="rename it")

    # -- declarations -------------------------------------------------------

    def remove_annotations(self, ranges):
        """RIP_ASYNC's annotate attribute means nothing to the compiler
        (gcc would warn): `__attribute__((annotate("rip_async")))` becomes
        `__attribute__(())`."""
        for a, b in ranges:
            self.rw.replace(a, b, [])

    def declarations(self, group):
        """Declarations (not definitions) of functions, one declaration:
        each async one gains its constructor's prototype after it."""
        lines = []
        for f in group:
            if f.name not in self.names:
                continue
            lines.append(self.prototype_text(f))
        if not lines:
            return
        end = _semicolon_after(self.text, max(f.end for f in group))
        plain_left = self.all_async and any(f.name in self.analysis.defined for f in group)
        if any(f.static for f in group) and not plain_left and not group[0].system:
            # a static function declared but never defined is a warning: the
            # async ones' declarations go, the plain ones' stay, each apart
            specs = self.text[group[0].start:_declarator_start(self.text, group[0])]
            kept = ["%s%s;" % (specs.decode(*ENCODING), self.text[
                _declarator_start(self.text, f):f.end].decode(*ENCODING))
                for f in group if f.name not in self.names]
            self.rw.replace(group[0].start, end, [(" ".join(kept + lines), None)])
            return
        for f in group:
            if not f.system:
                self.remove_annotations(f.annotations)
        self.rw.insert(end, [(" " + " ".join(lines), None)])

    def prototype_text(self, f, block_scope=False):
        """`typedef T rip__result_f; struct rip_frame *f__rip(params);` for a
        declaration of async function f (the typedef at its first
        file-scope declaration)."""
        params = self.params_text(f)
        out = []
        if not block_scope and f.name not in self.typedefs and f.result is not None and \
                not f.result.void:
            out.append("typedef __typeof__(%s) %s;" % (f.result.spelling,
                                                      abi.result_typedef(f.name)))
            self.typedefs.add(f.name)
        static = "static " if f.static else ""
        out.append("%sstruct rip_frame *%s%s;" % (static, abi.constructor(f.name), params))
        if not block_scope:
            self.declared.add(f.name)
        return " ".join(out)

    def params_text(self, f):
        """`(int a, char *b)` as the declaration writes it."""
        i = _params_open(self.text, f)
        j = _matching_paren(self.text, i)
        if j < 0:
            raise self.error(f.name_at, "cannot find the parameter list of '%s'" % f.name)
        return self.text[i:j + 1].decode(*ENCODING)

    def async_typedef(self, start, name_at, annotations):
        """typedef RIP_ASYNC_FN(int, handler_fn, (int fd)) -- preprocessed to
        `typedef __attribute__((annotate("rip_async"))) int handler_fn (int fd)`
        -- becomes `typedef __attribute__(()) struct rip_frame *handler_fn (int fd)`."""
        if self.unit.lines.in_system_header(start) and \
                not self.unit.lines.where(start)[0].endswith(RUNTIME_HEADER):
            pass
        a, b = annotations[-1]
        close = _skip_blank(self.text, b)
        if self.text[close:close + 2] != b"))":
            raise self.error(a, "RIP_ASYNC_FN type written in an unexpected way",
                             hint="write typedef RIP_ASYNC_FN(ret, name, (params));")
        ret_start = close + 2
        paren = self.text.find(b"(", ret_start, name_at)
        ret_end = paren if paren >= 0 else name_at
        self.remove_annotations(annotations)
        self.rw.replace(ret_start, ret_end, [(" struct rip_frame *", None)])

    # -- plain functions ----------------------------------------------------

    def plain_definition(self, f):
        self.remove_annotations(f.annotations)
        for call in _calls(f.body):
            if is_async_call(call, self.names) and not self.all_async:
                callee = callee_name(call)
                raise self.error(call, "'%s' calls async function '%s' outside a task"
                                 % (f.name, callee or "through a pointer"),
                                 hint="start the work as a task with rip_run or rip_spawn" +
                                 ("; %s" % self.analysis.chain(callee) if callee else ""))
        self.plain_edits(f.body)

    def plain_edits(self, root):
        """In code that is not ripped: async functions used as values become
        their constructors; async calls C never evaluates keep their type;
        block-scope declarations of async functions gain prototypes."""
        skip = []
        for call in _unevaluated_async(root, self.names):
            if any(s <= call.start and call.end <= e for s, e in skip):
                continue
            self.rw.replace(call.start, call.end, [(self.unevaluated_text(call), None)])
            skip.append((call.start, call.end))
        for ref in function_values(root):
            if any(s <= ref.start and ref.end <= e for s, e in skip):
                continue
            text = self.function_value(ref)
            if text is not None:
                self.rw.replace(ref.start, ref.end, [(text, None)])
        for n in root.walk():
            if isinstance(n, T.DeclStmt):
                protos = self.block_prototypes(n)
                if protos:
                    self.rw.insert(n.end, [(" " + protos, None)])

    def block_prototypes(self, decl_stmt):
        out = []
        for d in decl_stmt.decls:
            if isinstance(d, T.FuncDecl) and d.name in self.names:
                f = self.functions.get(d.name)
                if f is not None:
                    name_at = self.text.find(d.name.encode(), d.start, d.end)
                    params = self.text[name_at + len(d.name):d.end].decode(*ENCODING)
                    out.append("struct rip_frame *%s%s;" % (abi.constructor(d.name), params))
        return " ".join(out)

    def function_value(self, ref):
        """The text an async function used as a value becomes, or None to
        leave it; raise when it goes where a plain pointer is expected."""
        name = ref.name
        dest = value_destination(ref, self.functions)
        if name in self.names:
            if dest is not None and dest.async_fn:
                return abi.constructor(name)
            if self.all_async and name in self.analysis.defined:
                return None         # the plain definition stays
            if dest is None:
                raise self.error(ref, "async function '%s' used as a value where ripper "
                                 "cannot tell the type it becomes" % name,
                                 hint="assign it to a variable of a RIP_ASYNC_FN type first")
            raise self.error(ref, "async function '%s' used where a plain function pointer "
                             "('%s') is expected" % (name, dest.spelling),
                             hint="a function that may suspend cannot be called from code "
                             "that does not expect it (a qsort comparator); declare the "
                             "pointer's type with RIP_ASYNC_FN; %s" % self.analysis.chain(name))
        if dest is not None and dest.async_fn:
            raise self.error(ref, "'%s' is not async but is used as an async function ('%s')"
                             % (name, dest.spelling),
                             hint="mark its declaration RIP_ASYNC, or define it in this file")
        return None

    def unevaluated_text(self, call):
        """An async call C never evaluates keeps only its type."""
        if call.type is None or call.type.void:
            return "((void)0)"
        return "(*(%s *)0)" % self.result_type(call)

    def result_type(self, call):
        """The type of an async call's value, spelled so that no local type
        of the same name can hide it."""
        name = callee_name(call)
        if name is not None and name in self.typedefs:
            return abi.result_typedef(name)
        return "__typeof__(%s)" % call.type.spelling

    # -- async functions ----------------------------------------------------

    def async_definition(self, f):
        try:
            found = unrippable(f)
            if found:
                node, message, hint = found
                raise self.error(node, message, hint=hint)
            statics = self.hoistable_statics(f) if self.all_async and f.name != "main" else []
            ripped = _AsyncFunction(self, f).lower()
        except Diagnostic as d:
            d.function = f.name     # --all-async leaves it plain and tries again
            raise
        if self.all_async:
            self.remove_annotations(f.annotations)
            if statics:
                self.hoist(f, statics)
            if f.static:
                self.rw.insert(f.start, [("__attribute__((unused)) ", None)])
            if f.name != "main":
                self.plain_edits(f.body)
                self.rw.insert(f.end, [("\n", None)] + ripped)
                return
        self.rw.replace(f.start, f.end, ripped)

    def hoistable_statics(self, f):
        """--all-async: the static locals of f, which its plain and ripped
        definitions must share, named for file scope (hoist)."""
        stmts = [n for n in f.body.walk() if isinstance(n, T.DeclStmt) and
                 any(isinstance(d, T.VarDecl) and d.storage == "static" for d in n.decls)]

        def inside(key):
            return key is not None and key.split(":")[0] in ("var", "const") and \
                f.start <= int(key.split(":")[1]) < f.end
        own = {d.key for n in stmts for d in n.decls if isinstance(d, T.VarDecl)}
        for n in stmts:
            for d in n.decls:
                if not isinstance(d, T.VarDecl) or d.storage != "static":
                    raise self.error(n, "a declaration of static locals with others, in '%s'"
                                     % f.name)
                if d.ctype is None or d.ctype.local:
                    raise self.error(d, "static local '%s' of a type declared in '%s', which "
                                     "its plain and ripped definitions could not share"
                                     % (d.name, f.name))
            for x in n.walk():
                if isinstance(x, T.Ref) and inside(x.key) and x.key not in own:
                    raise self.error(x, "a static local's initializer names '%s', declared "
                                     "in '%s'" % (x.name, f.name))
        for n in stmts:
            for d in n.decls:
                self.hoisted[d.key] = "rip__s%d_%s" % (d.name_at, d.name)
        return stmts

    def hoist(self, f, stmts):
        """The static locals of f move before it, under file-scope names:
        its plain definition and its ripped one use the same objects."""
        out = []
        for n in stmts:
            pos, text = n.start, []
            marks = sorted([(d.name_at, d.name_at + len(d.name.encode()), self.hoisted[d.key])
                            for d in n.decls] +
                           [(x.start, x.end, self.hoisted[x.key]) for x in n.walk()
                            if isinstance(x, T.Ref) and x.key in self.hoisted])
            for a, b, name in marks:
                text.append(self.text[pos:a].decode(*ENCODING) + name)
                pos = b
            text.append(self.text[pos:n.end].decode(*ENCODING))
            out.append("".join(text))
            self.rw.replace(n.start, n.end, [(";", None)])
        gone = [(n.start, n.end) for n in stmts] + \
            [(c.start, c.end) for c in _unevaluated_async(f.body, self.names)]
        for x in f.body.walk():
            if isinstance(x, T.Ref) and x.key in self.hoisted and \
                    not any(a <= x.start < b for a, b in gone):
                self.rw.replace(x.start, x.end, [(self.hoisted[x.key], None)])
        self.rw.insert(f.start, [(" ".join(out) + "\n", None)])

    def main_task(self, main):
        """A new `main` that runs the ripped user main as the first task."""
        args = ["rip_main_argc", "rip_main_argv", "rip_main_envp"][:len(main.params)]
        status = "0" if main.result is None or main.result.void else \
            abi.result_access("int")
        self.rw.insert(len(self.text), [("\n".join([
            "",
            "/* --all-async: the program's main runs as the first task. */",
            " ".join(["static int rip_main_argc;", "static char **rip_main_argv;",
                      "static char **rip_main_envp;"][:len(args)]),
            "static int rip_main_status;",
            "static int rip_main_resume(struct rip_frame *rip_self, struct rip_frame *rip_c) {",
            "    if (rip_self->state == 0) {",
            "        rip_self->state = 1;",
            "        rip_c = %s(%s);" % (abi.constructor("main"), ", ".join(args)),
            "        if (!rip__call(rip_self, rip_c))",
            "            return 0;",
            "    }",
            "    rip_main_status = %s;" % status,
            "    rip__frame_free(rip_c);",
            "    return 1;",
            "}",
            "static struct rip_frame *rip_main_task(void *arg) {",
            "    (void)arg;",
            "    return (struct rip_frame *)rip__frame_alloc(sizeof(struct rip_frame), "
            "rip_main_resume);",
            "}",
            "int rip_run(struct rip_frame *(*fn)(void *), void *arg);",
            # the user's own signature: a declaration of main may precede
            "int main(%s) {" % ["void", "int argc", "int argc, char **argv",
                                "int argc, char **argv, char **envp"][len(args)],
            "    %s" % " ".join(["rip_main_argc = argc;", "rip_main_argv = argv;",
                                 "rip_main_envp = envp;"][:len(args)]),
            "    if (rip_run(rip_main_task, 0) != 0)",
            "        return 1;",
            "    return rip_main_status;",
            "}",
            ""]), None)])


class _AsyncFunction:
    """One async function: normalized, its frame laid out, printed."""

    def __init__(self, lowering, f):
        self.lw = lowering
        self.f = f
        self.text = lowering.text
        self.names = lowering.names

    def error(self, node, message, hint=None):
        return self.lw.error(node, message, hint)

    def lower(self):
        f = self.f
        norm = normalize(f, self.names, self.lw.functions, self.error)
        self.norm = norm
        locals_ = [n for n in f.body.walk() if isinstance(n, T.VarDecl)
                   and n.storage not in ("static", "extern") and n.name]
        self.unused = self.unused_params()
        # a variably modified local is never in the frame: no suspension
        # may lie in its scope (check_variably_modified)
        candidates = {d.key: d.ctype for d in locals_ if not variably_modified(d)}
        candidates.update({t.key: t.ctype for t in norm.temps})
        for p in f.params:
            candidates[p.key] = p.ctype
        in_frame = frame_variables(f.body, norm.subst, candidates)
        self.check_variably_modified(in_frame)
        params = [p for p in f.params if p.name and p.key not in self.unused]
        self.fields = {}            # key -> field name
        self.field_types = []       # (name, CType or None, declaration text, alignment)
        self.opaque = {}            # key -> (size, alignment): fields of a local type, as bytes
        used = set(RESERVED_FIELDS)
        for d in params + [d for d in locals_ if d.key in in_frame]:
            self.add_field(d.key, d.name, d.ctype, d, used)
        self.literals = {}          # id(compound literal kept in the frame) -> field
        for lit in _escaping_literals(f.body):
            if lit.type is None or (lit.type.local and lit.type.size <= 0):
                raise self.error(lit, "a compound literal whose address is kept, of a type "
                                 "ripper cannot size", hint="use a named local instead")
            key = "lit:%d" % lit.start
            name = "rip_lit%d" % (len(self.literals) + 1)
            if lit.type.local:      # bytes; the code names the type by the literal itself
                self.add_field(key, name, None, None, used,
                               spelling="unsigned char[%d]" % lit.type.size)
                self.field_types[-1] = self.field_types[-1][:3] + (lit.type.align,)
            else:
                self.add_field(key, name, lit.type, None, used)
            self.literals[id(lit)] = self.fields[key]
        self.c_temps = []
        for t in norm.temps:
            if t.key in in_frame:
                self.add_field(t.key, t.name, t.ctype, None, used, spelling=t.spelling)
            else:
                self.c_temps.append(t)
        self.c_local_count = len([d for d in locals_ if d.key not in in_frame])
        self.waits = any(_intrinsic(a, self.lw) not in (None, "rip_yield") for a in norm.awaits)
        self.uses_r = False
        self.implicit = []          # callees to declare before this function (C89)
        self.values = {id(r) for r in function_values(f.body)}
        self.unevaluated = _unevaluated_async(f.body, self.names)
        self.lw.declared.add(f.name)    # its constructor comes before its resume entry
        self.dirty = self.dirty_nodes()
        body = Printer(self)
        body.inside(f.body)
        return self.assemble(body.pieces)

    def check_variably_modified(self, in_frame):
        """A variable-length array or another variably modified declaration
        may stay a C local while no resume point lies in its scope: the
        dispatch jumps to resume points, and no jump may enter that scope."""
        for compound in self.f.body.walk():
            if not isinstance(compound, T.Compound):
                continue
            for i, item in enumerate(compound.items):
                if not isinstance(item, T.DeclStmt):
                    continue
                vm = [d for d in item.decls if variably_modified(d)]
                if not vm:
                    continue
                d = vm[0]
                what = "variable-length array" if isinstance(d, T.VarDecl) and \
                    d.ctype.canonical == "VARIABLEARRAY" else "variably modified declaration"
                live = [x for x in vm if isinstance(x, T.VarDecl) and x.key in in_frame]
                later = [s for s in [item] + compound.items[i + 1:] if _suspends(s, self.names)]
                if live or later:
                    where = live[0] if live else later[0]
                    raise self.error(d, "%s '%s' in async function '%s' %s"
                                     % (what, d.name, self.f.name,
                                        "must be kept across a suspension" if live else
                                        "has a suspension in its scope (line %d)" %
                                        self.lw.unit.lines.where(where.start)[1]),
                                     hint="give it a constant size, allocate it with malloc, "
                                     "or end its block before the suspension")

    def add_field(self, key, name, ctype, decl, used, spelling=None):
        """A frame field for variable `key`.  A variable of a type file
        scope cannot spell (declared in the function, or unnamed) is kept
        as bytes of its size and alignment, reached through the type of a
        dummy declaration where its own was (see Printer.dummies)."""
        align = explicit_alignment(decl.attrs_text) if isinstance(decl, T.VarDecl) else 0
        if ctype is not None and ctype.local:
            if not isinstance(decl, T.VarDecl) or ctype.size <= 0 or ctype.align <= 0:
                raise self.error(decl if decl is not None else self.f.body,
                                 "the type of '%s' is declared inside a function or has no "
                                 "name, and '%s' must live in the frame" % (name, name),
                                 hint="declare the type at file scope, with a name")
            spelling = "unsigned char[%d]" % ctype.size
            align = max(align, ctype.align)
            self.opaque[key] = (ctype.size, align)
        field, i = name, 2
        while field in used:
            field, i = "%s_%d" % (name, i), i + 1
        used.add(field)
        self.fields[key] = field
        if spelling is None:
            spelling = ctype.unqualified if ctype is not None else "int"
        self.field_types.append((field, ctype, spelling, align))

    def normalized_text(self):
        """The body after normalize.py, every async call a statement of its
        own, before liveness chooses the frame (ripper --stage normalize)."""
        saved = self.fields, self.opaque, self.literals
        self.fields, self.opaque, self.literals = {}, {}, {}
        try:
            printer = Printer(self, abstract=True)
            printer.node(self.f.body)
        finally:
            self.fields, self.opaque, self.literals = saved
        return "".join(t for t, _ in printer.pieces)

    def c_locals(self):
        """The user's locals liveness leaves as C locals of the resume entry."""
        return [n for n in self.f.body.walk() if isinstance(n, T.VarDecl) and n.name and
                n.storage not in ("static", "extern") and n.key not in self.fields]

    def field_access(self, key):
        """The lvalue a variable in the frame is, in the function's body."""
        field = "%s->%s" % (abi.FRAME, self.fields[key])
        if key in self.opaque:
            return "(*(__typeof__(%s) *)%s)" % (_dummy(key), field)
        return field

    def type_text(self, decl):
        """A variable's type, spelled where it is declared."""
        if decl.ctype is not None and decl.ctype.local:
            return "__typeof__(%s)" % _dummy(decl.key)
        return "__typeof__(%s)" % decl.ctype.spelling

    def unused_params(self):
        """Keys of the parameters the body never reads: it names them only
        cast to void (`(void)arg;`).  They need no place in the frame."""
        uses = {p.key: [] for p in self.f.params if p.name}
        for n in self.f.body.walk():
            if isinstance(n, T.Ref) and n.key in uses:
                uses[n.key].append(n)
        return {key for key, refs in uses.items() if all(_cast_to_void(r) for r in refs)}

    def dirty_nodes(self):
        """Ids of the nodes whose text changes: the printer descends only
        into those."""
        dirty = set(self.norm.subst)
        for n in self.f.body.walk():
            if (isinstance(n, T.Ref) and (n.key in self.fields or n.key in self.unused or
                                          id(n) in self.values or n.key in self.lw.hoisted)) or \
                    isinstance(n, (T.FuncName, T.DeclStmt, T.Return)):
                dirty.add(id(n))
        for c in self.unevaluated:
            dirty.add(id(c))
        dirty.update(self.literals)
        # every ancestor of a changed node changes
        for n in list(self.f.body.walk()):
            if id(n) in dirty:
                p = n.parent
                while p is not None and id(p) not in dirty:
                    dirty.add(id(p))
                    p = p.parent
        return dirty

    def assemble(self, body_pieces):
        f = self.f
        lw = self.lw
        fr = abi.frame_struct(f.name)
        members = ["struct rip_frame %s;" % abi.HEADER]
        layout = []
        void = f.result is None or f.result.void
        if not void:
            members.append("__typeof__(%s) %s;" % (f.result.unqualified, abi.RESULT))
            layout.append((f.result.size, f.result.align))
        for name, ctype, spelling, align in self.field_types:
            members.append("__typeof__(%s) %s%s;" % (
                spelling, name, " __attribute__((aligned(%d)))" % align if align > 0 else ""))
            layout.append((ctype.size, ctype.align) if ctype is not None else (8, 8))
        if self.waits:
            members.append("struct rip__wait %s;" % abi.WAIT)
            layout.append((abi.WAIT_BYTES, abi.WAIT_ALIGN))
        points = len(self.norm.awaits)
        lw.stats.append(FrameStats(f.name, abi.frame_size(layout), points + lw.all_async,
                                   len(self.field_types) - len([1 for k in self.fields
                                                               if k.startswith("tmp:")]),
                                   self.c_local_count))
        stores = []
        for p in f.params:
            if not p.name:
                continue
            if p.key in self.fields:
                stores.append(store("%s->%s" % (abi.FRAME, self.fields[p.key]), p.ctype,
                                    p.name) + ";")
            else:
                stores.append("(void)%s;" % p.name)
        if f.name == "main" and not void:
            stores.insert(0, "%s->%s = 0;" % (abi.FRAME, abi.RESULT))  # main may end without return
        static = "static __attribute__((unused)) " if f.static else ""
        resume = "static int %s(struct rip_frame *%s, struct rip_frame *%s)" % (
            abi.resume_entry(f.name), abi.SELF, abi.DONE)
        header_text = self.header_text()
        out = []
        for name in self.implicit:
            callee = lw.functions.get(name)
            out.append("%sstruct rip_frame *%s();" % ("static " if callee is not None and
                                                      callee.static else "",
                                                      abi.constructor(name)))
        if not void and f.name not in lw.typedefs:
            out.append("typedef __typeof__(%s) %s;" % (f.result.spelling,
                                                      abi.result_typedef(f.name)))
            lw.typedefs.add(f.name)
        lw.declared.add(f.name)
        out.append("%s { %s };" % (fr, " ".join(members)))
        out.append(resume + ";")
        pieces = [(" ".join(out) + "\n" + "%sstruct rip_frame *%s" % (static,
                                                                     abi.constructor(f.name)),
                   None)]
        pieces += header_text
        pieces.append((" { %s *%s = (%s *)rip__frame_alloc(sizeof *%s, %s); %s%sreturn &%s->%s; }\n"
                       % (fr, abi.FRAME, fr, abi.FRAME, abi.resume_entry(f.name),
                          " ".join(stores), " " if stores else "", abi.FRAME, abi.HEADER),
                       None))
        decls = ["%s *%s = (%s *)%s;" % (fr, abi.FRAME, fr, abi.SELF)]
        if self.uses_r:
            decls.append("int %s;" % abi.R)
        for t in self.c_temps:
            decls.append("__typeof__(%s) %s;" % (t.spelling, t.name))
        entry = ""
        if lw.all_async:            # the testing mode: a suspension on entry
            points += 1
            entry = " " + abi.yield_point(points)
        cases = " ".join("case %d: goto rip_resume_%d;" % (i, i) for i in range(1, points + 1))
        head = ("%s { %s (void)%s; (void)%s; switch (%s->state) { case 0: break; %s%s"
                "default: __builtin_unreachable(); }%s"
                % (resume, " ".join(decls), abi.FRAME, abi.DONE, abi.SELF, cases,
                   " " if cases else "", entry))
        pieces.append((head, None))
        pieces += body_pieces
        pieces.append((" return 1; }", None))
        return pieces

    def header_text(self):
        """The parameter list (and old-style declarations) as the definition
        writes them: text from the name to the body."""
        f = self.f
        i = _params_open(self.text, f)
        j = _matching_paren(self.text, i)
        if j < 0:
            raise self.error(f.name_at, "cannot find the parameter list of '%s'" % f.name)
        end = f.header_end if f.knr else j + 1
        return [(self.text[i:end].decode(*ENCODING), i)]


def store(target, ctype, value, init_list=False, type_text=None):
    """`target = value`, or a copy where C cannot assign: arrays, and
    structs with const members.  `type_text` spells the type where the
    CType's spelling would not do (a type declared in the function)."""
    if ctype is None:
        return "%s = %s" % (target, value)
    spelled = type_text or "__typeof__(%s)" % ctype.unqualified
    if ctype.array:
        if not init_list:
            value = "{" + value + "}"
        return "__builtin_memcpy((void *)&%s, &(%s)%s, sizeof %s)" % (
            target, spelled, value, target)
    if not ctype.assignable:
        return "__builtin_memcpy((void *)&%s, (%s[1]){%s}, sizeof %s)" % (
            target, spelled, value, target)
    if init_list:
        return "%s = (%s)%s" % (target, spelled, value)
    return "%s = %s" % (target, value)


class Printer:
    """Writes the nodes of one async function as pieces: text copied from
    the source (with its offset) and generated text."""

    def __init__(self, fn, abstract=False):
        self.fn = fn
        self.abstract = abstract    # ripper --stage normalize: awaits as `await N: ...`
        self.text = fn.text
        self.subst = fn.norm.subst
        self.pieces = []
        self.unevaluated = {id(c) for c in fn.unevaluated}

    # -- pieces ---------------------------------------------------------------

    def gen(self, text):
        if text:
            self.pieces.append((text, None))

    def copy(self, start, end):
        if end > start:
            self.pieces.append((self.text[start:end].decode(*ENCODING), start))

    def capture(self, node, how=None):
        """The pieces `node` prints as, without printing them here."""
        saved = self.pieces
        self.pieces = []
        (how or self.node)(node)
        out, self.pieces = self.pieces, saved
        return out

    def as_text(self, node):
        return "".join(t for t, _ in self.capture(node))

    # -- dispatch -------------------------------------------------------------

    def node(self, n, keep=False):
        if isinstance(n, T.DeclStmt) and not keep:
            return self.print_DeclStmt(n)
        if not keep:
            r = self.subst.get(id(n))
            if r is not None:
                return self.node(r) if not isinstance(r, list) else self.statements(r)
        method = getattr(self, "print_" + type(n).__name__, None)
        if method is not None:
            return method(n)
        return self.original(n)

    def original(self, n):
        """`n` as written, with the children that change printed anew."""
        if id(n) not in self.fn.dirty:
            self.copy(n.start, n.end)
            return
        pos = n.start
        for child in n.children():
            if id(child) not in self.fn.dirty:
                continue
            if child.start < pos or child.end > n.end:
                raise self.fn.error(child, "cannot rewrite this expression (its parts are "
                                    "out of order)", hint="this is a bug in ripper; "
                                    "please report it")
            self.copy(pos, child.start)
            self.node(child)
            pos = child.end
        self.copy(pos, n.end)

    def inside(self, body):
        """The items of compound statement `body` with the text between
        them (comments too), without its braces."""
        open_ = 2 if self.text[body.start:body.start + 2] == b"<%" else 1
        close = 2 if self.text[body.end - 2:body.end] == b"%>" else 1
        pos = body.start + open_
        for item in body.items:
            if id(item) in self.fn.dirty:
                self.copy(pos, item.start)
                self.node(item)
                pos = item.end
        self.copy(pos, body.end - close)

    def statements(self, items):
        for i, s in enumerate(items):
            if i:
                self.gen(" ")
            self.node(s)

    # -- original nodes that always change ------------------------------------

    def print_Ref(self, n):
        fn = self.fn
        if n.key in fn.lw.hoisted:
            self.gen(fn.lw.hoisted[n.key])
        elif n.key in fn.fields:
            self.gen(fn.field_access(n.key))
        elif n.key in fn.unused:
            self.gen("0")
        elif id(n) in fn.values:
            text = fn.lw.function_value(n)
            if text is None:
                self.copy(n.start, n.end)
            else:
                self.gen(text)
        elif n.start < 0:
            self.gen(n.name)            # a reference ripper made
        else:
            self.copy(n.start, n.end)

    def print_FuncName(self, n):
        self.gen('"%s"' % self.fn.f.name)

    def print_Call(self, n):
        if id(n) in self.unevaluated:
            self.gen(self.fn.lw.unevaluated_text(n))
        else:
            self.original(n)

    def print_CompoundLiteral(self, n):
        """One whose address is kept lives in the frame: made on the C stack
        as C makes it, then copied to the frame, where the code uses it."""
        field = self.fn.literals.get(id(n))
        if field is None:
            return self.original(n)
        target = "%s->%s" % (abi.FRAME, field)
        if n.type.local:
            self.gen("(*(__typeof__(")
            self.original(n)
            self.gen(") *)rip__copy(&%s, &" % target)
        else:
            self.gen("(*(__typeof__(%s) *)rip__copy(&%s, &" % (n.type.unqualified, target))
        self.original(n)
        self.gen(", sizeof %s))" % target)

    def print_Return(self, n):
        self.node(T.ReturnS(n.value))

    def print_DeclStmt(self, n):
        """A declaration with frame variables, or whose initializers wait:
        frame stores and C locals' declarations, in order (one with neither
        stays as written).  Variables of a type declared in the function
        first get dummy declarations that name their type (dummies)."""
        fn = self.fn
        if all(isinstance(d, T.VarDecl) and d.key in fn.lw.hoisted for d in n.decls):
            return self.gen(";")        # declared at file scope (Lowering.hoist)
        protos = fn.lw.block_prototypes(n)
        replaced = self.subst.get(id(n))
        if replaced is not None and not isinstance(replaced, T.Seq):
            return self.node(replaced)          # a for's init, moved before the loop
        vars_ = [d for d in n.decls if isinstance(d, T.VarDecl) and d.key in fn.fields]
        if replaced is None and not vars_:
            self.original(n)
        else:
            autos = [d for d in n.decls if isinstance(d, T.VarDecl) and
                     d.storage not in ("static", "extern")]
            if any(d.ctype is not None and d.ctype.local for d in autos):
                self.dummies(n, autos)
                items = replaced.stmts if replaced is not None else \
                    [T.Declare(d.init, d) for d in autos]
            elif replaced is not None:
                items = replaced.stmts
            else:
                items = [T.Declare(d.init, d) if isinstance(d, T.VarDecl) and
                         d.storage not in ("static", "extern") else T.Keep(d) for d in n.decls]
            self.declarations(n, items)
        if protos:
            self.gen(" " + protos)

    def dummies(self, n, autos):
        """`struct { int a; } v = {1}, w;` -> `extern struct { int a; } rip_d_v, rip_d_w;`:
        the type, declared where the user declared it, and a name for it;
        no object is defined (nothing refers to the dummies but typeof)."""
        fn = self.fn
        spec_end = min(d.name_at for d in autos)
        if re.search(rb"\b(register|auto|typedef|_Thread_local|__thread)\b",
                     self.text[n.start:spec_end]):
            raise fn.error(n, "a declaration of a variable whose type is declared in the "
                           "function, with a storage class ripper cannot keep")
        self.gen("extern ")
        pos = n.start
        for d in autos:
            self.span(n, pos, d.name_at)
            self.gen(_dummy(d.key))
            pos = d.name_at + len(d.name.encode())
            if d.init is not None:
                eq = self.text.rfind(b"=", pos, d.init.start)
                self.span(n, pos, eq)
                pos = d.init.end
        self.span(n, pos, n.end)
        for d in autos:
            if d.key in fn.opaque:
                size, align = fn.opaque[d.key]
                self.gen(" extern char rip__size_check_%s[sizeof(%s) == %d && __alignof__(%s) "
                         "<= %d ? 1 : -1] __attribute__((unused));" % (d.name_at, _dummy(d.key), size, _dummy(d.key),
                                                align))
        self.gen(" ")

    def span(self, n, start, end):
        """Original text of node `n` from `start` to `end`, its changed
        parts inside printed anew."""
        pos = start
        for child in n.walk():
            if child is n or id(child) not in self.fn.dirty or child.start < pos or \
                    child.end > end or isinstance(child, (T.DeclStmt, T.VarDecl)):
                continue
            if isinstance(child, T.Ref) or id(child) in self.subst:
                self.copy(pos, child.start)
                self.node(child)
                pos = child.end
        self.copy(pos, end)

    def print_For(self, n):
        """A for statement whose init declares frame variables: their stores
        as its init expression, or (C locals among them) the declarations
        before the loop, in a block that keeps their scope."""
        init = n.init
        if not isinstance(init, T.DeclStmt) or id(init) in self.subst or \
                not any(isinstance(d, T.VarDecl) and d.key in self.fn.fields for d in init.decls):
            return self.original(n)
        if all(d.key in self.fn.fields for d in init.decls if isinstance(d, T.VarDecl)) and \
                all(isinstance(d, T.VarDecl) for d in init.decls):
            stores = [self.capture(T.Declare(d.init, d)) for d in init.decls if d.init is not None]
            self.copy(n.start, init.start)
            for i, pieces in enumerate(stores):
                if i:
                    self.gen(", ")
                text = "".join(t for t, _ in pieces)
                self.gen(text[:-1] if text.endswith(";") else text)
            self.gen(";")
            self.copy_rest(n, init.end)
            return
        self.gen("{ ")
        self.print_DeclStmt(init)
        self.gen(" ")
        self.subst[id(init)] = T.Text([], ";")
        try:
            self.original(n)
        finally:
            del self.subst[id(init)]
        self.gen(" }")

    def copy_rest(self, n, pos):
        """The rest of original node `n` from offset `pos`, its changed
        children printed anew."""
        for child in n.children():
            if child.start < pos or id(child) not in self.fn.dirty:
                continue
            self.copy(pos, child.start)
            self.node(child)
            pos = child.end
        self.copy(pos, n.end)

    def declarations(self, stmt, items):
        before = len(self.pieces)
        self.statements(items)
        if not any(t.strip() for t, _ in self.pieces[before:]):
            self.gen(";")

    # -- synthesized nodes ----------------------------------------------------

    def print_Seq(self, n):
        before = len(self.pieces)
        self.statements(n.stmts)
        if not any(t.strip() for t, _ in self.pieces[before:]):
            self.gen(";")

    def print_Block(self, n):
        self.gen("{ ")
        self.statements(n.stmts)
        self.gen(" }")

    def print_Keep(self, n):
        inner = n.node
        if isinstance(inner, (T.TypeDecl, T.FuncDecl, T.StaticAssert, T.VarDecl)):
            self.original(inner)
            self.gen(";")
        else:
            self.node(inner, keep=True)

    def print_Orig(self, n):
        self.node(n.node, keep=True)

    def print_Eval(self, n):
        self.node(n.expr)
        self.gen(";")

    def print_Text(self, n):
        parts = n.template.split("{}")
        for i, part in enumerate(parts):
            self.gen(part)
            if i < len(n.args):
                self.node(n.args[i])

    def print_TempRef(self, n):
        t = n.temp
        if t.key in self.fn.fields:
            self.gen("%s->%s" % (abi.FRAME, self.fn.fields[t.key]))
        else:
            self.gen(t.name)

    def print_Store(self, n):
        target = self.as_text(n.target)
        value = self.capture(n.value)
        if n.ctype is None or (n.ctype.assignable and not n.ctype.array):
            self.gen(target + " = ")
            self.pieces += value
            self.gen(";")
            return
        self.gen(store(target, n.ctype, "".join(t for t, _ in value),
                       isinstance(T.strip_parens(n.value), T.InitList)) + ";")

    def print_IfS(self, n):
        self.gen("if (")
        self.node(n.cond)
        self.gen(") { ")
        self.statements(n.then)
        self.gen(" }")
        if n.else_:
            self.gen(" else { ")
            self.statements(n.else_)
            self.gen(" }")

    def print_Loop(self, n):
        self.gen("for (;;) { ")
        self.statements(n.body)
        self.gen(" }")

    def print_BreakS(self, n):
        self.gen("break;")

    def print_GotoS(self, n):
        self.gen("goto %s;" % n.label)

    def print_LabelS(self, n):
        self.gen("%s: ;" % n.name)

    def print_ReturnS(self, n):
        f = self.fn.f
        void = f.result is None or f.result.void
        if self.abstract:
            self.gen("return")
            if n.value is not None:
                self.gen(" ")
                self.node(n.value)
            self.gen(";")
            return
        if n.value is None:
            self.gen("return 1;")
            return
        self.gen("{ ")
        if void:
            self.gen("(void)(")
            self.node(n.value)
            self.gen("); ")
        else:
            value = self.capture(n.value)
            target = "%s->%s" % (abi.FRAME, abi.RESULT)
            if f.result.assignable and not f.result.array:
                self.gen(target + " = ")
                self.pieces += value
                self.gen("; ")
            else:
                self.gen(store(target, f.result, "".join(t for t, _ in value)) + "; ")
        self.gen("return 1; }")

    def print_Declare(self, n):
        """User variable `var` declared, its initializer (lowered) `init`."""
        fn, d = self.fn, n.var
        init_list = n.init is not None and isinstance(T.strip_parens(n.init), T.InitList)
        if d.key in fn.fields:
            if n.init is None:
                return
            target = fn.field_access(d.key)
            value = self.capture(n.init)
            if d.ctype.assignable and not d.ctype.array and not init_list:
                self.gen(target + " = ")
                self.pieces += value
                self.gen(";")
            else:
                self.gen(store(target, d.ctype, "".join(t for t, _ in value), init_list,
                               fn.type_text(d)) + ";")
            return
        if d.ctype is None:
            raise fn.error(d, "cannot declare '%s' apart from its declaration" % d.name,
                           hint="declare it in a declaration of its own")
        self.gen("%s %s" % (fn.type_text(d), d.name))
        if n.init is not None:
            self.gen(" = ")
            self.node(n.init)
        self.gen(";")

    def print_Await(self, n):
        fn = self.fn
        point = n.point
        if self.abstract:
            self.gen("await %d: " % point)
            if n.target is not None:
                self.node(n.target)
                self.gen(" = ")
            self.node(n.callee)
            self.gen("(")
            for i, a in enumerate(n.args):
                if i:
                    self.gen(", ")
                self.node(a)
            self.gen(");")
            return
        name = _intrinsic(n, fn.lw)
        args = [self.as_text(a) for a in n.args]
        if name == "rip_yield":
            self.gen("{ " + abi.yield_point(point) + " }")
            return
        if name is not None:
            tries, woken = abi.INTRINSICS[name]
            attempt = "%s(%s, &%s->%s)" % (tries, ", ".join(args), abi.FRAME, abi.WAIT)
            if n.target is not None and woken:
                fn.uses_r = True
                self.gen("{ " + abi.wait_point(point, "(%s = %s)" % (abi.R, attempt),
                                               "%s = %s(&%s->%s);" % (abi.R, woken, abi.FRAME,
                                                                      abi.WAIT)) + " ")
                self.gen(store(self.as_text(n.target), _target_type(n), abi.R) + "; }")
                return
            after = "(void)%s(&%s->%s);" % (woken, abi.FRAME, abi.WAIT) \
                if woken == "rip__chan_send_woken" else ";"
            if n.target is not None:        # rip_wg_wait has no value
                after += " %s = 0;" % self.as_text(n.target)
            self.gen("{ " + abi.wait_point(point, attempt, after) + " }")
            return
        callee = callee_name(n.call)
        if callee is not None:
            if callee not in fn.lw.declared and callee not in fn.implicit:
                fn.implicit.append(callee)
            start = "%s(%s)" % (abi.constructor(callee), ", ".join(args))
        else:
            start = "(%s)(%s)" % (self.as_text(n.callee), ", ".join(args))
        self.gen("{ " + abi.resume_point(point, start))
        free = "rip__frame_free(%s);" % abi.DONE
        defined = fn.lw.analysis.defined.get(callee) if callee else None
        if defined is not None and defined.start < fn.f.start and callee in fn.names:
            free = "rip__frame_free_sized(%s, sizeof(%s));" % (abi.DONE,
                                                                abi.frame_struct(callee))
        if n.target is not None:
            result = abi.result_access(fn.lw.result_type(n.call))
            self.gen(store(self.as_text(n.target), _target_type(n), result) + "; ")
        else:
            self.gen("; ")
        self.gen(free + " }")


def _target_type(await_):
    target = T.strip_parens(await_.target)
    if isinstance(target, T.TempRef):
        return target.temp.ctype
    if isinstance(target, T.Expr) and target.type is not None:
        return target.type
    return None


def _intrinsic(await_, lowering):
    """The runtime primitive an Await calls directly, if ripper inlines it."""
    name = callee_name(await_.call)
    if name in abi.INTRINSICS:
        f = lowering.functions.get(name)
        if f is not None and lowering.unit.lines.where(f.start)[0].endswith(RUNTIME_HEADER) \
                and not f.definition:
            return name
    return None


def _dummy(key):
    """The dummy that names the type of the variable declared at `key`."""
    return "rip_d_" + key.split(":")[-1]


def _escaping_literals(body):
    """Compound literals C evaluates whose address may be kept: arrays
    (they decay), members that are arrays, and those under `&` (directly
    or through `.` and `[]`)."""
    out = []
    for n in walk_evaluated(body):
        if not isinstance(n, T.CompoundLiteral):
            continue
        escapes = n.type is not None and n.type.array
        use = n
        while not escapes:
            p = use.parent
            if isinstance(p, T.Member) and not p.arrow:
                escapes = p.type is not None and p.type.array
            elif not isinstance(p, T.Paren) and not (isinstance(p, T.Index) and use is p.base):
                escapes = isinstance(p, T.Unary) and p.op == "&"
                break
            use = p
        if escapes:
            out.append(n)
    return out


def _suspends(stmt, names):
    """Does C evaluate an async call in statement `stmt`?"""
    return any(isinstance(n, T.Call) and is_async_call(n, names) for n in walk_evaluated(stmt))


def _cast_to_void(ref):
    use = ref
    while isinstance(use.parent, T.Paren):
        use = use.parent
    p = use.parent
    return isinstance(p, T.Cast) and p.type is not None and p.type.void


def _calls(root):
    return [n for n in walk_evaluated(root) if isinstance(n, T.Call)]


def _unevaluated_async(root, names):
    run = {id(n) for n in walk_evaluated(root)}
    return [n for n in root.walk() if isinstance(n, T.Call) and id(n) not in run
            and is_async_call(n, names)]


def _declaration_groups(functions):
    """Function declarations grouped by the declaration they are part of
    (`int f(int), g(void);` is one), in order."""
    groups = []
    for f in functions:
        if groups and not f.definition and not groups[-1][0].definition and \
                groups[-1][0].start == f.start:
            groups[-1].append(f)
        else:
            groups.append([f])
    return groups


def _skip_blank(text, i):
    n = len(text)
    while i < n:
        ch = text[i:i + 1]
        if ch in b" \t\r\n\f\v":
            i += 1
        elif text.startswith(b"/*", i):
            j = text.find(b"*/", i + 2)
            i = n if j < 0 else j + 2
        elif ch == b"#" and (i == 0 or text[i - 1:i] == b"\n"):
            j = text.find(b"\n", i)
            i = n if j < 0 else j
        else:
            break
    return i


QUALIFIERS = (b"const", b"volatile", b"restrict", b"__restrict", b"__restrict__", b"_Atomic")


def _declarator_start(text, f):
    """Where the declarator of function `f` begins: its name, or the '*'s
    and '('s before it (`int *f(void)`, `int (*f(void))[3]`)."""
    i = f.name_at
    while i > f.start:
        j = i
        while j > f.start and text[j - 1:j] in b" \t\r\n":
            j -= 1
        if text[j - 1:j] in (b"*", b"("):
            i = j - 1
            continue
        word = next((q for q in QUALIFIERS if text[j - len(q):j] == q), None)
        if word is not None and text[j - len(word) - 1:j - len(word)] in b" \t\r\n*(":
            i = j - len(word)
            continue
        break
    return i


def _params_open(text, f):
    """Offset of the '(' that opens f's parameter list: after its name, and
    after the ')' of a parenthesized name (`(f)(int x)`)."""
    i = _skip_blank(text, f.name_at + len(f.name.encode()))
    while text[i:i + 1] == b")":
        i = _skip_blank(text, i + 1)
    return i


def _semicolon_after(text, end):
    i = _skip_blank(text, end)
    return i + 1 if text[i:i + 1] == b";" else end


def _matching_paren(text, i):
    """Offset of the ')' matching the '(' at i, or -1."""
    if text[i:i + 1] != b"(":
        return -1
    depth = 0
    n = len(text)
    while i < n:
        ch = text[i:i + 1]
        if ch == b"(":
            depth += 1
        elif ch == b")":
            depth -= 1
            if depth == 0:
                return i
        elif ch in (b'"', b"'"):
            j = i + 1
            while j < n and text[j:j + 1] != ch:
                j += 2 if text[j:j + 1] == b"\\" else 1
            i = j
        elif text.startswith(b"/*", i):
            j = text.find(b"*/", i + 2)
            i = n if j < 0 else j + 1
        i += 1
    return -1


__all__ = ["lower", "FrameStats", "Overlap"]

"""frame.py -- one async function: its frame laid out, its pieces assembled.

normalize.py makes every async call a statement of its own, liveness.py
says which variables must outlive a suspension; those (parameters the
body reads, locals, temporaries, compound literals whose address is kept)
become the fields of its frame struct, each with the type the user gave
it (a type declared inside the function is kept as aligned bytes).  Then
the three things every async function becomes, around the printed body:

    struct rip__frame_f { struct rip__frame rip__hdr; __typeof__(int) rip__result; ...fields... };
    static int rip__resume_f(struct rip__frame *rip__self, struct rip__frame *rip__c);
    struct rip__frame *rip__new_f(int a) { ...allocate the frame, store the arguments... }
    static int rip__resume_f(...) { ...C locals... switch (rip__self->state) { case 0: break;
        case 1: goto rip__resume_1; ... }  <the body>  return 1; }

A variadic function's `...` arguments do not outlive the call that passed
them, so its caller copies them into its own frame (a struct per call),
and the resume entry re-enters the body, a variadic function of its own,
with them through the caller's thunk (abi.VA_BODY):

    rip__resume_f(self, c)  ->  thunk(self, c, rip__vbody_f, args)  ->  rip__vbody_f(self, c, a0, a1)

Fields are named after the user's variables (`int rip_hdr;` is field
`rip_hdr`); ripper's own members are in rip.h's reserved `rip__` space.
"""

from . import abi
from . import tree as T
from .analysis import function_values, is_async_call, variably_modified
from .emit import ENCODING
from .evaluation import callee_name, unevaluated_calls, walk_evaluated
from .liveness import frame_reasons, frame_variables
from .normalize import normalize
from .printer import Printer, intrinsic, store
from .scan import matching_paren, params_open

RESERVED_FIELDS = (abi.HEADER, abi.RESULT, abi.WAIT)


class FrameStats:
    """What ripper --stats prints for one async function (and --max-frame
    checks): plain data, sent from the ripping child."""

    def __init__(self, name, frame_bytes, suspensions, in_frame, c_locals, where=None,
                 variables=(), callees=(), pointer_calls=0):
        self.name = name                # the function
        self.frame_bytes = frame_bytes  # sizeof its frame struct
        self.suspensions = suspensions  # resume points
        self.in_frame = in_frame        # variables in the frame (parameters included)
        self.c_locals = c_locals        # locals left as C locals of the resume entry
        self.where = where              # (file, line, column) of its name
        self.variables = list(variables)    # (name, bytes, why) of each part of the frame
        self.callees = list(callees)    # async functions it calls by name (not the runtime's)
        self.pointer_calls = pointer_calls  # its async calls through pointers


def deepest_chains(stats):
    """{name: (bytes, chain)} for each FrameStats of `stats` (one file's
    async functions): the most frame bytes one task holds at once below a
    call of it, along the calls between them, and the chain of functions
    that holds them; bytes is None where recursion makes it unbounded (the
    chain then ends at the function called again).  Callees of other
    files, the runtime's and calls through pointers are not counted.

        f (40) calls g (72), g calls nothing  ->  {"f": (112, ["f", "g"]), "g": (72, ["g"])}
        f calls f                             ->  {"f": (None, ["f", "f"])}
    """
    by_name = {st.name: st for st in stats}
    done = {}

    def chain(name, path):
        if name in path:
            return None, path[path.index(name):] + [name]
        if name in done:
            return done[name]
        st = by_name[name]
        best = (st.frame_bytes, [name])
        for callee in st.callees:
            if callee not in by_name:
                continue
            size, below = chain(callee, path + [name])
            if size is None:        # every function on a path to a cycle is unbounded
                best = (None, below if name in below else [name] + below)
                break
            if size + st.frame_bytes > best[0]:
                best = (size + st.frame_bytes, [name] + below)
        done[name] = best
        return best

    import sys
    limit = sys.getrecursionlimit()     # a chain as long as the file has functions
    sys.setrecursionlimit(max(limit, 3 * len(stats) + 200))
    try:
        return {st.name: chain(st.name, []) for st in stats}
    finally:
        sys.setrecursionlimit(limit)


class AsyncFunction:
    """One async function: normalized, its frame laid out, printed."""

    def __init__(self, lowering, f):
        self.lw = lowering
        self.f = f
        self.text = lowering.text
        self.names = lowering.names
        self._decls = None          # key -> VarDecl of the body (decl_of)

    def error(self, node, message, hint=None):
        return self.lw.error(node, message, hint)

    def lower(self):
        f = self.f
        norm = normalize(f, self.names, self.lw.functions, self.error, self.text)
        self.norm = norm
        locals_ = [n for n in f.body.nodes() if isinstance(n, T.VarDecl)
                   and n.storage not in ("static", "extern") and n.name]
        self.unused = self.unused_params()
        # a variably modified local is never in the frame: no suspension
        # may lie in its scope (check_variably_modified)
        candidates = {d.key: d.ctype for d in locals_ if not variably_modified(d)}
        candidates.update({t.key: t.ctype for t in norm.temps})
        for p in f.params:
            candidates[p.key] = p.ctype
        self.reasons = frame_reasons(norm.body, candidates)    # key -> why (liveness.py)
        in_frame = set(self.reasons)
        self.check_variably_modified(in_frame)
        restarted, unkept = self.check_va_lists(locals_)
        in_frame -= unkept
        params = [p for p in f.params if p.name and p.key not in self.unused]
        self.fields = {}            # key -> field name
        self.field_types = []       # (name, CType or None, declaration text, alignment)
        self.opaque = {}            # key -> (size, alignment): fields of a local type, as bytes
        used = set(RESERVED_FIELDS)
        for d in params + [d for d in locals_ if d.key in in_frame]:
            self.add_field(d.key, d.name, d.ctype, d, used)
        self.restarted = [self.fields[k] for k in restarted]   # va_lists started at each resume
        self.va_calls = {}          # id(Await of a variadic async function) -> its arguments' field
        for a in norm.awaits:
            self.variadic_call(a, used)
        self.literals = {}          # id(compound literal kept in the frame) -> field
        for lit in _escaping_literals(f.body):
            if lit.type is None or (lit.type.local and lit.type.size <= 0):
                raise self.error(lit, "a compound literal whose address is kept, of a type "
                                 "ripper cannot size", hint="use a named local instead")
            key = "lit:%d" % lit.start
            name = abi.literal_field(len(self.literals) + 1)
            if lit.type.local:      # bytes; the code names the type by the literal itself
                self.add_field(key, name, None, None, used,
                               spelling="unsigned char[%d]" % (lit.type.bound or lit.type.size))
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
        inlined = [(a, intrinsic(a, self.lw)) for a in norm.awaits]     # (await, name or None)
        self.waits = any(name not in (None, "rip_yield") for _, name in inlined)
        # functions the body declares: their constructors' prototypes follow
        # those declarations (`float h(float);` would conflict with `rip__new_h()`)
        self.block_declared = {n.name for n in f.body.nodes() if isinstance(n, T.FuncDecl)}
        # an intrinsic's result is kept in a C local (abi.R) on its way to its target
        self.uses_r = any(n.target is not None and name not in (None, "rip_yield") and
                          abi.INTRINSICS[name][1] for n, name in inlined)
        # callees to declare before this function (C89: no implicit declarations)
        self.implicit = []
        for n, name in inlined:
            callee = callee_name(n.call) if name is None else None
            if callee is not None and callee not in self.lw.declared and \
                    callee not in self.implicit and callee != f.name and \
                    callee not in self.block_declared:
                self.implicit.append(callee)
        self.values = {id(r) for r in function_values(f.body)}
        self.unevaluated = unevaluated_async_calls(f.body, self.names)
        self.lw.declared.add(f.name)    # its constructor comes before its resume entry
        self.dirty = self.dirty_nodes()
        body = Printer(self)
        body.inside(norm.body)
        return self.assemble(body.pieces, body.type_names)

    def check_variably_modified(self, in_frame):
        """A variable-length array or another variably modified declaration
        may stay a C local while no resume point lies in its scope: the
        dispatch jumps to resume points, and no jump may enter that scope."""
        for compound in self.f.body.nodes():
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

    def check_va_lists(self, locals_):
        """A va_list points into the stack of the call that started it,
        gone at a suspension.  One kept across a suspension is started
        again at every resume (a variadic function's resume re-enters with
        its arguments, abi.VA_BODY) when no va_arg or va_copy reads it and
        its address is not taken, so that it is always where va_start left
        it; other va_lists may not outlive a suspension.  None may go to
        an async call, which could read it after a suspension.  The keys of
        the va_lists to start again, and of those that stay C locals (no
        suspension between their va_start and last use: as the user wrote
        them, which gcc 12 -O2 reads right; one in the frame that va_arg
        reads, it may read from the wrong stack slots):

            va_start(ap, fmt); lock(); vsyslog(l, fmt, ap); va_end(ap);   -> [ap]
            va_start(ap, n); x = va_arg(ap, int); lock(); ...va_arg(ap, int)  -> error"""
        va = {d.key: d for d in locals_ if _is_va_list(d.ctype)}
        if self.f.variadic:         # the va_list started must be the body's own, to follow
            for n in self.f.body.nodes():
                if isinstance(n, T.Call) and callee_name(n) in ("__builtin_va_start",
                                                               "__builtin_va_copy") and n.args:
                    target = T.strip_parens(n.args[0])
                    if not (isinstance(target, T.Ref) and target.key in va):
                        raise self.error(n, "%s of a va_list that is not a local variable of "
                                         "variadic async function '%s'" % (
                                             callee_name(n)[len("__builtin_"):], self.f.name),
                                         hint="its arguments are gone at the next suspension: "
                                         "start a local va_list, and read it before any call "
                                         "that may suspend")
        for a in self.norm.awaits:
            for arg in a.args:
                # one this variadic function started points into its body's
                # stack (a va_list from a caller that outlives the call is fine)
                inner = T.strip_parens(arg)
                if isinstance(inner, T.Unary) and inner.op == "&":
                    inner = T.strip_parens(inner.operand)
                if self.f.variadic and isinstance(inner, T.Ref) and inner.key in va and \
                        not self.lw.consumes_va_list(callee_name(a.call)):
                    raise self.error(arg, "a va_list passed to async function '%s', which may "
                                     "suspend and read it after the call that started it has "
                                     "returned" % (callee_name(a.call) or "(pointer)"),
                                     hint="read the arguments (vsnprintf into a buffer, say) "
                                     "and pass the result")
        # live across a suspension, va_start and va_copy writing their
        # va_list (in_frame keeps every array, these too, for their address)
        live = frame_variables(self.norm.body, {key: None for key in va}) if va else set()
        restarted = []
        for key, d in va.items():
            if key not in live:
                continue
            reads = [r for r in self.f.body.nodes() if isinstance(r, T.Ref) and r.key == key
                     and not _starts_or_ends(r, self.names)]
            if not self.f.variadic or reads and any(not _passed_plain(r, self.names, self.lw)
                                                    for r in reads):
                raise self.error(d, "va_list '%s' of async function '%s' is in use across a "
                                 "suspension, after va_arg or va_copy read it (or its address "
                                 "is taken)" % (d.name, self.f.name) if self.f.variadic else
                                 "va_list '%s' of async function '%s' is in use across a "
                                 "suspension" % (d.name, self.f.name),
                                 hint="read the arguments before the call that may suspend, "
                                 "or after it, with va_start again")
            restarted.append(key)
        return restarted, set(va) - live

    def variadic_call(self, await_, used):
        """A call of a variadic async function: the arguments its `...`
        takes are copied into a field of this frame (the callee's body is
        re-entered with them at each resume, through the thunk assemble()
        writes for this call)."""
        callee = callee_name(await_.call)
        g = self.lw.functions.get(callee) if callee in self.names else None
        if g is None or not self.lw.va_thunked(g) or intrinsic(await_, self.lw):
            return
        fixed = len(g.param_types or ())
        types = []                  # (CType or None, spelling) of each `...` argument
        for arg in await_.args[fixed:]:
            t = arg.value_type
            if isinstance(arg, T.TempRef) and t is None:
                types.append((arg.temp.ctype, arg.temp.spelling))
                continue
            if t is None or t.local or not t.named and t.record:
                raise self.error(arg, "an argument of a type declared inside a function (or "
                                 "unnamed) passed to variadic async function '%s'" % callee,
                                 hint="declare the type at file scope, with a name")
            types.append((t, t.unqualified))
        key = "va:%d" % await_.point
        self.add_field(key, "rip__vargs%d" % await_.point, None, None, used,
                       spelling=abi.va_args_struct(self.f.name, await_.point))
        self.va_calls[id(await_)] = (key, fixed, types)

    def va_thunks(self):
        """Before the frame struct: for each call of a variadic async
        function, the struct its arguments are copied to and its thunk,
        which calls the callee's body with them again:

            struct rip__vargs_g_2 { __typeof__(int) a0; };
            static int rip__vthunk_g_2(struct rip__frame *rip__self, struct rip__frame *rip__c,
                int (*rip__vb)(struct rip__frame *, struct rip__frame *, ...), void *rip__va)
            { struct rip__vargs_g_2 *rip__v = ...; return rip__vb(rip__self, rip__c, rip__v->a0); }"""
        out = []
        for a in self.norm.awaits:
            if id(a) not in self.va_calls:
                continue
            key, fixed, types = self.va_calls[id(a)]
            st = abi.va_args_struct(self.f.name, a.point)
            members = " ".join("__typeof__(%s) a%d;" % (spelling, i)
                               for i, (_, spelling) in enumerate(types)) or "char a;"
            out.append("%s { %s };" % (st, members))
            args = "".join(", rip__v->a%d" % i for i in range(len(types)))
            out.append("static int %s(%s *%s, %s *%s, int (*rip__vb)(%s *, %s *, ...), "
                       "void *%s) { %s *rip__v = (%s *)%s; %sreturn rip__vb(%s, %s%s); }"
                       % (abi.va_thunk(self.f.name, a.point), abi.FRAME_T, abi.SELF,
                          abi.FRAME_T, abi.DONE, abi.FRAME_T, abi.FRAME_T, abi.VA_ARGS, st,
                          st, abi.VA_ARGS, "" if types else "(void)rip__v; ", abi.SELF,
                          abi.DONE, args))
        return out

    def add_field(self, key, name, ctype, decl, used, spelling=None):
        """A frame field for variable `key`.  A variable of a type file
        scope cannot spell (declared in the function, or unnamed) is kept
        as bytes of its size and alignment, reached through the type of a
        dummy declaration where its own was (see Printer.dummies).  Where
        gcc may lay the type out otherwise than clang (CType.bound), the
        bytes are as many as gcc's layout can take."""
        align = max(decl.alignment, 0) if isinstance(decl, T.VarDecl) else 0
        if ctype is not None and ctype.local:
            if not isinstance(decl, T.VarDecl) or ctype.size <= 0 or ctype.align <= 0:
                raise self.error(decl if decl is not None else self.f.body,
                                 "the type of '%s' is declared inside a function or has no "
                                 "name, and '%s' must live in the frame" % (name, name),
                                 hint="declare the type at file scope, with a name")
            size = ctype.bound or ctype.size
            spelling = "unsigned char[%d]" % size
            align = max(align, ctype.align)
            self.opaque[key] = (size, align, ctype.bound is None)
        field, i = name, 2
        while field in used:
            field, i = "%s_%d" % (name, i), i + 1
        used.add(field)
        self.fields[key] = field
        if spelling is None:
            spelling = ctype.unqualified if ctype is not None else "int"
        self.field_types.append((field, ctype, spelling, align))

    def place(self, offset):
        """(file, line, column) of byte `offset` of the text."""
        lines = self.lw.unit.lines
        path, line, _ = lines.where(max(offset, 0))
        return path, line, lines.column(max(offset, 0))

    def frame_parts(self, void):
        """(name, bytes, why) of each part of the frame, for ripper --stats:
        the runtime's header, the result, each variable (why liveness.py
        keeps it there), the wait state.

            int sum(int n) { int t = 0; ... rip_yield(); ... t += i; ... }
            -> [("(header)", 24, "the runtime's: caller, resume point"), ("(result)", 4, ...),
                ("n", 4, "parameter"), ("t", 4, "held across rip_yield() at s.c:5"), ...]
        """
        parts = [("(header)", abi.FRAME_HEADER, "the runtime's: caller, resume entry, state")]
        if not void:
            parts.append(("(result)", self.f.result.size, "the value it returns"))
        names = {p.key: p.name for p in self.f.params if p.name}
        names.update((n.key, n.name) for n in self.f.body.nodes()
                     if isinstance(n, T.VarDecl) and n.name)
        params = {p.key for p in self.f.params}
        sizes = {field: (ctype.size if ctype is not None else 0)
                 for field, ctype, _, _ in self.field_types}
        for key, field in self.fields.items():
            size = self.opaque[key][0] if key in self.opaque else sizes.get(field, 0)
            if key.startswith("lit:"):
                parts.append(("(compound literal)", size, "its address is kept"))
                continue
            why = self.reasons.get(key)
            held = self.held_across(why) if isinstance(why, list) else \
                {"address": "its address is taken", "array": "an array, or holds one",
                 None: ""}[why]
            if key in params:
                held = "parameter" + (", " + held if held else "")
            parts.append((names.get(key, "(temporary)") if not key.startswith("tmp:")
                          else "(temporary)", size, held))
        if self.waits:
            parts.append(("(wait)", abi.WAIT_BYTES, "what it waits on, for the runtime"))
        return parts

    def held_across(self, awaits):
        """"held across g() at f.c:12, rip_yield() at f.c:14": the
        suspensions a variable's value must outlive."""
        out = []
        for a in awaits[:3]:
            name = callee_name(a.call) if a.call is not None else None
            path, line, _ = self.place(a.call.start if a.call is not None else a.start)
            out.append("%s at %s:%d" % ("%s()" % name if name else "a call through a pointer",
                                        path, line))
        more = len(awaits) - 3
        return "held across " + ", ".join(out) + (" and %d more" % more if more > 0 else "")

    def async_callees(self):
        """(names, count through pointers) of the async functions it calls
        whose frames sit under its own (the runtime's primitives aside)."""
        names, pointers = [], 0
        for a in self.norm.awaits:
            name = callee_name(a.call) if a.call is not None else None
            if name is None:
                pointers += 1
            elif intrinsic(a, self.lw) is None and name not in names:
                names.append(name)
        return names, pointers

    def normalized_text(self):
        """The body after normalize.py, every async call a statement of its
        own, before liveness chooses the frame (ripper --stage normalize)."""
        printer = Printer(self, abstract=True)
        printer.node(self.norm.body)
        return "".join(t for t, _ in printer.pieces)

    def c_locals(self):
        """The user's locals liveness leaves as C locals of the resume entry."""
        return [n for n in self.f.body.nodes() if isinstance(n, T.VarDecl) and n.name and
                n.storage not in ("static", "extern") and n.key not in self.fields]

    def decls(self):
        """key -> VarDecl of each variable the body declares."""
        if self._decls is None:
            self._decls = {}
            for n in self.f.body.nodes():
                if isinstance(n, T.VarDecl):
                    self._decls.setdefault(n.key, n)
        return self._decls

    def decl_of(self, key):
        """The VarDecl of the variable `key` names."""
        return self.decls()[key]

    def unused_params(self):
        """Keys of the parameters the body never reads: it names them only
        cast to void (`(void)arg;`).  They need no place in the frame."""
        uses = {p.key: [] for p in self.f.params if p.name}
        for n in self.f.body.nodes():
            if isinstance(n, T.Ref) and n.key in uses:
                uses[n.key].append(n)
        # never named: the constructor leaves it unused too, and cc says
        # so (-Wunused-parameter) as of the user's function
        self.unnamed = {key for key, refs in uses.items() if not refs}
        return {key for key, refs in uses.items() if all(_cast_to_void(r) for r in refs)}

    def dirty_nodes(self):
        """Ids of the nodes of the source body whose text changes where
        normalize left them as written (a variable in the frame...): the
        printer descends only into those, and into what normalize made."""
        dirty = set()
        for n in self.f.body.nodes():
            if (isinstance(n, T.Ref) and (n.key in self.fields or n.key in self.unused or
                                          id(n) in self.values or n.key in self.lw.hoisted or
                                          n.key in self.lw.tls_keys or
                                          (n.what == "fn" and self.lw.renamed(n.name)))) or \
                    isinstance(n, (T.FuncName, T.DeclStmt, T.Return)):
                dirty.add(id(n))
        for c in self.unevaluated:
            dirty.add(id(c))
        if self.f.variadic:         # va_start names the body's last parameter (abi.VA_BODY)
            dirty.update(id(n) for n in self.f.body.nodes()
                         if isinstance(n, T.Call) and callee_name(n) == "__builtin_va_start")
        dirty.update(self.literals)
        # every ancestor of a changed node changes
        for n in self.f.body.nodes():
            if id(n) in dirty:
                p = n.parent
                while p is not None and id(p) not in dirty:
                    dirty.add(id(p))
                    p = p.parent
        return dirty

    def assemble(self, body_pieces, type_names):
        """The function's pieces: its declarations (type_names: {spelling:
        typedef name} of the types its printed body names), frame struct,
        constructor and resume entry around `body_pieces`."""
        f = self.f
        lw = self.lw
        fr = abi.frame_struct(f.name)
        members = ["%s %s;" % (abi.FRAME_T, abi.HEADER)]
        layout = []
        void = f.result is None or f.result.void
        if not void:
            members.append("__typeof__(%s) %s;" % (f.result.unqualified, abi.RESULT))
            layout.append((f.result.size, f.result.align))
        for name, ctype, spelling, align in self.field_types:
            volatile = " volatile" if ctype is not None and ctype.volatile else ""
            members.append("__typeof__(%s)%s %s%s;" % (
                spelling, volatile, name, " __attribute__((aligned(%d)))" % align if align > 0 else ""))
            layout.append((ctype.size, ctype.align) if ctype is not None else (8, 8))
        if self.waits:
            members.append("struct rip__wait %s;" % abi.WAIT)
            layout.append((abi.WAIT_BYTES, abi.WAIT_ALIGN))
        if f.variadic:              # what the resume entry re-enters the body with
            members += ["%s;" % abi.va_thunk_param(), "void *%s;" % abi.VA_ARGS]
            layout += [(8, 8), (8, 8)]
        points = len(self.norm.awaits)
        lw.stats.append(FrameStats(f.name, abi.frame_size(layout), points + lw.all_async,
                                   len(self.field_types) - len([1 for k in self.fields
                                                               if k.startswith("tmp:")]),
                                   self.c_local_count, self.place(f.name_at),
                                   self.frame_parts(void), *self.async_callees()))
        stores = []
        for p in f.params:
            if not p.name:
                continue
            if p.key in self.fields:
                stores.append(store("%s->%s" % (abi.FRAME, self.fields[p.key]), p.ctype,
                                    p.name) + ";")
            elif p.key not in self.unnamed:     # named only as (void)p: no warning
                stores.append("(void)%s;" % p.name)
        if f.name == "main" and not void:
            stores.insert(0, "%s->%s = 0;" % (abi.FRAME, abi.RESULT))  # main may end without return
        if f.variadic:
            stores += ["%s->%s = %s;" % (abi.FRAME, n, n) for n in (abi.VA_THUNK, abi.VA_ARGS)]
        static = "" if not f.static else "static __attribute__((unused)) " \
            if lw.needs_unused_mark(f) else "static "
        resume = "static int %s(%s *%s, %s *%s)" % (
            abi.resume_entry(f.name), abi.FRAME_T, abi.SELF, abi.FRAME_T, abi.DONE)
        # a variadic function's body is its own function, entered with the
        # arguments again at each resume through the caller's thunk
        body_entry = resume if not f.variadic else "static int %s(%s *%s, %s *%s, ...)" % (
            abi.va_body(f.name), abi.FRAME_T, abi.SELF, abi.FRAME_T, abi.DONE)
        header_text = self.header_text()
        if f.variadic:              # `...` becomes the thunk and its arguments
            (text, at), = header_text
            raw = text.encode(*ENCODING)
            k = raw.rfind(b"...")
            header_text = [(raw[:k].decode(*ENCODING), at),
                           (abi.constructor_params(f, "...") , None),
                           (raw[k + 3:].decode(*ENCODING), at + k + 3)]
        out = self.va_thunks()
        for name in self.implicit:
            callee = lw.functions.get(name)
            out.append("%s%s *%s();" % ("static " if callee is not None and callee.static
                                        else "", abi.FRAME_T, abi.constructor(name)))
        out += lw.type_names(f, "()" if f.knr else lw.params_text(f))
        out += ["typedef __typeof__(%s) %s;" % t for t in type_names.items()]
        lw.declared.add(f.name)
        out.append("%s { %s };" % (fr, " ".join(members)))
        out.append(resume + ";")
        if f.variadic:
            out.append(body_entry + ";")
            out.append("%s { %s *%s = (%s *)%s; return %s->%s(%s, %s, %s, %s->%s); }" % (
                resume, fr, abi.FRAME, fr, abi.SELF, abi.FRAME, abi.VA_THUNK, abi.SELF,
                abi.DONE, abi.va_body(f.name), abi.FRAME, abi.VA_ARGS))
        # -Wmissing-prototypes wants one before it; -Wredundant-decls not twice
        if not f.static and not lw.prototyped(f.name):
            out.append("%s *%s%s;" % (abi.FRAME_T, abi.constructor(f.name),
                                      "()" if f.knr else
                                      lw.constructor_params(f, lw.params_text(f))))
        pieces = [(" ".join(out) + "\n" + "%s%s *%s" % (static, abi.FRAME_T,
                                                         abi.constructor(f.name)), None)]
        pieces += header_text
        pieces.append((" { %s *%s = (%s *)%s(sizeof *%s, %s); %s%sreturn &%s->%s; }\n"
                       % (fr, abi.FRAME, fr, abi.ALLOC, abi.FRAME, abi.resume_entry(f.name),
                          " ".join(stores), " " if stores else "", abi.FRAME, abi.HEADER),
                       None))
        decls = ["%s *%s = (%s *)%s;" % (fr, abi.FRAME, fr, abi.SELF)]
        decls += ["__builtin_va_start(%s->%s, %s);" % (abi.FRAME, field, abi.DONE)
                  for field in self.restarted]
        if self.uses_r:
            decls.append("int %s;" % abi.R)
        for t in self.c_temps:
            decls.append("__typeof__(%s) %s;" % (t.spelling, t.name))
        entry = ""
        if lw.all_async:            # the testing mode: a suspension on entry
            points += 1
            entry = " " + abi.yield_point(points)
        cases = " ".join("case %d: goto %s;" % (i, abi.resume_label(i)) for i in range(1, points + 1))
        # the dump's table inside the resume function: it goes where the
        # function goes (gcc drops an unused static function at -O1 and up,
        # its local statics with it; at file scope, `used`, it kept the
        # function, and an undefined symbol the function names, alive)
        head = ("%s {%s %s (void)%s; (void)%s; switch (%s->state) { case 0: break; %s%s"
                "default: __builtin_unreachable(); }%s"
                % (body_entry, self.line_table(points) + self.var_table(), " ".join(decls),
                   abi.FRAME, abi.DONE,
                   abi.SELF, cases, " " if cases else "", entry))
        pieces.append((head + " {", None))     # the body a block: declarations first (C89)
        pieces += body_pieces
        pieces.append((" } return 1; }", None))
        return pieces

    def line_table(self, points):
        """The function's name, file and the source line of each resume
        point, for rip_dump_tasks (rip_frame.h's struct rip__fninfo): read
        only when the runtime dumps, found by the resume entry.

            f at dump.c:11, awaits at 13, 14  ->
            static const int rip__lines_f[] = {11, 13, 14}; static const struct rip__fninfo
            rip__info_f __attribute__((__used__, __aligned__(8), __section__("rip__fninfo"))) = {rip__resume_f,
            "f", "dump.c", rip__lines_f, 3};
        """
        f = self.f
        path, line, _ = self.place(f.name_at)
        for old, new in reversed(self.lw.unit.prefix_maps):    # the last one given wins, as gcc's
            if path.startswith(old):
                path = new + path[len(old):]
                break
        lines = [line]
        for a in self.norm.awaits:
            call = a.call if a.call is not None else a
            node = call if call.start >= 0 else call.origin
            lines.append(self.place(node.start)[1] if node is not None and node.start >= 0
                         else line)
        lines += [line] * (points - len(self.norm.awaits))     # --all-async: the entry's yield
        return (" static const int %s[] = {%s}; static const struct rip__fninfo %s "
                "__attribute__((__used__, __aligned__(8), __section__(\"%s\"))) = {%s, %s, %s, %s, %d};"
                % (abi.line_table(f.name), ", ".join(map(str, lines)), abi.fninfo(f.name),
                   abi.FNINFO_SECTION, abi.resume_entry(f.name), _c_string(f.name),
                   _c_string(path), abi.line_table(f.name), len(lines)))

    def var_table(self):
        """Each frame variable whose field is not named as the variable, or
        which a block declares: "field name first-line last-line" (the
        lines of its scope), after "= p1 p2..." naming the parameters' fields,
        for the gdb script (runtime/src/shared/rip-gdb.py), which reads it by
        its name in the resume function; the other fields are the variables
        of their own names, in scope in the whole function.  Short strings
        (C89's limit is 509 characters), each a pointer: read by a debugger
        only, never by the program.

            f(int n) { int i; ... { int i; g(); ... } }   (the inner block at lines 12-14)  ->
            static const char *const rip__vars_f[] __attribute__((__used__)) = {"= n", "i_2 i 12 14", 0};
        """
        body = self.f.body
        rows = []
        params = [self.fields[p.key] for p in self.f.params if p.key in self.fields]
        if params and len(" ".join(params)) < 400:
            rows.append(_c_string(" ".join(["="] + params)))
        for key, field in self.fields.items():
            if key not in self.decls():     # a parameter, a temporary, a literal
                continue
            d = self.decl_of(key)
            scope = d.parent
            while scope is not None and not isinstance(scope, (T.Compound, T.For)):
                scope = scope.parent
            if scope is None or d.name_at < 0 or scope.end < 0 or \
                    (scope is body and field == d.name):
                continue
            row = "%s %s %d %d" % (field, d.name, self.place(d.name_at)[1],
                                   self.place(scope.end - 1)[1])
            if len(row) < 400:
                rows.append(_c_string(row))
        if not rows:
            return ""
        return (" static const char *const %s[] __attribute__((__used__)) = {%s, 0};"
                % (abi.var_table(self.f.name), ", ".join(rows)))

    def header_text(self):
        """The parameter list (and old-style declarations) as the definition
        writes them: text from the name to the body."""
        f = self.f
        i = params_open(self.text, f)
        j = matching_paren(self.text, i)
        if j < 0:
            raise self.error(f.name_at, "cannot find the parameter list of '%s'" % f.name)
        end = f.header_end if f.knr else j + 1
        return [(self.text[i:end].decode(*ENCODING), i)]


def _c_string(text):
    """text as a C string literal (octal escapes for all but plain printable ASCII)."""
    out = []
    for b in text.encode("utf-8", "surrogateescape"):
        c = chr(b)
        out.append(c if 32 <= b < 127 and c not in '"\\?' else "\\%03o" % b)
    return '"' + "".join(out) + '"'


def _is_va_list(ctype):
    """A va_list (x86-64: an array of one struct __va_list_tag), or what
    one becomes as a parameter or argument (a pointer to that struct)."""
    if ctype is None:
        return False
    if ctype.spelling in ("va_list", "__gnuc_va_list", "__builtin_va_list"):
        return True
    inner = ctype.pointee if ctype.canonical == "POINTER" else \
        ctype.members[0][1] if ctype.array and ctype.members else None
    return inner is not None and "__va_list_tag" in inner.spelling


def _starts_or_ends(ref, names):
    """`ref` is va_start's or va_end's va_list."""
    p = ref.parent
    return isinstance(p, T.Call) and callee_name(p) in ("__builtin_va_start",
                                                        "__builtin_va_end") and \
        p.args and p.args[0] is ref


def _passed_plain(ref, names, lowering):
    """`ref` is an argument of a call of a plain function (vsnprintf), or
    of the runtime's (--posix's vfprintf), which reads from it at once:
    after that C allows only va_end."""
    p = ref.parent
    name = callee_name(p) if isinstance(p, T.Call) else None
    return name is not None and ref in p.args and not name.startswith("__builtin_va_") and \
        (not is_async_call(p, names) or lowering.consumes_va_list(name))


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


def unevaluated_async_calls(root, names):
    return [n for n in unevaluated_calls(root) if is_async_call(n, names)]

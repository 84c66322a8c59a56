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

Fields are named after the user's variables (`int rip_hdr;` is field
`rip_hdr`); ripper's own members are in rip.h's reserved `rip__` space.
"""

from . import abi
from . import tree as T
from .analysis import function_values, is_async_call, variably_modified
from .emit import ENCODING
from .evaluation import callee_name, unevaluated_calls, walk_evaluated
from .liveness import frame_variables
from .normalize import normalize
from .printer import Printer, intrinsic, store
from .scan import matching_paren, params_open

RESERVED_FIELDS = (abi.HEADER, abi.RESULT, abi.WAIT)


class FrameStats:
    """What ripper --stats prints for one async function."""

    def __init__(self, name, frame_bytes, suspensions, in_frame, c_locals):
        self.name = name                # the function
        self.frame_bytes = frame_bytes  # sizeof its frame struct
        self.suspensions = suspensions  # resume points
        self.in_frame = in_frame        # variables in the frame (parameters included)
        self.c_locals = c_locals        # locals left as C locals of the resume entry


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
        norm = normalize(f, self.names, self.lw.functions, self.error)
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
        in_frame = frame_variables(norm.body, candidates)
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

    def decl_of(self, key):
        """The VarDecl of the variable `key` names."""
        if self._decls is None:
            self._decls = {}
            for n in self.f.body.nodes():
                if isinstance(n, T.VarDecl):
                    self._decls.setdefault(n.key, n)
        return self._decls[key]

    def unused_params(self):
        """Keys of the parameters the body never reads: it names them only
        cast to void (`(void)arg;`).  They need no place in the frame."""
        uses = {p.key: [] for p in self.f.params if p.name}
        for n in self.f.body.nodes():
            if isinstance(n, T.Ref) and n.key in uses:
                uses[n.key].append(n)
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
        resume = "static int %s(%s *%s, %s *%s)" % (
            abi.resume_entry(f.name), abi.FRAME_T, abi.SELF, abi.FRAME_T, abi.DONE)
        header_text = self.header_text()
        out = []
        for name in self.implicit:
            callee = lw.functions.get(name)
            out.append("%s%s *%s();" % ("static " if callee is not None and callee.static
                                        else "", abi.FRAME_T, abi.constructor(name)))
        out += lw.type_names(f, "()" if f.knr else lw.params_text(f))
        out += ["typedef __typeof__(%s) %s;" % t for t in type_names.items()]
        lw.declared.add(f.name)
        out.append("%s { %s };" % (fr, " ".join(members)))
        out.append(resume + ";")
        if not f.static:            # -Wmissing-prototypes wants one before it
            out.append("%s *%s%s;" % (abi.FRAME_T, abi.constructor(f.name),
                                      "()" if f.knr else lw.params_text(f)))
        pieces = [(" ".join(out) + "\n" + "%s%s *%s" % (static, abi.FRAME_T,
                                                         abi.constructor(f.name)), None)]
        pieces += header_text
        pieces.append((" { %s *%s = (%s *)%s(sizeof *%s, %s); %s%sreturn &%s->%s; }\n"
                       % (fr, abi.FRAME, fr, abi.ALLOC, abi.FRAME, abi.resume_entry(f.name),
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
        cases = " ".join("case %d: goto %s;" % (i, abi.resume_label(i)) for i in range(1, points + 1))
        head = ("%s { %s (void)%s; (void)%s; switch (%s->state) { case 0: break; %s%s"
                "default: __builtin_unreachable(); }%s"
                % (resume, " ".join(decls), abi.FRAME, abi.DONE, abi.SELF, cases,
                   " " if cases else "", entry))
        pieces.append((head + " {", None))     # the body a block: declarations first (C89)
        pieces += body_pieces
        pieces.append((" } return 1; }", None))
        return pieces

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

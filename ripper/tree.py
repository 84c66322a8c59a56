"""tree.py -- ripper's one syntax tree: typed nodes with named fields.

parse.py builds it from libclang once; every later pass reads it (and
lowering adds synthesized nodes of its own, in lower.py).  Parentheses are
kept (they are text), implicit conversions are not nodes: an expression
whose value C converts records the converted type in `conv`.  Every node
built from the source knows its bytes in the preprocessed text (`start`,
`end`); the children of a node lie inside it, in source order, and a
node's text is its bytes with each child's text in its place, which is
how lowering prints a node some of whose children changed.  A pass never
changes a node: it builds a new tree that shares what did not change
(rebuild, replace); a rebuilt node keeps its bytes and names the node
it stands for (`origin`), so the printer still copies the text around
the children that changed.

    while (n < 10) n = step(n);

is

    While(cond=Binary(op='<', lhs=Ref(name='n'), rhs=Literal()),
          body=ExprStmt(expr=Assign(op='=', lhs=Ref('n'),
                                    rhs=Call(callee=Ref('step'), args=[Ref('n')]))))
"""


class CType:
    """What ripper knows of a C type, from clang."""
    __slots__ = ("spelling", "unqualified", "kind", "canonical", "size", "align", "const",
                 "volatile", "local", "named",
                 "count", "bound", "async_fn", "assignable", "members", "pointee", "vm", "params",
                 "in_prototype")

    def __init__(self, spelling, kind, canonical, size=-1, align=-1, const=False, local=False,
                 async_fn=False, assignable=True, members=None, pointee=None, vm=False,
                 params=None):
        self.spelling = spelling    # as clang spells it ("const char *", "struct node")
        self.unqualified = spelling  # the same without top-level qualifiers (a frame field's)
        self.kind = kind            # clang's TypeKind name of the type as written
        self.canonical = canonical  # TypeKind name of the canonical type ("RECORD", "POINTER"...)
        self.size = size            # bytes, -1 if unknown or incomplete
        self.align = align          # bytes, -1 if unknown
        self.const = const          # const-qualified at the top
        self.volatile = False       # volatile-qualified at the top (a frame field keeps it)
        self.local = local          # names a type file-scope code cannot spell (block-local, unnamed)
        self.count = -1             # CONSTANTARRAY: its number of elements (as completed)
        self.bound = None           # bytes gcc's layout cannot exceed, where gcc's and clang's
                                    # may differ (a local type with an aligned bit-field)
        self.named = True           # its spelling names a tag or typedef (not keywords only)
        self.async_fn = async_fn    # a RIP_ASYNC_FN function type, or a pointer to one
        self.assignable = assignable  # `x = y` works once the top const goes: no const member
        self.members = members      # RECORD: [(field name, CType)]; arrays: [("", element)]
        self.pointee = pointee      # POINTER: the pointee's CType
        self.vm = vm                # variably modified (a VLA, or a pointer to one...)
        self.params = params        # a function type or a pointer to one: its parameters' CTypes
        # a parameter declared an array of known bound: that array type, as
        # a prototype spells it (`__typeof__(int) const [2]`), since gcc's
        # -Warray-parameter compares bounds with the definition's; else None
        self.in_prototype = None

    @property
    def void(self):
        return self.canonical == "VOID"

    @property
    def array(self):
        return self.canonical in ("CONSTANTARRAY", "INCOMPLETEARRAY", "VARIABLEARRAY")

    @property
    def record(self):
        return self.canonical == "RECORD"

    def __repr__(self):
        return "CType(%r)" % self.spelling


_NO_KIDS = ()                   # the children of every leaf from the source


class Node:
    """A node: `fields` names its children (single nodes or lists), in
    source order; `start`/`end` its bytes (-1 for a synthesized node)."""
    __slots__ = ("start", "end", "parent", "origin", "_kids", "_memo")
    fields = ()
    attrs = ()

    def __init__(self, *args, start=-1, end=-1, **kw):
        self.start, self.end, self.parent, self._kids, self._memo = start, end, None, None, None
        self.origin = None          # rebuild(): the node from the source this one stands for
        names = self.fields + self.attrs
        for name, value in zip(names, args):
            setattr(self, name, value)
        for name in names[len(args):]:
            setattr(self, name, kw.pop(name, [] if name in self.lists else None))
        if kw:
            raise TypeError("unknown fields %s for %s" % (sorted(kw), type(self).__name__))

    lists = ()                      # fields that hold lists of nodes

    def children(self):
        """Child nodes in source order (None skipped, lists flattened);
        a node from the source knows them once and for all."""
        if self._kids is not None:
            return self._kids
        out = []
        for name in self.fields:
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, list):
                out.extend(v for v in value if v is not None)
            else:
                out.append(value)
        if self.start >= 0:
            if len(out) > 1:
                out.sort(key=lambda n: n.start)
            # kept as a tuple (a third smaller than the list; 10^5 of them
            # in SQLite), and a leaf's is one for all (half the nodes are)
            out = tuple(out) if out else _NO_KIDS
            self._kids = out
        return out

    def walk(self):
        """This node and every node below it, pre-order."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            kids = node._kids           # children(), without the call once known
            if kids is None:
                kids = node.children()
            if kids:
                stack.extend(reversed(kids))

    def memo(self, what, make):
        """make(self), a fact about this subtree, kept under the name `what`
        by a node from the source (a tree from parse.py never changes), so
        passes that each need it compute it once between them."""
        if self._memo is not None and what in self._memo:
            return self._memo[what]
        value = make(self)
        if self.start >= 0:
            if self._memo is None:
                self._memo = {}
            self._memo[what] = value
        return value

    def nodes(self):
        """walk(), as a list (kept: see memo)."""
        return self.memo("nodes", lambda n: list(n.walk()))

    def __repr__(self):
        parts = ["%s=%r" % (a, getattr(self, a)) for a in self.attrs
                 if getattr(self, a) not in (None, "", [], False)]
        return "%s(%s)" % (type(self).__name__, ", ".join(parts))


def _node(name, fields="", attrs="", lists="", base=Node, doc=""):
    fields, attrs, lists = tuple(fields.split()), tuple(attrs.split()), tuple(lists.split())
    cls = type(name, (base,), {"__slots__": fields + attrs, "fields": fields,
                               "attrs": base.attrs + attrs if base is not Node else attrs,
                               "lists": lists, "__doc__": doc})
    return cls


class Expr(Node):
    """An expression: `type` its type, `conv` the type C converts its
    value to where it is used (array to pointer...), when that differs;
    `role` 'size' for an array size inside a written type (evaluated when
    the type is variably modified), 'typeof' for a typeof operand there.
    parse.py gives the types as (make, cursor, cursor of the converted value),
    each cursor kept as its bytes (parse._saved), made into CTypes the first
    time a pass asks: most are never asked.  Until then `_lazy` holds the
    cursor, `_make` the maker and `_conv` the converted value's cursor (no
    tuple per node: 10^6 of them in SQLite)."""
    __slots__ = ("_type", "_conv", "role", "_lazy", "_make")
    attrs = ()

    def __init__(self, *args, type=None, conv=None, role=None, lazy=None, **kw):
        super().__init__(*args, **kw)
        self._type, self._conv, self.role = type, conv, role
        if lazy is None:
            self._lazy = self._make = None
        else:
            self._make, self._lazy, self._conv = lazy

    def _resolve(self):
        make, t, c = self._make, self._lazy, self._conv
        self._lazy = self._make = self._conv = None
        self._type = make(t)
        if c is not None:
            conv = make(c)
            if conv is not None and (self._type is None or
                                     conv.spelling != self._type.spelling):
                self._conv = conv

    @property
    def type(self):
        if self._lazy is not None:
            self._resolve()
        return self._type

    @type.setter
    def type(self, value):
        if self._lazy is not None:
            self._lazy = self._make = self._conv = None
        self._type = value

    @property
    def conv(self):
        if self._lazy is not None:
            self._resolve()
        return self._conv

    def convert_to(self, how):
        """parse.py: C converts this expression's value to the type `how`
        gives (what the lazy maker takes: a cursor, as parse._saved keeps it)."""
        if self._lazy is not None:
            self._conv = how

    @property
    def value_type(self):
        return self.conv or self.type


class Stmt(Node):
    __slots__ = ()


# -- declarations ---------------------------------------------------------

VarDecl = _node("VarDecl", "type_exprs init", "name key ctype storage name_at "
                "block_typedefs cleanup asm_register alignment",
                lists="type_exprs", doc="""A variable: `int *p = init`.  type_exprs:
    expressions inside its written type (VLA sizes, typeof operands); key:
    what references to it carry; storage: '', 'static', 'extern',
    'register', 'auto'; name_at: offset of its name; block_typedefs: the names of
    the typedefs declared in the function that its written type names;
    from its attributes: cleanup (has `cleanup(f)`), asm_register (has
    `asm("reg")`), alignment (what `aligned(N)` or `_Alignas(N)` asks for,
    0 for none, -1 for one ripper cannot read).""")
ParamDecl = _node("ParamDecl", "type_exprs", "name key ctype", lists="type_exprs",
                  doc="A parameter; ctype is the type the function sees (arrays decayed).")
TypeDecl = _node("TypeDecl", "type_exprs", "name what tags constants foreign",
                 lists="type_exprs",
                 doc="""A struct, union, enum or typedef declared in a function (name ''
    for an unnamed one).  tags: the tags it declares in its scope, its own
    and those of types declared inside it; constants: its enumerators and
    those of enums declared inside it (`struct s { enum e { A } k; }`:
    tags ['s', 'e'], constants ['A']); foreign: it names a type, object or
    enumerator declared in the function outside it (`struct s { L m[N]; }`,
    L a block's typedef, N a block's enumerator).""")
FuncDecl = _node("FuncDecl", "", "name name_at own_params", doc="""A function declared inside
    a function.  name_at: offset of its name; own_params: its declarator
    writes a parameter list (`int f(int)`), not a function typedef's
    (`ft f;`, `__typeof__(g) f;`).""")
StaticAssert = _node("StaticAssert", "exprs", "", lists="exprs",
                     doc="_Static_assert(cond, \"message\"): no code; exprs, its operands, "
                         "are never evaluated but may name locals (sizeof(buf)).")

# -- statements -----------------------------------------------------------

Compound = _node("Compound", "items", "", lists="items", base=Stmt)
DeclStmt = _node("DeclStmt", "decls", "", lists="decls", base=Stmt,
                 doc="One declaration: its declarators (VarDecl...), in order.")
ExprStmt = _node("ExprStmt", "expr", "", base=Stmt)
If = _node("If", "cond then else_", "", base=Stmt)
While = _node("While", "cond body", "", base=Stmt)
Do = _node("Do", "body cond", "", base=Stmt)
For = _node("For", "init cond step body", "semis", base=Stmt,
            doc="init: a DeclStmt, an ExprStmt or None; semis: offsets of the two ';'.")
Switch = _node("Switch", "cond body", "", base=Stmt)
Case = _node("Case", "value high body", "", base=Stmt, doc="case value: / case value ... high:")
Default = _node("Default", "body", "", base=Stmt)
Label = _node("Label", "body", "name", base=Stmt)
Goto = _node("Goto", "", "label", base=Stmt)
IndirectGoto = _node("IndirectGoto", "target", "", base=Stmt)
Break = _node("Break", "", "", base=Stmt)
Continue = _node("Continue", "", "", base=Stmt)
Return = _node("Return", "value", "", base=Stmt)
Null = _node("Null", "", "", base=Stmt)
Attributed = _node("Attributed", "body", "", base=Stmt,
                   doc="A statement with attributes: __attribute__((fallthrough)); ...")
Asm = _node("Asm", "operands", "labels", lists="operands", base=Stmt,
            doc="asm: operands are its expressions; labels those of asm goto.")

# -- expressions ----------------------------------------------------------

Ref = _node("Ref", "", "name key what", base=Expr,
            doc="A name: what is 'var' (key: the declaration), 'fn' or 'const'.")
Literal = _node("Literal", "", "", base=Expr, doc="A number, character or string.")
FuncName = _node("FuncName", "", "", base=Expr, doc="__func__, __FUNCTION__, __PRETTY_FUNCTION__")
Paren = _node("Paren", "inner", "", base=Expr)
Call = _node("Call", "callee args", "", lists="args", base=Expr)
Unary = _node("Unary", "operand", "op", base=Expr,
              doc="op: & * + - ~ ! ++ -- post++ post-- __real__ __imag__ __extension__")
Binary = _node("Binary", "lhs rhs", "op", base=Expr,
               doc="Arithmetic, comparison, && || and the comma operator.")
Assign = _node("Assign", "lhs rhs", "op", base=Expr, doc="op: = += -= ...")
Cond = _node("Cond", "cond then else_", "", base=Expr, doc="c ? a : b; then is None for c ?: b")
Cast = _node("Cast", "type_exprs operand", "", lists="type_exprs", base=Expr)
Member = _node("Member", "base", "name arrow", base=Expr)
Index = _node("Index", "base index", "", base=Expr)
SizeOf = _node("SizeOf", "type_exprs operand", "op evaluated", lists="type_exprs", base=Expr,
               doc="sizeof / _Alignof of an expression (operand) or a type; evaluated "
                   "when its operand's type is variably modified.")
StmtExpr = _node("StmtExpr", "body", "", base=Expr, doc="GNU ({ ... })")
InitList = _node("InitList", "items", "", lists="items", base=Expr)
Designated = _node("Designated", "designators value", "names", lists="designators", base=Expr,
                   doc="`.x = v`, `[i] = v`: designators are the index expressions, "
                       "names the members named (['x'], or [] for an index).")
CompoundLiteral = _node("CompoundLiteral", "type_exprs init", "", lists="type_exprs", base=Expr)
Generic = _node("Generic", "control assocs", "", lists="assocs", base=Expr)
Choose = _node("Choose", "cond then else_", "first", base=Expr,
               doc="__builtin_choose_expr: first says whether its constant chooses then "
                   "(True), else_ (False), or ripper could not tell (None).")
Opaque = _node("Opaque", "parts", "what", lists="parts", base=Expr,
               doc="An expression ripper knows only by its parts (va_arg, offsetof, "
                   "__builtin_types_compatible_p...): what names it; parts are the "
                   "expressions inside; `evaluated` in evaluation.py says which run.")

STATEMENTS = (Compound, DeclStmt, ExprStmt, If, While, Do, For, Switch, Case, Default, Label,
              Goto, IndirectGoto, Break, Continue, Return, Null, Asm, Attributed)
LOOPS = (While, Do, For)


def strip_parens(node):
    """`node` without the parentheses around it."""
    while isinstance(node, Paren):
        node = node.inner
    return node


def automatic(decl):
    """Is declarator `decl` a variable of automatic storage (a C local)?"""
    return isinstance(decl, VarDecl) and decl.storage not in ("static", "extern")


def _all_slots(cls):
    return tuple(name for c in reversed(cls.__mro__) for name in c.__dict__.get("__slots__", ()))


_SLOTS = {}


def rebuild(node, changes):
    """A copy of `node` with each child whose id is a key of `changes`
    replaced by its value (a node, never None): the same class, bytes and
    attributes; its other children shared.  A node from the source is
    rebuilt with `origin` naming it, and its children listed in the
    source's order (synthesized ones have no bytes to sort by).

        rebuild(`a + f(x)`, {f(x): t1})  ->  `a + t1`, origin `a + f(x)`"""
    if not changes:
        return node
    cls = type(node)
    slots = _SLOTS.get(cls)
    if slots is None:
        slots = _SLOTS[cls] = _all_slots(cls)
    new = object.__new__(cls)
    for name in slots:
        setattr(new, name, getattr(node, name))
    for name in cls.fields:
        value = getattr(node, name)
        if isinstance(value, list):
            setattr(new, name, [changes.get(id(v), v) for v in value])
        elif value is not None:
            setattr(new, name, changes.get(id(value), value))
    new.parent, new._memo, new._kids = None, None, None
    if node.start >= 0:
        new.origin = node.origin or node
        new._kids = tuple(changes.get(id(k), k) for k in node.children())
    return new


def source(node):
    """The node from the source that `node` stands for (itself, or what
    it rebuilds)."""
    return node.origin or node


def replace(root, changes):
    """`root` with the nodes whose ids are keys of `changes` replaced,
    everything between them and root rebuilt, the rest shared."""
    if id(root) in changes:
        return changes[id(root)]
    kids = {}
    for k in root.children():
        r = replace(k, changes)
        if r is not k:
            kids[id(k)] = r
    return rebuild(root, kids)


def set_parents(root):
    """Point every node's `parent` at the node holding it."""
    for node in root.nodes():
        for child in node.children():
            child.parent = node
    return root


class Function:
    """A function declaration (and its body, if this one defines it)."""
    __slots__ = ("name", "start", "end", "name_at", "system", "definition", "marked_async",
                 "variadic", "static", "_result", "params", "_param_types", "body", "attrs",
                 "annotations", "prototyped", "header_end", "knr", "_types", "own_params",
                 "asm_label")

    def __init__(self, name, start, end, **kw):
        self.name, self.start, self.end = name, start, end
        self.name_at = kw.get("name_at", start)     # offset of the function's name
        self.system = kw.get("system", False)       # declared in a system header
        self.definition = kw.get("definition", False)
        self.marked_async = kw.get("marked_async", False)  # carries RIP_ASYNC
        self.variadic = kw.get("variadic", False)
        self.static = kw.get("static", False)
        self._result = kw.get("result")             # CType of its result
        self.params = kw.get("params", [])          # ParamDecl nodes
        self._param_types = kw.get("param_types", [])  # CTypes, None if unprototyped
        # parse.py: a function giving (result, param_types) when first asked
        # (most functions are a system header's, and never asked)
        self._types = kw.get("types")
        self.body = kw.get("body")                  # Compound of a definition
        self.attrs = kw.get("attrs", [])            # attribute names (constructor, ...)
        self.annotations = kw.get("annotations", [])  # (start, end) of annotate("rip_async")
        self.prototyped = kw.get("prototyped", True)
        self.header_end = kw.get("header_end", -1)  # offset of the body's '{'
        self.knr = kw.get("knr", False)             # an old-style definition
        # its declarator writes a parameter list: `int f(int a)`, not a function
        # typedef's `ft f;` or `__typeof__(g) f;` (whose parameters only the
        # function's type gives)
        self.own_params = kw.get("own_params", True)
        # a system header's declaration renamed for the linker
        # (`fscanf __asm__("__isoc99_fscanf")`), else None
        self.asm_label = kw.get("asm_label")

    def _resolve(self):
        make, self._types = self._types, None
        self._result, self._param_types = make()

    @property
    def result(self):
        if self._types is not None:
            self._resolve()
        return self._result

    @property
    def param_types(self):
        if self._types is not None:
            self._resolve()
        return self._param_types

    def __repr__(self):
        return "Function(%r)" % self.name


class Unit:
    """What parse.py gives the passes: the preprocessed text and every
    declaration ripper needs from it."""

    def __init__(self, pre, functions, globals_, async_typedefs, tu_errors=()):
        self.pre = pre              # preprocess.Preprocessed
        self.text = pre.text        # the preprocessed bytes every offset points into
        self.lines = pre.lines      # its LineMap
        self.path = pre.path
        self.functions = functions  # every Function, in order
        self.globals = globals_     # file-scope VarDecls of user code (initializers that name functions)
        self.async_typedefs = async_typedefs  # (start of typedef, name offset, '(' offset or -1, annotation ranges)
        self.definitions = {f.name: f for f in functions if f.definition}
        self.global_names = []      # (name, offset) of every file-scope variable of user code
        self.file_tags = set()      # tags declared at file scope (system headers too)
        self.file_names = set()     # ordinary names declared at file scope: functions,
                                    # variables, typedefs, enumerators (system headers too)
        self.declarators = {}       # start of a file-scope declaration of user code -> its
                                    # Declarators, in order (`int f(int), a;`: f, a)
        self.warnings = list(tu_errors)
        self.thread_locals = []     # ThreadLocal of each file-scope __thread declaration (user code)
        self.block_thread_locals = []   # (name, offset) of each one declared in a function
        self.prefix_maps = []       # (old, new) of -ffile-prefix-map and -fmacro-prefix-map, in
                                    # order: how the dump's tables name files (as __FILE__)


class ThreadLocal:
    """A file-scope declaration of a thread-local variable:
    `static __thread int n = 1;` (keyword: the offset of `__thread`)."""
    __slots__ = ("name", "name_at", "start", "end", "keyword", "keyword_end", "storage",
                 "definition")

    def __init__(self, name, name_at, start, end, keyword, keyword_end, storage, definition):
        self.name, self.name_at, self.start, self.end = name, name_at, start, end
        self.keyword, self.keyword_end = keyword, keyword_end   # its keyword's range, or -1
        self.storage = storage      # '', 'static' or 'extern'
        self.definition = definition    # defines it (not an extern declaration)


class Declarator:
    """One declarator of a file-scope declaration: `a` in `int f(int), a;`."""
    __slots__ = ("name", "name_at", "start", "end", "function")

    def __init__(self, name, name_at, start, end, function):
        self.name, self.name_at = name, name_at
        self.start, self.end = start, end   # the declaration's start; the declarator's end
        self.function = function            # declares a function (not an object)


# -- nodes lowering adds (normalize.py); no source text of their own ------

class Temp:
    """A variable ripper adds (a temporary): liveness puts it in the frame
    or leaves it a C local of the resume entry, like a user's local."""
    __slots__ = ("name", "ctype", "key", "spelling")

    def __init__(self, name, ctype, spelling=None):
        self.name = name            # rip__tN
        self.ctype = ctype          # its CType (None: spelling says it)
        self.key = "tmp:" + name    # what TempRefs carry, like a Ref's key
        self.spelling = spelling or ctype.unqualified   # the type, for a declaration

    def __repr__(self):
        return "Temp(%r)" % self.name


TempRef = _node("TempRef", "", "temp", base=Expr, doc="A temporary, read or written.")
Discard = _node("Discard", "expr", "", base=Expr,
                doc="(void)expr: a value not used, said so as C lets one.")
NoValue = _node("NoValue", "", "", base=Expr,
                doc="(void)0: what stands for the value of an expression that has none.")
Seq = _node("Seq", "stmts", "", lists="stmts", base=Stmt,
            doc="Statements in place of one, no braces (their declarations stay in scope).")
Block = _node("Block", "stmts", "", lists="stmts", base=Stmt, doc="{ statements }")
Eval = _node("Eval", "expr", "", base=Stmt, doc="expr;")
Store = _node("Store", "target value", "ctype", base=Stmt,
              doc="target = value; (a copy when the type has const parts or is an array)")
IfS = _node("IfS", "cond then else_", "", lists="then else_", base=Stmt)
Loop = _node("Loop", "body", "", lists="body", base=Stmt, doc="for (;;) { body }")
BreakS = _node("BreakS", "", "", base=Stmt)
GotoS = _node("GotoS", "", "label", base=Stmt)
LabelS = _node("LabelS", "", "name", base=Stmt, doc="name: ;")
Await = _node("Await", "callee args target", "call point intrinsic", lists="args", base=Stmt,
              doc="A resume point: call the async function (its callee and args "
                  "already lowered), suspend if it does, store its value in target.")
Declare = _node("Declare", "init", "var", base=Stmt,
                doc="One declarator of a declaration, declared alone.  var: a VarDecl "
                    "of automatic storage (with init, its initializer lowered: a C "
                    "local's declaration or a frame store), or any other declarator "
                    "(a static, a type, a function, a _Static_assert) as written.")
Declaration = _node("Declaration", "stmts", "decl", lists="stmts", base=Stmt,
                    doc="Declaration decl (a DeclStmt) as statements: its declarators "
                        "declared one by one (Declare), an initializer's async calls "
                        "before its declarator.")
ReturnS = _node("ReturnS", "value", "", base=Stmt, doc="return, value lowered")

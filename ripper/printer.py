"""printer.py -- the nodes of one async function, written as C.

A node from the source is written as its own text with the parts that
changed in their places, so untouched code stays byte for byte, comments
included; a node normalize.py made is written as generated code.  Every
piece of text copied from the source keeps its offset, and emit.py keeps
it on its own line.  Variables in the frame are reached through rip__F,
and each Await becomes a resume point (the call ABI of abi.py), or an
intrinsic inlined.

    y = f(x) + 1;    (Await 1, y a C local, x in the frame) ->
    { rip__c = rip__new_f(rip__F->x); if (!rip__call(rip__self, rip__c)) {
      rip__self->state = 1; return 0; } rip__resume_1: rip__t1 = <result>;
      rip__frame_free(rip__c); } y = rip__t1 + 1;
"""

import re

from . import abi
from . import tree as T
from .emit import ENCODING
from .evaluation import callee_name

RUNTIME_HEADER = "rip.h"

# C's precedence levels, loosest first: an expression printed where a
# tighter one is expected gets parentheses (Printer.expr).
(COMMA, ASSIGN, CONDITIONAL, LOGICAL_OR, LOGICAL_AND, BIT_OR, BIT_XOR, BIT_AND, EQUALITY,
 RELATIONAL, SHIFT, ADDITIVE, MULTIPLICATIVE, UNARY, POSTFIX, PRIMARY) = range(16)
BINARY_LEVELS = {",": COMMA, "||": LOGICAL_OR, "&&": LOGICAL_AND, "|": BIT_OR, "^": BIT_XOR,
                 "&": BIT_AND, "==": EQUALITY, "!=": EQUALITY, "<": RELATIONAL,
                 ">": RELATIONAL, "<=": RELATIONAL, ">=": RELATIONAL, "<<": SHIFT,
                 ">>": SHIFT, "+": ADDITIVE, "-": ADDITIVE, "*": MULTIPLICATIVE,
                 "/": MULTIPLICATIVE, "%": MULTIPLICATIVE}
PRIMARY_NODES = (T.Paren, T.Literal, T.Ref, T.FuncName, T.TempRef, T.StmtExpr, T.Generic,
                 T.Choose, T.InitList)
POSTFIX_NODES = (T.Call, T.Member, T.Index, T.CompoundLiteral)


def precedence(node):
    """How tightly expression `node` binds as C reads its text: PRIMARY
    for a name or anything in parentheses, COMMA for `a, b`.  A node of
    unknown shape counts as the loosest, so it is always parenthesized.

        precedence(`(*p = v), 1`) == COMMA;  precedence(`t`) == PRIMARY"""
    if isinstance(node, PRIMARY_NODES):
        return PRIMARY
    if isinstance(node, T.Opaque):      # a builtin written as a call, or any shape at all
        return PRIMARY if node.what.startswith("__builtin_") else \
            POSTFIX if node.what == "call" else COMMA
    if isinstance(node, POSTFIX_NODES):
        return POSTFIX
    if isinstance(node, T.Unary):
        return POSTFIX if node.op in ("post++", "post--") else UNARY
    if isinstance(node, (T.Cast, T.SizeOf, T.Discard, T.NoValue)):
        return UNARY
    if isinstance(node, T.Binary):
        return BINARY_LEVELS.get(node.op, COMMA)
    if isinstance(node, T.Assign):
        return ASSIGN
    if isinstance(node, T.Cond):
        return CONDITIONAL
    return COMMA


def store(target, ctype, value, init_list=False, type_text=None, assignable=None):
    """`target = value`, or a copy where C cannot assign: arrays, structs
    with const members, and targets reached as const (`assignable` False:
    Printer.assignable).  `type_text` spells the type where the
    CType's spelling would not do (a type declared in the function)."""
    if ctype is None:
        return "%s = %s" % (target, value)
    spelled = type_text or "__typeof__(%s)" % ctype.unqualified
    if ctype.array:
        if not init_list:
            value = "{" + value + "}"
        return "__extension__ __builtin_memcpy((void *)&%s, &(%s)%s, sizeof %s)" % (
            target, spelled, value, target)       # C90 has no compound literals
    if not (ctype.assignable if assignable is None else assignable):
        return "__extension__ __builtin_memcpy((void *)&%s, (%s[1]){%s}, sizeof %s)" % (
            target, spelled, value, target)
    if init_list:
        return "%s = __extension__ (%s)%s" % (target, spelled, value)
    return "%s = %s" % (target, value)


class Printer:
    """Writes the nodes of one async function as pieces: text copied from
    the source (with its offset) and generated text."""

    def __init__(self, fn, abstract=False):
        self.fn = fn
        self.abstract = abstract    # ripper --stage normalize: awaits as `await N: ...`
        self.text = fn.text
        self.pieces = []
        self.unevaluated = {id(c) for c in fn.unevaluated}
        # the layout, read-only (none in the abstract form: every variable
        # printed by its name)
        self.fields = {} if abstract else fn.fields     # key -> frame field
        self.opaque = {} if abstract else fn.opaque     # key -> (size, align, exact)
        self.literals = {} if abstract else fn.literals  # id(compound literal) -> field
        # what printing decides: the types the body names through typedefs
        # (type_name), {spelling: name}, which assemble() declares
        self.type_names = {}

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

    def as_text(self, node, how=None):
        return "".join(t for t, _ in self.capture(node, how))

    def assigned(self, node):
        """`node` as the value of an assignment or an initializer."""
        self.expr(node, ASSIGN)

    # -- the layout, as the body reaches it --------------------------------

    def field_access(self, key):
        """The lvalue a variable in the frame is, in the function's body."""
        field = "%s->%s" % (abi.FRAME, self.fields[key])
        if key in self.opaque:
            return "(*(%s *)%s)" % (self.type_text(self.fn.decl_of(key)), field)
        return field

    def type_text(self, decl):
        """A variable's type, spelled where it is declared.  One of a type
        declared in the function is its dummy's (Printer.dummies); an array
        is spelled with its bound, which its initializer may have given it:

            struct W { int a; } w[] = {{1}, {2}};  ->  extern struct W rip__d_w[];
            its type: __typeof__(__typeof__(rip__d_w[0])[2])"""
        t = decl.ctype
        if t is not None and t.local:
            if t.canonical == "CONSTANTARRAY":
                return "__typeof__(__typeof__(%s[0])[%d])" % (abi.dummy(decl.key), t.count)
            return "__typeof__(%s)" % abi.dummy(decl.key)
        return self.type_name(decl.ctype)

    def type_name(self, ctype, unqualified=False):
        """A name for a type, for the body to write: a typedef before the
        function, where its spelling means it (a CType spells a type as
        file scope means it), in ripper's reserved names, so that no block's
        own tag, typedef or variable of the same name can give it another
        meaning where the body writes it:

            struct s { int a, b; };  ... { struct s { int b, a; } y;
                int *p = &(__typeof__(x)){3, 4}.a; ...  ->
            typedef __typeof__(struct s) rip__type_f_1; ...
                (*(rip__type_f_1 *)rip__copy(&rip__F->rip__lit1, ...))

        AsyncFunction.assemble writes the typedefs (type_names).
        A type spelled with keywords only (`unsigned long *`), which nothing
        can hide, or one file scope cannot spell (block-local, variably
        modified) keeps `__typeof__(spelling)`, and so does --stage
        normalize's abstract form."""
        spelling = ctype.unqualified if unqualified else ctype.spelling
        if not ctype.named or ctype.local or ctype.vm or self.abstract:
            return "__typeof__(%s)" % spelling
        name = self.type_names.get(spelling)
        if name is None:
            name = abi.type_typedef(self.fn.f.name, len(self.type_names) + 1)
            self.type_names[spelling] = name
        return name

    def assignable(self, decl):
        """Can the variable be assigned a value of its type where the body
        reaches it?  Not an array, nor a struct with a const member; nor a
        const one kept as bytes, which the body reaches as its own const
        type (field_access), where the others are reached unqualified."""
        t = decl.ctype
        return t.assignable and not t.array and not (t.const and decl.key in self.opaque)

    # -- dispatch -------------------------------------------------------------

    def node(self, n):
        method = getattr(self, "print_" + type(n).__name__, None)
        if method is not None:
            return method(n)
        return self.original(n)

    def expr(self, n, slot):
        """Expression `n` where C expects one of precedence `slot` (the
        right of `=`: ASSIGN), parenthesized when it binds more loosely
        than that: what replaces an operand, or an operand moved to a new
        place, keeps its grouping.

            t = c ? (*p = v), 1 : put(p, v);  ->  if (c) { t = ((*p = v), 1); } ..."""
        if precedence(n) >= slot:
            return self.node(n)
        self.gen("(")
        self.node(n)
        self.gen(")")

    def changed(self, n):
        """Does `n` print otherwise than its bytes?  What normalize made or
        rebuilt does; so does source text that reads a frame variable...
        (AsyncFunction.dirty_nodes)."""
        return n.start < 0 or n.origin is not None or id(n) in self.fn.dirty

    def changes(self, n):
        """(child as written, what stands in its place) for each child of
        `n` that prints otherwise than its bytes, in source order."""
        for old, new in zip(T.source(n).children(), n.children()):
            if new is not old or self.changed(old):
                yield old, new

    def in_place(self, old, new):
        """`new` printed where the source has `old`, as tight as `old` binds
        there."""
        if new is not old and isinstance(old, T.Expr) and isinstance(new, T.Expr):
            return self.expr(new, precedence(old))
        self.node(new)

    def original(self, n):
        """`n` as written, with the children that change printed anew."""
        if not self.changed(n):
            self.copy(n.start, n.end)
            return
        if n.start < 0:
            raise self.fn.error(self.fn.f.name_at, "cannot print a %s that ripper made"
                                % type(n).__name__, hint="this is a bug in ripper; "
                                "please report it")
        pos = n.start
        for old, new in self.changes(n):
            if old.start < pos or old.end > n.end:
                raise self.fn.error(old, "cannot rewrite this expression (its parts are "
                                    "out of order)", hint="this is a bug in ripper; "
                                    "please report it")
            self.copy(pos, old.start)
            self.in_place(old, new)
            pos = old.end
        self.copy(pos, n.end)

    def inside(self, body):
        """The items of compound statement `body` with the text between
        them (comments too), without its braces."""
        open_ = 2 if self.text[body.start:body.start + 2] == b"<%" else 1
        close = 2 if self.text[body.end - 2:body.end] == b"%>" else 1
        self.items(body, body.start + open_, body.end - close)

    def print_Compound(self, n):
        if not self.changed(n):
            return self.copy(n.start, n.end)
        open_ = 2 if self.text[n.start:n.start + 2] == b"<%" else 1
        close = 2 if self.text[n.end - 2:n.end] == b"%>" else 1
        self.copy(n.start, n.start + open_)
        self.items(n, n.start + open_, n.end - close)
        self.copy(n.end - close, n.end)

    def items(self, n, pos, end):
        """The items of compound statement n, from pos to end.  A
        declaration written anew as statements (stores into the frame,
        resume points) opens a block for the rest, so that declarations
        still come before statements in every block (C89)."""
        opened = 0
        written = T.source(n)
        value = isinstance(written.parent, T.StmtExpr)  # its last item is its value: no block
        for i, (old, new) in enumerate(zip(written.items, n.items)):
            if new is old and not self.changed(old):
                continue
            self.copy(pos, old.start)
            self.in_place(old, new)
            pos = old.end
            if not value and isinstance(old, T.DeclStmt) and self.rewritten(new) and \
                    any(isinstance(x, T.DeclStmt) for x in written.items[i + 1:]):
                self.gen(" {")
                opened += 1
        self.copy(pos, end)
        self.gen(" }" * opened)

    def rewritten(self, stmt):
        """Is declaration `stmt` (as written, or as normalize made it
        statements) written as statements, not as itself?"""
        return isinstance(stmt, T.Declaration) or any(
            isinstance(d, T.VarDecl) and (d.key in self.fields or d.key in self.fn.lw.hoisted)
            for d in stmt.decls)

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
        elif n.key in self.fields:
            self.gen(self.field_access(n.key))
        elif n.key in fn.unused:
            self.gen("0")
        elif n.key in fn.lw.tls_keys:
            self.gen(fn.lw.tls_access(n.name))  # the task's copy of a thread-local (--posix)
        elif n.what == "fn" and fn.lw.renamed(n.name) and id(n) not in fn.values:
            self.gen(fn.lw.renamed_at(n))       # a plain call of a pthread function (--posix)
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
        if callee_name(n) == "__builtin_va_start" and self.fn.f.variadic and len(n.args) == 2:
            # the body's last parameter, which the resume entry passes (abi.VA_BODY)
            self.gen("__builtin_va_start(")
            self.node(n.args[0])
            self.gen(", %s)" % abi.DONE)
            return
        if id(T.source(n)) not in self.unevaluated:
            return self.original(n)
        callee = self.fn.lw.unevaluated_callee(n, self.type_name)
        if callee is None:          # through a pointer (Lowering.unevaluated_pointer)
            self.gen(self.fn.lw.unevaluated_pointer(n, self.type_name) + "(0, ")
            self.node(n.callee)
            for a in n.args:
                self.gen(", ")
                self.node(a)
            return self.gen(")")
        c = T.strip_parens(n.callee)
        self.copy(n.start, c.start)
        self.gen(callee)
        self.copy_rest(n, c.end)

    def print_CompoundLiteral(self, n):
        """One whose address is kept lives in the frame: made on the C stack
        as C makes it, then copied to the frame, where the code uses it."""
        field = self.literals.get(id(T.source(n)))
        if field is None:
            return self.original(n)
        target = "%s->%s" % (abi.FRAME, field)
        if n.type.local:
            self.gen("(*(__typeof__(")
            self.original(n)
            self.gen(") *)%s(&%s, &" % (abi.COPY, target))
            self.original(n)
            # as many bytes as gcc's layout takes, which must fit
            # (AsyncFunction.add_field)
            self.gen(", __extension__ ({ _Static_assert(sizeof(__typeof__(")
            self.original(n)
            self.gen(")) <= sizeof %s && __alignof__(__typeof__(" % target)
            self.original(n)
            self.gen(")) <= %d, \"%s\"); sizeof(__typeof__(" % (
                n.type.align, layout_message("a compound literal")))
            self.original(n)
            self.gen(")); })))")
            return
        self.gen("(*(%s *)%s(&%s, &" % (self.type_name(n.type, unqualified=True), abi.COPY,
                                        target))
        self.original(n)
        self.gen(", sizeof %s))" % target)

    def print_Return(self, n):
        self.node(T.ReturnS(n.value))

    def print_Declaration(self, n):
        self.print_DeclStmt(n.decl, n)

    def print_DeclStmt(self, n, replaced=None):
        """A declaration with frame variables, or whose initializers wait
        (`replaced`: normalize's Declaration of it): frame stores and C
        locals' declarations, in order (one with neither stays as written).
        Variables of a type declared in the function first get dummy
        declarations that name their type (dummies)."""
        fn = self.fn
        if all(d.key in fn.lw.hoisted if isinstance(d, T.VarDecl) else isinstance(d, T.TypeDecl)
               for d in n.decls) and any(isinstance(d, T.VarDecl) for d in n.decls):
            # declared at file scope (Lowering.hoist): nothing stays, so that
            # C89's declarations that follow still come before statements
            return self.gen(";" if isinstance(n.parent, (T.Label, T.Case, T.Default))
                            else "")
        protos = fn.lw.block_prototypes(n)
        vars_ = [d for d in n.decls if isinstance(d, T.VarDecl) and d.key in self.fields]
        if replaced is None and not vars_:
            self.original(n)
        else:
            autos = [d for d in n.decls if isinstance(d, T.VarDecl) and
                     d.storage not in ("static", "extern")]
            if any(d.ctype is not None and d.ctype.local for d in autos):
                self.dummies(n, autos)      # they declare the types too
                items = [x for x in replaced.stmts if not (isinstance(x, T.Declare) and
                                                           isinstance(x.var, T.TypeDecl))] \
                    if replaced is not None else [T.Declare(d.init, d) for d in autos]
            elif replaced is not None:
                items = replaced.stmts
            else:
                items = [T.Declare(d.init if T.automatic(d) else None, d) for d in n.decls]
            self.statements_or_null(self.declarations_first(n, items))
            self.type_uses(n)
        if protos:
            self.gen(" " + protos)

    def declarations_first(self, n, items):
        """The C locals of `items` that need nothing evaluated first (no
        initializer, a type that names nothing) declared before the frame
        stores, so that C89's declarations-before-statements still holds
        (-Wdeclaration-after-statement):

            int ret = 0, af;  ->  __typeof__(int) af; rip__F->ret = 0;

        unless an earlier part names another object of the same name (its
        declaration there would hide that one)."""
        def movable(x):
            if not (isinstance(x, T.Declare) and isinstance(x.var, T.VarDecl) and
                    x.init is None and T.automatic(x.var)):
                return False
            d = x.var
            # its name written once in the declaration (its own declarator):
            # an earlier part naming another object or a typedef of that
            # name (`int x = sizeof(T), T;`) would see this one instead
            return d.key not in self.fields and not d.type_exprs and d.ctype is not None and \
                len(re.findall(rb"(?<![\w$])%s(?![\w$])" % re.escape(d.name.encode()),
                               self.text[n.start:n.end])) == 1
        front = [x for x in items if movable(x)]
        return front + [x for x in items if not movable(x)] if front else items

    def type_uses(self, n):
        """What only the written type of a frame variable names stays
        named: the frame spells the type out, and a function named in
        nothing else would be 'defined but not used' (-Wunused-function).

            __typeof__(pick(1)) v = 5;  ->
                rip__F->v = 5; (void)sizeof(__typeof__(pick(1)) *);

        A statement after the declaration's stores (statements already:
        C89's order holds); the operand stays unevaluated, as it was.  So
        does a typedef of the block, which the frame spells as its type
        (-Wunused-local-typedefs), unless the declaration itself hides it:

            typedef float T; T t = 1;  ->  rip__F->t = 1; (void)sizeof(T *);"""
        for pieces in self.type_use_pieces(n):
            self.gen(" ")
            self.pieces += pieces
            self.gen(";")

    def type_use_pieces(self, n):
        """The expressions type_uses makes statements of, as pieces."""
        names = {d.name for d in n.decls}
        uses, typedefs = [], []
        for d in n.decls:
            if not (isinstance(d, T.VarDecl) and d.key in self.fields):
                continue
            for e in d.type_exprs:
                if any(isinstance(x, T.Ref) for x in e.walk()):
                    uses.append([("(void)sizeof(__typeof__(", None)] + self.capture(e) +
                                [(") *)", None)])
            typedefs += [t for t in d.block_typedefs or ()
                         if t not in names and t not in typedefs]
        return uses + [[("(void)sizeof(%s *)" % t, None)] for t in typedefs]

    def dummies(self, n, autos):
        """`struct { int a; } v = {1}, w;` -> `extern struct { int a; } rip__d_v, rip__d_w;`:
        the type, declared where the user declared it, and a name for it;
        no object is defined (nothing refers to the dummies but typeof)."""
        fn = self.fn
        if any(d.storage in ("register", "auto") for d in autos):
            raise fn.error(n, "a declaration of a variable whose type is declared in the "
                           "function, with a storage class ripper cannot keep (%s)"
                           % next(d.storage for d in autos if d.storage))
        self.gen("extern ")
        pos = n.start
        for d in autos:
            self.span(n, pos, d.name_at)
            self.gen(abi.dummy(d.key))
            pos = d.name_at + len(d.name.encode())
            if d.init is not None:
                eq = self.text.rfind(b"=", pos, d.init.start)
                self.span(n, pos, eq)
                pos = d.init.end
        self.span(n, pos, n.end)
        for d in autos:
            if d.key in self.opaque:
                size, align, exact = self.opaque[d.key]
                type_text = self.type_text(d)
                self.gen(" __extension__ _Static_assert(sizeof(%s) %s %d && __alignof__(%s) "
                         "<= %d, \"%s\");" % (type_text, "==" if exact else "<=", size,
                                                type_text, align, layout_message("'%s'" % d.name)))
        self.gen(" ")

    def span(self, n, start, end):
        """Original text of node `n` from `start` to `end`, its changed
        parts inside printed anew."""
        pos = start
        for child in n.walk():
            if child is n or not self.changed(child) or child.start < pos or \
                    child.end > end or isinstance(child, (T.DeclStmt, T.VarDecl)):
                continue
            if isinstance(child, T.Ref):
                self.copy(pos, child.start)
                self.node(child)
                pos = child.end
        self.copy(pos, end)

    def print_For(self, n):
        """A for statement whose init declares frame variables: their stores
        as its init expression, or (C locals among them) the declarations
        before the loop, in a block that keeps their scope."""
        init = n.init
        if not isinstance(init, T.DeclStmt) or \
                not any(isinstance(d, T.VarDecl) and d.key in self.fields for d in init.decls):
            return self.original(n)
        if all(d.key in self.fields for d in init.decls if isinstance(d, T.VarDecl)) and \
                all(isinstance(d, T.VarDecl) for d in init.decls):
            stores = [self.capture(T.Declare(d.init, d)) for d in init.decls if d.init is not None]
            self.copy(n.start, init.start)
            for i, pieces in enumerate(self.type_use_pieces(init) + stores):
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
        self.original(T.rebuild(n, {id(init): T.Null()}))
        self.gen(" }")

    def copy_rest(self, n, pos, end=None):
        """The rest of original node `n` from offset `pos` (to `end`), its
        changed children printed anew."""
        end = n.end if end is None else end
        for old, new in self.changes(n):
            if old.start < pos or old.end > end:
                continue
            self.copy(pos, old.start)
            self.in_place(old, new)
            pos = old.end
        self.copy(pos, end)

    def statements_or_null(self, items):
        """Statements in place of one: `;` when they print as nothing."""
        before = len(self.pieces)
        self.statements(items)
        if not any(t.strip() for t, _ in self.pieces[before:]):
            self.gen(";")

    # -- synthesized nodes ----------------------------------------------------

    def print_Seq(self, n):
        self.statements_or_null(n.stmts)

    def print_Block(self, n):
        self.gen("{ ")
        self.statements(n.stmts)
        self.gen(" }")

    def declared(self, d):
        """Declarator `d` (not a C local) declared alone, as written."""
        if isinstance(d, T.FuncDecl):
            # one declarator of its declaration, with the specifiers: not the
            # objects declared before it (`int a = 1, f(int);` -> `int f(int);`)
            specs, declarator = self.fn.lw.function_declarator(d)
            self.copy(*specs)
            self.copy(declarator, d.end)
        else:
            self.original(d)
        self.gen(";")

    def print_Eval(self, n):
        self.expr(n.expr, COMMA)
        self.gen(";")

    def print_Discard(self, n):
        self.gen("(void)")
        self.expr(n.expr, UNARY)

    def print_NoValue(self, n):
        self.gen("(void)0")

    # source node classes that normalize also makes: written from their fields

    def print_Unary(self, n):
        if n.start >= 0:
            return self.original(n)
        self.gen(n.op)
        operand = self.capture(n.operand, lambda x: self.expr(x, UNARY))
        if operand and operand[0][0][:1] in "+-&" and operand[0][0][:1] == n.op[-1:]:
            self.gen(" ")               # - -x, not --x
        self.pieces += operand

    def print_Member(self, n):
        if n.start >= 0:
            return self.original(n)
        self.expr(n.base, POSTFIX)
        self.gen(("->" if n.arrow else ".") + n.name)

    def print_Binary(self, n):
        if n.start >= 0:
            return self.original(n)
        level = BINARY_LEVELS[n.op]
        self.expr(n.lhs, level)
        self.gen(", " if n.op == "," else " %s " % n.op)
        self.expr(n.rhs, level + 1)

    def print_Assign(self, n):
        if n.start >= 0:
            return self.original(n)
        self.expr(n.lhs, UNARY)
        self.gen(" %s " % n.op)
        self.expr(n.rhs, ASSIGN)

    def print_Null(self, n):
        if n.start >= 0:
            return self.original(n)
        self.gen(";")

    def print_TempRef(self, n):
        t = n.temp
        if t.key in self.fields:
            self.gen("%s->%s" % (abi.FRAME, self.fields[t.key]))
        else:
            self.gen(t.name)

    def print_Store(self, n):
        target = self.as_text(n.target)
        value = self.capture(n.value, self.assigned)
        init_list = isinstance(T.strip_parens(n.value), T.InitList)
        var = T.strip_parens(n.target)
        decl = self.fn.decl_of(var.key) if isinstance(var, T.Ref) and n.ctype is not None \
            and n.ctype.local else None
        assignable = self.assignable(decl) if decl is not None else \
            n.ctype is not None and n.ctype.assignable and not n.ctype.array
        if n.ctype is None or (assignable and not init_list):
            self.gen(target + " = ")
            self.pieces += value
            self.gen(";")
            return
        type_text = self.type_text(decl) if decl is not None else \
            self.type_name(n.ctype, unqualified=True)
        self.gen(store(target, n.ctype, "".join(t for t, _ in value), init_list,
                       type_text, assignable) + ";")

    def print_IfS(self, n):
        self.gen("if (")
        cond = n.cond
        self.node(cond.inner if isinstance(cond, T.Paren) else cond)   # no ((x == y))
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
            value = self.capture(n.value, self.assigned)
            target = "%s->%s" % (abi.FRAME, abi.RESULT)
            if f.result.assignable and not f.result.array:
                self.gen(target + " = ")
                self.pieces += value
                self.gen("; ")
            else:
                self.gen(store(target, f.result, "".join(t for t, _ in value),
                               type_text=self.type_name(f.result, unqualified=True)) + "; ")
        self.gen("return 1; }")

    def print_Declare(self, n):
        """User variable `var` declared, its initializer (lowered) `init`."""
        fn, d = self.fn, n.var
        if not T.automatic(d):
            return self.declared(d)
        init_list = n.init is not None and isinstance(T.strip_parens(n.init), T.InitList)
        if d.key in self.fields:
            if n.init is None:
                return
            target = self.field_access(d.key)
            value = self.capture(n.init, self.assigned)
            if self.assignable(d) and not init_list:
                self.gen(target + " = ")
                self.pieces += value
                self.gen(";")
            else:
                self.gen(store(target, d.ctype, "".join(t for t, _ in value), init_list,
                               self.type_text(d), self.assignable(d)) + ";")
            return
        if d.ctype is None:
            raise fn.error(d, "cannot declare '%s' apart from its declaration" % d.name,
                           hint="declare it in a declaration of its own")
        self.gen("%s %s" % (self.type_text(d), d.name))
        if n.init is not None:
            self.gen(" = ")
            self.assigned(n.init)
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
                self.assigned(a)
            self.gen(");")
            return
        name = intrinsic(n, fn.lw)
        args = [self.as_text(a, self.assigned) for a in n.args]
        if name == "rip_yield":
            self.gen("{ " + abi.yield_point(point) + " }")
            return
        if name is not None:
            tries, woken = abi.INTRINSICS[name]
            attempt = "%s(%s, &%s->%s)" % (tries, ", ".join(args), abi.FRAME, abi.WAIT)
            if n.target is not None and woken:
                self.gen("{ " + abi.wait_point(point, "(%s = %s)" % (abi.R, attempt),
                                               "%s = %s(&%s->%s);" % (abi.R, woken, abi.FRAME,
                                                                      abi.WAIT)) + " ")
                self.gen(self.store_result(n, abi.R) + "; }")
                return
            # unused, the woken call still ends the wait (a deadline's timer)
            after = "(void)%s(&%s->%s);" % (woken, abi.FRAME, abi.WAIT)
            self.gen("{ " + abi.wait_point(point, attempt, after) + " }")
            return
        callee = callee_name(n.call)
        if id(n) in fn.va_calls:    # the `...` arguments copied for the callee's resumes
            key, fixed, types = fn.va_calls[id(n)]
            access = self.field_access(key)
            copies = [store("%s.a%d" % (access, i), t, text) + ", "
                      for i, ((t, _), text) in enumerate(zip(types, args[fixed:]))]
            start = "(%s%s(%s))" % ("".join(copies), fn.lw.constructor(callee), ", ".join(
                args[:fixed] + [abi.va_thunk(fn.f.name, n.point), "&" + access]))
        elif callee is not None:
            start = "%s(%s)" % (fn.lw.constructor(callee), ", ".join(args))
        else:
            start = "(%s)(%s)" % (self.as_text(n.callee), ", ".join(args))
        self.gen("{ " + abi.resume_point(point, start))
        free = "%s(%s);" % (abi.FREE, abi.DONE)
        defined = fn.lw.analysis.defined.get(callee) if callee else None
        if defined is not None and defined.start < fn.f.start and callee in fn.names:
            free = "%s(%s, sizeof(%s));" % (abi.FREE_SIZED, abi.DONE,
                                                                abi.frame_struct(callee))
        if n.target is not None:
            result = abi.result_access(fn.lw.result_type(n.call, self.type_name))
            self.gen(self.store_result(n, result) + "; ")
        else:
            self.gen("; ")
        self.gen(free + " }")

    def store_result(self, await_, value):
        """`target = value` for an await's value, its type named as
        type_name names it where C cannot assign."""
        ctype = _target_type(await_)
        copied = ctype is not None and (ctype.array or not ctype.assignable)
        return store(self.as_text(await_.target), ctype, value, type_text=self.type_name(
            ctype, unqualified=True) if copied else None)


def _target_type(await_):
    target = T.strip_parens(await_.target)
    if isinstance(target, T.TempRef):
        return target.temp.ctype
    if isinstance(target, T.Expr) and target.type is not None:
        return target.type
    return None


def intrinsic(await_, lowering):
    """The runtime primitive an Await calls directly, if ripper inlines it."""
    name = callee_name(await_.call)
    if name in abi.INTRINSICS:
        f = lowering.functions.get(name)
        if f is not None and lowering.unit.lines.where(f.start)[0].endswith(RUNTIME_HEADER) \
                and not f.definition:
            return name
    return None


def layout_message(what):
    """The message of the check that gcc lays out the type of `what`
    ("'v'", "a compound literal") in the bytes ripper gave it, which
    clang's layout sized."""
    return ("ripper: gcc lays out the type of %s otherwise than clang, which sized its "
            "place in the frame; declare the type at file scope" % what)

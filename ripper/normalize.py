"""normalize.py -- every async call becomes a statement of its own.

An async function's statements that hold async calls inside expressions
are replaced by statements that run the calls first, one resume point
(Await) each, their values in temporaries, then what remains.  C's
evaluation rules are kept (evaluation.py says which operands run):
&&, || and ?: run an operand only when C would, the comma operator is
sequenced, and an operand left of an async call is saved first (ripper
goes left to right where C leaves the order open).  A loop whose
condition waits becomes for (;;) with the condition inside; a statement
expression that waits is opened into statements.  Nothing is printed
here and nothing given is changed: the result is a new body that shares
every subtree that did not change (tree.rebuild), which liveness.py and
printer.py read.

    x = g(a) + f(b) * 2;          with f async, g not:
    ->  t1 = g(a);  Await(f(b) -> t2);  x = t1 + t2 * 2;

    while (recv(c, &v)) use(v);
    ->  for (;;) { Await(recv(c, &v) -> t1); if (!t1) break; use(v); }
"""

import re

from . import abi, tree as T
from .analysis import is_async_call
from .evaluation import callee_name, evaluated, walk_evaluated

# Nodes that yield a constant: never worth a temporary.
CONSTANT = (T.Literal, T.FuncName, T.SizeOf)
SIDE_EFFECT_OPS = ("++", "--", "post++", "post--")


class Normalized:
    """An async function after normalize(): its body as a new tree that
    shares every statement and expression that did not change."""

    def __init__(self, function):
        self.function = function    # the tree.Function
        self.body = function.body   # the normalized body (a Compound)
        self.temps = []             # tree.Temp, in order
        self.awaits = []            # every Await, numbered in order (point = index + 1)
        self.labels = 0             # continue labels made (abi.continue_label)


def normalize(f, async_names, functions, error, text=b""):
    """Normalized form of async function `f`.  error(node, message, hint)
    makes the Diagnostic for what cannot be ripped; `text`: the
    preprocessed bytes its nodes' offsets point into."""
    n = _Normalizer(f, async_names, functions, error, text)
    n.out.body = n.stmt(f.body)
    return n.out


def _rebuilt(node, pairs):
    """`node` with each (child, new child) of `pairs` in place."""
    return T.rebuild(node, {id(old): new for old, new in pairs
                            if old is not None and new is not old})


class _Normalizer:
    def __init__(self, f, async_names, functions, error, text=b""):
        self.out = Normalized(f)
        self.f = f
        self.text = text
        self.async_names = async_names
        self.functions = functions
        self.error = error
        self.memo = {}

    # -- queries ------------------------------------------------------------

    def is_async(self, node):
        return isinstance(node, T.Call) and is_async_call(node, self.async_names)

    def has_async(self, node):
        """Does C evaluate an async call inside `node`?"""
        key = id(node)
        if key not in self.memo:
            self.memo[key] = any(self.is_async(n) for n in walk_evaluated(node))
        return self.memo[key]

    def has_side_effects(self, node):
        for n in walk_evaluated(node):
            if isinstance(n, (T.Call, T.Assign, T.StmtExpr, T.Opaque)) or \
                    (isinstance(n, T.Unary) and n.op in SIDE_EFFECT_OPS):
                return True
        return False

    def direct_call(self, node):
        """An async call whose callee and arguments do not wait."""
        return self.is_async(node) and not any(self.has_async(a) for a in node.args) and \
            not self.has_async(node.callee)

    # -- statements -----------------------------------------------------------

    def stmt(self, s):
        """Statement `s` normalized: itself, when nothing in it waits."""
        if isinstance(s, T.Compound):
            return _rebuilt(s, [(item, self.stmt(item)) for item in s.items])
        if isinstance(s, T.ExprStmt):
            if self.has_async(s.expr):
                return self.wrap(s, self.effect(s.expr))
            return s
        if isinstance(s, T.DeclStmt):
            return self.declaration(s)
        if isinstance(s, T.Return):
            return self.ret(s)
        if isinstance(s, T.If):
            pre, cond = self.header(s.cond)
            then = self.stmt(s.then)
            else_ = self.stmt(s.else_) if s.else_ is not None else None
            return self.headed(s, pre, [(s.cond, cond), (s.then, then), (s.else_, else_)])
        if isinstance(s, T.Switch):
            pre, cond = self.header(s.cond)
            return self.headed(s, pre, [(s.cond, cond), (s.body, self.stmt(s.body))])
        if isinstance(s, T.While):
            return self.while_loop(s)
        if isinstance(s, T.Do):
            return self.do_loop(s)
        if isinstance(s, T.For):
            return self.for_loop(s)
        if isinstance(s, T.Attributed):
            return _rebuilt(s, [(s.body, self.stmt(s.body))])
        if isinstance(s, (T.Case, T.Default, T.Label)):
            if isinstance(s, T.Case) and self.has_async(s.value):
                raise self.error(s.value, "async call in a case label")
            return _rebuilt(s, [(s.body, self.stmt(s.body))])
        if isinstance(s, T.Asm):
            if any(self.has_async(x) for x in s.operands):
                raise self.error(s, "async call in an asm operand",
                                 hint="call it before, into a variable")
        elif isinstance(s, T.IndirectGoto):
            raise self.error(s, "computed goto in an async function")
        return s

    def wrap(self, stmt, stmts):
        """Statements in place of `stmt`: braced unless they stand in a
        compound statement."""
        if isinstance(stmt.parent, T.Compound):
            return T.Seq(stmts)
        return T.Block(stmts)

    def effect(self, expr):
        """Statements that evaluate `expr` for its effects."""
        call = T.strip_parens(expr)
        if self.direct_call(call):
            return [self.await_(call, None)]
        if isinstance(expr, T.Assign) and expr.op == "=":
            rhs = T.strip_parens(expr.rhs)
            lhs = T.strip_parens(expr.lhs)
            if isinstance(lhs, T.Ref) and lhs.what == "var" and self.direct_call(rhs):
                return [self.await_(rhs, expr.lhs)]          # x = f(args);
        pre, value = self.lower(expr)
        if isinstance(value, T.NoValue):
            return pre
        top = T.strip_parens(value)
        if isinstance(top, (T.Assign, T.Call, T.Await)) or \
                (isinstance(top, T.Unary) and top.op in SIDE_EFFECT_OPS):
            pre.append(T.Eval(value))
        else:                               # its value is not used: say so, as C lets one
            pre.append(T.Eval(T.Discard(value)))
        return pre

    def header(self, cond):
        """if / switch: (the statements its condition's calls make, the
        condition left)."""
        if not self.has_async(cond):
            return [], cond
        return self.lower(cond)

    def headed(self, stmt, pre, pairs):
        """`stmt` rebuilt with `pairs`, after the statements `pre`."""
        new = _rebuilt(stmt, pairs)
        return self.wrap(stmt, pre + [new]) if pre else new

    def while_loop(self, s):
        body = self.stmt(s.body)
        self.no_jumps_in(s.cond)
        if not self.has_async(s.cond):
            return _rebuilt(s, [(s.body, body)])
        pre, value = self.lower(s.cond)
        return T.Loop(pre + [_unless(value, [T.BreakS()]), body])

    def do_loop(self, s):
        body = self.stmt(s.body)
        self.no_jumps_in(s.cond)
        if not self.has_async(s.cond):
            return _rebuilt(s, [(s.body, body)])
        label, body = self.continue_label(body)
        pre, value = self.lower(s.cond)
        return T.Loop([body] + ([T.LabelS(label)] if label else []) + pre +
                      [_unless(value, [T.BreakS()])])

    def for_loop(self, s):
        body = self.stmt(s.body)
        waits = [x is not None and self.has_async(x) for x in (s.cond, s.step)]
        init_waits = isinstance(s.init, T.DeclStmt) and any(
            d.init is not None and self.has_async(d.init) for d in s.init.decls
            if isinstance(d, T.VarDecl)) or \
            (isinstance(s.init, T.ExprStmt) and self.has_async(s.init.expr))
        for part in (s.cond, s.step):
            if part is not None:
                self.no_jumps_in(part)
        if not any(waits) and not init_waits:
            init = self.stmt(s.init) if s.init is not None else None
            return _rebuilt(s, [(s.init, init), (s.body, body)])
        head = self.init_statements(s.init) if s.init is not None else []
        if not any(waits):      # only the init waits: run it before an ordinary loop
            return T.Block(head + [_rebuilt(s, [(s.init, T.Null()), (s.body, body)])])
        items = []
        if s.cond is not None:
            pre, value = self.lower(s.cond)
            items += pre + [_unless(value, [T.BreakS()])]
        label, body = self.continue_label(body)
        items.append(body)
        if label:
            items.append(T.LabelS(label))
        if s.step is not None:
            items += self.effect(s.step)
        return T.Block(head + [T.Loop(items)])

    def init_statements(self, init):
        """A for statement's init clause as statements run before the loop."""
        if isinstance(init, T.DeclStmt):
            return [self.declaration(init, force=True)]
        if self.has_async(init.expr):
            return self.effect(init.expr)
        return [T.Eval(init.expr)]

    def no_jumps_in(self, expr):
        """break or continue inside a statement expression in a loop's
        header: gcc and clang disagree on the loop it leaves, so ripper
        cannot know which the compiler will take."""
        for n in expr.walk():
            if isinstance(n, (T.Break, T.Continue)) and not _inside_loop(n, expr):
                raise self.error(n, "%s inside a statement expression in a loop condition"
                                 % ("break" if isinstance(n, T.Break) else "continue"),
                                 hint="compilers disagree on the loop it leaves: move it "
                                 "into the loop's body")

    def continue_label(self, body):
        """(label, body): every `continue` of the loop whose normalized body
        is `body` made a goto to a new label; (None, body) when nothing
        continues."""
        if not any(True for _ in _own_continues(body)):
            return None, body
        self.out.labels += 1
        label = abi.continue_label(self.out.labels)
        return label, _relabel(body, label)

    def ret(self, s):
        if s.value is None:
            return T.ReturnS(None)
        value = T.strip_parens(s.value)
        if self.direct_call(value):
            if self.f.result is None or self.f.result.void:
                return T.Block([self.await_(value, None), T.ReturnS(None)])
            t = self.temp(value.type, value)
            return T.Block([self.await_(value, T.TempRef(t)), T.ReturnS(T.TempRef(t))])
        if not self.has_async(s.value):
            return T.ReturnS(s.value)
        pre, v = self.lower(s.value)
        return T.Block(pre + [T.ReturnS(v)])

    def declaration(self, s, force=False):
        """A declaration whose initializers wait: each declarator in turn,
        its initializer's calls first.  A declarator whose initializer
        names the variable itself (`struct node *p = alloc(sizeof *p)`) is
        declared first, then assigned."""
        waits = [d for d in s.decls if isinstance(d, T.VarDecl) and d.init is not None
                 and self.has_async(d.init)]
        if not waits and not force:
            return s
        items = []
        for d in s.decls:
            if not T.automatic(d):
                if isinstance(d, T.VarDecl) and d.init is not None and self.has_async(d.init):
                    raise self.error(d, "async call in the initializer of static '%s'" % d.name)
                items.append(T.Declare(None, d))
                continue
            if d.init is None or not self.has_async(d.init):
                items.append(T.Declare(d.init, d))
                continue
            if d.ctype is not None and d.ctype.vm:
                raise self.error(d, "async call in the initializer of variably modified "
                                 "'%s'" % d.name)
            self_named = any(isinstance(n, T.Ref) and n.key == d.key for n in d.init.walk())
            value = T.strip_parens(d.init)
            if self_named:
                if d.ctype is not None and d.ctype.const:
                    raise self.error(d, "const '%s' initialized by an async call that names it"
                                     % d.name, hint="drop the const, or declare it apart")
                items.append(T.Declare(None, d))
                target = T.Ref(d.name, d.key, "var", type=d.ctype)
                if self.direct_call(value) and not d.ctype.array:
                    items.append(self.await_(value, target, d.ctype))
                else:
                    pre, v = self.lower(d.init)
                    items += pre + [T.Store(target, v, d.ctype)]
                continue
            splittable = d.ctype is not None and d.ctype.assignable and \
                not d.ctype.const and not d.ctype.array and not d.ctype.local
            target = T.Ref(d.name, d.key, "var", type=d.ctype)
            if self.direct_call(value) and splittable:
                # T x = f(args): declared, then the call stores straight into it
                items += [T.Declare(None, d), self.await_(value, target)]
                continue
            pre, v = self.lower(d.init)
            if splittable:
                # T x = (T)f(args): declared before the calls, stored after
                # them (C89 and -Wdeclaration-after-statement: no statement
                # ahead of a declaration the user wrote first)
                items += [T.Declare(None, d)] + pre + [T.Store(target, v, d.ctype)]
            else:
                items += pre + [T.Declare(v, d)]
        return T.Declaration(_declarations_first(items, self.text), s)

    # -- expressions ----------------------------------------------------------

    def temp(self, ctype, node=None):
        if ctype is None or ctype.void:
            raise self.error(node, "cannot keep the value of this expression across a "
                             "suspension (no type)")
        if ctype.local:
            raise self.error(node, "the value of this expression has a type declared inside "
                             "the function, and must be kept across a suspension",
                             hint="declare the type at file scope")
        return self.new_temp(ctype)

    def int_temp(self):
        return self.new_temp(None, "int")

    def new_temp(self, ctype, spelling=None):
        """A new temporary of type `ctype` (or one `spelling` spells)."""
        t = T.Temp(abi.temporary(len(self.out.temps) + 1), ctype, spelling)
        self.out.temps.append(t)
        return t

    def await_(self, call, target, ctype=None, callee=None, args=None):
        a = T.Await(callee if callee is not None else call.callee,
                    list(call.args) if args is None else args, target, call,
                    len(self.out.awaits) + 1, None)
        self.out.awaits.append(a)
        return a

    def lower(self, node):
        """(pre, value): statements to run first, then the expression left
        (`node` itself when nothing in it waits)."""
        if not self.has_async(node):
            return [], node
        if self.is_async(node):
            return self.async_call(node)
        if isinstance(node, T.Paren):
            pre, v = self.lower(node.inner)
            return pre, _rebuilt(node, [(node.inner, v)])
        if isinstance(node, T.Binary) and node.op in ("&&", "||"):
            return self.logical(node)
        if isinstance(node, T.Cond):
            return self.conditional(node)
        if isinstance(node, T.Binary) and node.op == ",":
            pre_a, va = self.lower(node.lhs)
            pre_b, vb = self.lower(node.rhs)
            if not isinstance(vb, T.TempRef):   # (f(), x) != x: no self-comparison for gcc
                vb = T.Binary(T.NoValue(), vb, ",")
            return pre_a + [T.Eval(T.Discard(va))] + pre_b, vb
        if isinstance(node, T.Assign):
            return self.assignment(node)
        if isinstance(node, T.Unary) and node.op in ("&", "++", "--", "post++", "post--"):
            pre = []
            v = self.lvalue(node.operand, pre)
            return pre, _rebuilt(node, [(node.operand, v)])
        if isinstance(node, T.StmtExpr):
            return self.statement_expression(node)
        if isinstance(node, T.Choose) and node.first is not None:
            return self.operands(node, evaluated(node))
        if isinstance(node, (T.Opaque, T.Choose, T.Generic)):
            call = next(n for n in walk_evaluated(node) if self.is_async(n))
            what = {T.Choose: "__builtin_choose_expr", T.Generic: "_Generic"}.get(
                type(node), node.what if isinstance(node, T.Opaque) else "")
            raise self.error(call, "async call to '%s' inside %s" % (callee_name(call) or
                                                                   "a pointer", what),
                             hint="call it before, into a variable")
        return self.operands(node, evaluated(node))

    def operands(self, node, children):
        """Any other node: its evaluated children in order, each left of an
        async call saved first; the node rebuilt around what they left."""
        pre, pairs = [], []
        lowered = [self.lower(c) for c in children]
        last = max((i for i, (p, _) in enumerate(lowered) if p), default=-1)
        for i, (child, (p, v)) in enumerate(zip(children, lowered)):
            pre += p
            if i < last and self.must_save(child, v):
                v = self.save(child, v, pre)
            pairs.append((child, v))
        return pre, _rebuilt(node, pairs)

    def must_save(self, node, value):
        if isinstance(value, T.TempRef) or isinstance(node, CONSTANT):
            return False
        inner = T.strip_parens(node)
        if isinstance(inner, T.Ref) and inner.what in ("fn", "const"):
            return False
        if isinstance(inner, (T.InitList, T.Designated)):
            return False            # a brace list is no value; its items were handled
        if isinstance(inner, T.Literal) or isinstance(inner, T.SizeOf):
            return False
        return True

    def save(self, node, value, pre):
        """Keep `value` (the value of `node`) in a new temporary."""
        t_type = node.value_type
        if t_type is None or t_type.void:
            pre.append(T.Eval(value))
            return T.NoValue()
        t = self.temp(t_type, node)
        pre.append(T.Store(T.TempRef(t), value, t_type))
        return T.TempRef(t)

    def async_call(self, call):
        children = [call.callee] + list(call.args)
        direct = callee_name(call) is not None
        lowered = [([], call.callee) if direct else self.lower(call.callee)] + \
            [self.lower(a) for a in call.args]
        last = max((i for i, (p, _) in enumerate(lowered) if p), default=-1)
        pre, values = [], []
        for i, (child, (p, v)) in enumerate(zip(children, lowered)):
            pre += p
            if i < last and not (i == 0 and direct) and self.must_save(child, v):
                v = self.save(child, v, pre)
            values.append(v)
        void = call.type is None or call.type.void
        t = None if void else self.temp(call.type, call)
        pre.append(self.await_(call, T.TempRef(t) if t else None, callee=values[0],
                               args=values[1:]))
        return pre, T.TempRef(t) if t else T.NoValue()

    def logical(self, node):
        """a && b, a || b: b runs only when C would run it."""
        pre_a, va = self.lower(node.lhs)
        pre_b, vb = self.lower(node.rhs)
        if not pre_b:
            return pre_a, _rebuilt(node, [(node.lhs, va)])
        t = self.int_temp()
        test = T.TempRef(t) if node.op == "&&" else _not(T.TempRef(t))
        return (pre_a + [T.Store(T.TempRef(t), _not(_not(va)), None),
                         T.IfS(test, pre_b + [T.Store(T.TempRef(t), _not(_not(vb)), None)],
                               [])],
                T.TempRef(t))

    def conditional(self, node):
        """c ? a : b: only the chosen arm runs (GNU c ?: b too)."""
        if node.then is None:
            return self.elvis(node)
        pre_c, vc = self.lower(node.cond)
        pre_a, va = self.lower(node.then)
        pre_b, vb = self.lower(node.else_)
        if not pre_a and not pre_b:
            return pre_c, _rebuilt(node, [(node.cond, vc)])
        if node.type is None or node.type.void:
            return (pre_c + [T.IfS(vc, pre_a + [T.Eval(T.Discard(va))],
                                   pre_b + [T.Eval(T.Discard(vb))])],
                    T.NoValue())
        t = self.temp(_arms_type(node), node)
        return (pre_c + [T.IfS(vc, pre_a + [T.Store(T.TempRef(t), va, node.type)],
                               pre_b + [T.Store(T.TempRef(t), vb, node.type)])],
                T.TempRef(t))

    def elvis(self, node):
        """GNU `c ?: b`: c once, b only when c is zero."""
        pre_c, vc = self.lower(node.cond)
        pre_b, vb = self.lower(node.else_)
        t = self.temp(node.type, node)
        return (pre_c + [T.Store(T.TempRef(t), vc, node.type),
                         _unless(T.TempRef(t), pre_b + [T.Store(T.TempRef(t), vb, node.type)])],
                T.TempRef(t))

    def assignment(self, node):
        pre = []
        pre_r, vr = self.lower(node.rhs)
        vl = node.lhs
        if self.has_async(node.lhs) or (pre_r and self.has_side_effects(node.lhs)):
            vl = self.lvalue(node.lhs, pre)
        pre += pre_r
        return pre, _rebuilt(node, [(node.lhs, vl), (node.rhs, vr)])

    def lvalue(self, node, pre):
        """Evaluate lvalue `node` now (it waits, or has side effects a later
        call must not reorder): its place in a temporary, an lvalue
        expression naming it returned.  A member is reached through its
        struct's place, so bit-fields work."""
        inner = T.strip_parens(node)
        if isinstance(inner, T.Member):
            if inner.arrow:
                p, v = self.lower(inner.base)
                pre += p
                t = self.pointer_temp(inner.base, v, pre)
                return T.Member(T.TempRef(t), inner.name, True)
            return T.Member(self.lvalue(inner.base, pre), inner.name, False)
        if isinstance(inner, T.Unary) and inner.op == "*":
            p, v = self.lower(inner.operand)
            pre += p
            t = self.pointer_temp(inner.operand, v, pre)
            return T.Unary(T.TempRef(t), "*")
        p, v = self.lower(node)
        pre += p
        if node.type is None:
            raise self.error(node, "cannot take the address of this operand")
        if node.type.local:
            raise self.error(node, "an lvalue of a type declared inside the function must be "
                             "kept across a suspension", hint="declare the type at file scope")
        t = self.new_temp(None, "__typeof__(%s) *" % node.type.spelling)
        pre.append(T.Store(T.TempRef(t), T.Unary(v, "&"), None))
        return T.Unary(T.TempRef(t), "*")

    def pointer_temp(self, node, value, pre):
        t_type = node.value_type
        if t_type is None or t_type.local:
            raise self.error(node, "a pointer of a type declared inside the function must be "
                             "kept across a suspension", hint="declare the type at file scope")
        t = self.temp(t_type, node)
        pre.append(T.Store(T.TempRef(t), value, t_type))
        return t

    def statement_expression(self, node):
        """({ s1; s2; e; }) that waits: its statements in a block before
        the full expression, its value in a temporary."""
        items = node.body.items
        last = items[-1] if items else None
        stmts = [self.stmt(item) for item in items[:-1]]
        void = node.type is None or node.type.void
        if isinstance(last, T.ExprStmt) and not void:
            pre, v = self.lower(last.expr)
            t = self.temp(node.type, node)
            stmts += pre + [T.Store(T.TempRef(t), v, node.type)]
            return [T.Block(stmts)], T.TempRef(t)
        if last is not None:
            stmts.append(self.stmt(last))
        return [T.Block(stmts)], T.NoValue()


def _not(value):
    return T.Unary(value, "!")



def _declarations_first(items, text):
    """A Declaration's items with each declarator that has no initializer
    moved up to the declarations before the first statement, where the
    user's own declaration stood (C89: `int a = (int)f(), b = (int)g();`
    is declare a, declare b, then the calls and stores).  One stays where
    it is behind a declarator that has to (an initializer after the
    calls), or when a statement it would move above names anything of its
    name: another variable (`int b = (int)f(y), y = (int)g();`: f's y is
    the outer one) or a typedef (`long a = (long)f(sizeof(T)), T;`), which
    the source's words of those statements (`text`) tell."""
    head, rest, words = [], [], None
    for item in items:
        movable = isinstance(item, T.Declare) and not rest
        if not movable and isinstance(item, T.Declare) and item.init is None and \
                not any(isinstance(r, T.Declare) for r in rest):
            if words is None:
                words = _words(rest, text)
            movable = getattr(item.var, "name", None) not in words
        (head if movable else rest).append(item)
    return head + rest


def _words(stmts, text):
    """The identifiers statements `stmts` print: the names of their
    references and every word of the source text they copy (a typedef's
    name in a cast or sizeof is no reference).

        _words([Store(a, Cast((T)f()))], b"(T)f()") == {"a", "T", "f"}"""
    words, stack = set(), list(stmts)
    while stack:
        node = stack.pop()
        if isinstance(node, T.Ref):
            words.add(node.name)
        if node.start >= 0 and node.end > node.start:
            words.update(w.decode("latin-1") for w in _WORD.findall(text[node.start:node.end]))
            continue        # the text holds its children's words
        stack.extend(node.children())
    return words


_WORD = re.compile(rb"[A-Za-z_][A-Za-z_0-9]*")


def _unless(value, stmts):
    """if (!value) { stmts }"""
    return T.IfS(_not(value), stmts, [])


def _arms_type(cond):
    """The type of a ?: for its temporary: its arms' when both have the same
    (an enum, a char: C promotes them, gcc's warnings know better), else
    C's."""
    a, b = cond.then, cond.else_
    if a is not None and a.type is not None and b.type is not None and \
            a.type.spelling == b.type.spelling and not a.type.array:
        return a.type
    return cond.type


def _own_continues(node):
    """Continue statements in `node` that belong to the loop around it
    (a normalized loop body: loops inside it are loops, written or made)."""
    for child in node.children():
        if isinstance(child, T.Continue):
            yield child
        elif not isinstance(child, T.LOOPS + (T.Loop,)):
            yield from _own_continues(child)


def _relabel(node, label):
    """`node` with the continues of the loop around it made `goto label`."""
    changes = {}
    for child in node.children():
        if isinstance(child, T.Continue):
            changes[id(child)] = T.GotoS(label)
        elif not isinstance(child, T.LOOPS + (T.Loop,)):
            new = _relabel(child, label)
            if new is not child:
                changes[id(child)] = new
    return T.rebuild(node, changes)


def _inside_loop(node, root):
    """Is `node` inside a loop or switch that is itself inside `root`?"""
    p = node.parent
    while p is not None and p is not root:
        if isinstance(p, T.LOOPS + (T.Switch,)):
            return True
        p = p.parent
    return False


"""cfg.py -- the control-flow graph of a normalized async function.

One graph per async function, over its statements after normalize.py
(every async call an Await step of its own), with every edge C has:
if/else, loops, switch and its cases, goto and labels, break, continue,
return, and the jumps out of GNU statement expressions (goto, break,
continue or return inside `({ ... })`, which leave in the middle of an
expression) and asm goto's labels.  A step is a statement or expression
evaluated as a whole: it reads `uses`, surely writes `kills` (when it
completes normally), and goes on to `succs`, or leaves early by `exits`
(a jump out of a statement expression: no kill has happened for sure).
An Await step suspends between reading its arguments and storing its
result.

    while (n < 3) { Await(f(n)); n++; }

is  [n < 3] -> [Await f(n)] -> [n++] -> [n < 3] ... -> exit
"""

from . import tree as T
from .evaluation import callee_name, walk_marked

VA_WRITES = ("__builtin_va_start", "__builtin_va_copy")     # write their first argument


class Step:
    __slots__ = ("uses", "kills", "succs", "exits", "await_", "uses_after", "node")

    def __init__(self, node=None, uses=(), kills=(), await_=None, uses_after=()):
        self.node = node                # the statement or expression it stands for
        self.uses = set(uses)           # variables read (before a suspension, for an Await)
        self.kills = set(kills)         # variables surely written when it completes
        self.succs = []                 # steps that follow when it completes
        self.exits = []                 # steps reached by leaving it early
        self.await_ = await_            # the Await, if it suspends
        self.uses_after = set(uses_after)   # an Await: variables read after it resumes


class CFG:
    """The graph: steps[0] is the exit; `entry` the first step."""

    def __init__(self, body, locals_):
        self.locals = locals_           # keys of the variables the graph tracks
        self.steps = [Step()]
        self.labels = {}                # label name -> step
        self.gotos = []                 # (step, label name)
        self.escaping = set()           # variables whose address may be kept anywhere
        # expressions jump only out of statement expressions: most bodies have
        # none (and only the source has them: normalize.py makes none)
        self.stmt_exprs = any(isinstance(n, T.StmtExpr) for n in body.nodes())
        self.entry = self.build(body, 0, None, None, None)
        for s, label in self.gotos:
            target = self.labels.get(label)
            self.steps[s].succs = [target] if target is not None else \
                list(range(len(self.steps)))

    # -- steps --------------------------------------------------------------

    def step(self, succs=(), **kw):
        s = Step(**kw)
        s.succs = list(succs)
        self.steps.append(s)
        return len(self.steps) - 1

    def reads(self, node):
        """Variables an expression reads (what C evaluates), noting the
        ones whose address it takes."""
        uses = set()
        if node is None:
            return uses
        written = set()             # x of `x = ...`: written, not read
        for n, runs in walk_marked(node):
            if isinstance(n, T.Unary) and n.op == "&":
                root = _root(n.operand)     # sizeof(&x) reads nothing, but takes an address
                if _key(root) in self.locals:
                    self.escaping.add(_key(root))
            if not runs:
                continue
            if isinstance(n, T.Assign) and n.op == "=":
                written.add(id(T.strip_parens(n.lhs)))
            if isinstance(n, T.Call) and callee_name(n) in VA_WRITES and n.args:
                written.add(id(T.strip_parens(n.args[0])))   # va_start(ap, x) writes ap
            key = _key(n)
            if key in self.locals and id(n) not in written:
                uses.add(key)
            if isinstance(n, T.Opaque) and n.what == "__builtin_va_arg" and n.parts and \
                    _key(T.strip_parens(n.parts[0])) in self.locals:
                uses.add(_key(T.strip_parens(n.parts[0])))    # reads (and moves) ap
                continue
            if isinstance(n, (T.Opaque, T.Asm)):
                for m in n.walk():
                    if _key(m) in self.locals:
                        self.escaping.add(_key(m))
        return uses

    def expression(self, node, succ, brk, cont, kills=()):
        """A step for expression `node` (with the jumps out of its statement
        expressions), going on to `succ`."""
        s = self.step([succ], node=node, uses=self.reads(node), kills=kills)
        for jump in _jumps_out(node) if self.stmt_exprs else ():
            if isinstance(jump, T.Goto):
                self.gotos.append((self.step([], node=jump), jump.label))
                self.steps[s].exits.append(len(self.steps) - 1)
            elif isinstance(jump, T.Break):
                self.steps[s].exits.append(brk if brk is not None else 0)
            elif isinstance(jump, T.Continue):
                self.steps[s].exits.append(cont if cont is not None else 0)
            elif isinstance(jump, T.Return):
                self.steps[s].exits.append(0)
            elif isinstance(jump, T.Asm):
                for label in jump.labels:
                    self.gotos.append((self.step([], node=jump), label))
                    self.steps[s].exits.append(len(self.steps) - 1)
        return s

    def assignment_kills(self, node):
        """`x = ...` with a plain variable on the left surely writes x, and
        so do va_start(x, ...) and va_copy(x, ...)."""
        node = T.strip_parens(node)
        if isinstance(node, T.Call) and callee_name(node) in VA_WRITES and node.args:
            key = _key(T.strip_parens(node.args[0]))
            return {key} if key in self.locals else set()
        if isinstance(node, T.Assign) and node.op == "=":
            key = _key(T.strip_parens(node.lhs))
            if key in self.locals:
                return {key}
        return set()

    # -- statements ---------------------------------------------------------

    def build(self, node, succ, brk, cont, cases):
        """The first step of statement `node`, which goes on to `succ`."""
        if isinstance(node, (T.Compound, T.Seq, T.Block, T.Declaration)):
            items = node.items if isinstance(node, T.Compound) else node.stmts
            for item in reversed(items):
                succ = self.build(item, succ, brk, cont, cases)
            return succ
        if isinstance(node, list):
            for item in reversed(node):
                succ = self.build(item, succ, brk, cont, cases)
            return succ
        if isinstance(node, T.ExprStmt):
            return self.expression(node.expr, succ, brk, cont,
                                   self.assignment_kills(node.expr))
        if isinstance(node, T.Eval):
            return self.expression(node.expr, succ, brk, cont, self.assignment_kills(node.expr))
        if isinstance(node, T.DeclStmt):
            for d in reversed(node.decls):
                succ = self.build(d, succ, brk, cont, cases)
            return succ
        if isinstance(node, T.VarDecl):
            if node.init is None and not node.type_exprs:
                return succ
            kills = {node.key} if node.init is not None and node.key in self.locals else ()
            return self.expression(node, succ, brk, cont, kills)
        if isinstance(node, (T.TypeDecl, T.FuncDecl, T.StaticAssert, T.ParamDecl)):
            return succ
        if isinstance(node, T.Declare):
            var = node.var
            if not T.automatic(var):        # a static, a type...: as declared
                return self.build(var, succ, brk, cont, cases)
            kills = {var.key} if node.init is not None and var.key in self.locals else ()
            if node.init is None:
                return succ
            return self.expression(node.init, succ, brk, cont, kills)
        if isinstance(node, T.Store):
            kills = set()
            target = T.strip_parens(node.target)
            if _key(target) in self.locals:
                kills = {_key(target)}
                s = self.expression(node.value, succ, brk, cont, kills)
            else:
                s = self.expression(T.Assign(node.target, node.value, "="), succ, brk, cont)
            return s
        if isinstance(node, T.Await):
            return self.await_step(node, succ)
        if isinstance(node, (T.Return, T.ReturnS)):
            return self.expression(node.value, 0, brk, cont) if node.value is not None \
                else self.step([0], node=node)
        if isinstance(node, T.If):
            cond = self.expression(node.cond, succ, brk, cont)
            branches = [self.build(node.then, succ, brk, cont, cases),
                        self.build(node.else_, succ, brk, cont, cases)
                        if node.else_ is not None else succ]
            self.steps[cond].succs = branches
            return cond
        if isinstance(node, T.IfS):
            cond = self.expression(node.cond, succ, brk, cont)
            self.steps[cond].succs = [self.build(node.then, succ, brk, cont, cases),
                                      self.build(node.else_, succ, brk, cont, cases)]
            return cond
        if isinstance(node, T.While):
            cond = self.expression(node.cond, succ, brk, cont)
            body = self.build(node.body, cond, succ, cond, cases)
            self.steps[cond].succs = [body, succ]
            return cond
        if isinstance(node, T.Do):
            cond = self.expression(node.cond, succ, brk, cont)
            body = self.build(node.body, cond, succ, cond, cases)
            self.steps[cond].succs = [body, succ]
            return body
        if isinstance(node, T.For):
            return self.for_loop(node, succ, cases)
        if isinstance(node, T.Loop):
            head = self.step([], node=node)
            body = self.build(node.body, head, succ, head, cases)
            self.steps[head].succs = [body]
            return head
        if isinstance(node, T.Switch):
            cond = self.expression(node.cond, succ, brk, cont)
            targets = []
            self.build(node.body, succ, succ, cont, targets)
            has_default = any(default for _, default in targets)
            self.steps[cond].succs = [t for t, _ in targets] + ([] if has_default else [succ])
            return cond
        if isinstance(node, (T.Case, T.Default)):
            entry = self.build(node.body, succ, brk, cont, cases)
            if cases is not None:
                cases.append((entry, isinstance(node, T.Default)))
            return entry
        if isinstance(node, T.Label):
            entry = self.step([self.build(node.body, succ, brk, cont, cases)], node=node)
            self.labels[node.name] = entry
            return entry
        if isinstance(node, T.LabelS):
            entry = self.step([succ], node=node)
            self.labels[node.name] = entry
            return entry
        if isinstance(node, (T.Goto, T.GotoS)):
            s = self.step([], node=node)
            self.gotos.append((s, node.label))
            return s
        if isinstance(node, (T.Break, T.BreakS)):
            return self.step([brk if brk is not None else succ], node=node)
        if isinstance(node, T.Continue):
            return self.step([cont if cont is not None else succ], node=node)
        if isinstance(node, T.Null):
            return succ
        if isinstance(node, T.Attributed):
            return self.build(node.body, succ, brk, cont, cases)
        if isinstance(node, T.Asm):
            s = self.expression(node, succ, brk, cont)
            for label in node.labels:
                g = self.step([], node=node)
                self.gotos.append((g, label))
                self.steps[s].exits.append(g)
            return s
        if isinstance(node, T.IndirectGoto):
            s = self.expression(node.target, 0, brk, cont)
            self.steps[s].succs = list(range(len(self.steps)))
            return s
        return self.expression(node, succ, brk, cont)

    def await_step(self, node, succ):
        uses = set()
        for x in [node.callee] + list(node.args):
            uses |= self.reads(x)
        kills, after = set(), set()
        if node.target is not None:
            target = T.strip_parens(node.target)
            key = _key(target)
            if key in self.locals:
                kills = {key}
            else:
                after = self.reads(node.target)
        return self.step([succ], node=node, uses=uses, kills=kills, await_=node,
                         uses_after=after)

    def for_loop(self, node, succ, cases):
        head = self.expression(node.cond, succ, None, None) if node.cond is not None \
            else self.step([], node=node)
        step = self.expression(node.step, head, succ, head,
                               self.assignment_kills(node.step)) \
            if node.step is not None else head
        body = self.build(node.body, step, succ, step, cases)
        self.steps[head].succs = [body] + ([succ] if node.cond is not None else [])
        if node.init is None:
            return head
        return self.build(node.init, head, succ, head, cases)


def _key(node):
    if isinstance(node, T.Ref) and node.what == "var":
        return node.key
    if isinstance(node, T.TempRef):
        return node.temp.key
    return None


def _root(node):
    """The variable an lvalue is part of: `a` of `a.b[2]`, or None."""
    node = T.strip_parens(node)
    while isinstance(node, (T.Member, T.Index)) and not getattr(node, "arrow", False):
        node = T.strip_parens(node.base)
    return node


def _jumps_out(node):
    """Goto, break, continue, return and asm goto inside the statement
    expressions of expression `node` that leave it."""
    out = []

    def visit(n, loops, switches):
        if isinstance(n, (T.Goto, T.Return, T.Asm)):
            if not isinstance(n, T.Asm) or n.labels:
                out.append(n)
        elif isinstance(n, T.Break) and loops + switches == 0:
            out.append(n)
        elif isinstance(n, T.Continue) and loops == 0:
            out.append(n)
        loops += isinstance(n, T.LOOPS)
        switches += isinstance(n, T.Switch)
        for child in n.children():
            visit(child, loops, switches)
    if node is not None and any(isinstance(n, T.StmtExpr) for n in node.walk()):
        visit(node, 0, 0)
    return out


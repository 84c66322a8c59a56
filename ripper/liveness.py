"""liveness.py -- which locals of an async function must live in its frame.

A local needs the frame only if its value may be read after some
suspension point without being written first (it is live across the
suspension), or if its address may escape (`&x`, an array).  Parameters
live in the frame (the constructor stores them there), except those the
body never reads (only `(void)arg;`: lower.py leaves them out).  Everything
else stays a plain C local of the resume function, declared where the user
declared it.

    RIP_ASYNC int sum(int n) {          frame: n (a parameter), total (read
        int total = 0, i, tmp;             after the suspension)
        for (i = 0; i < n; i++) {       i is live across it too: frame.
            tmp = i * i;                tmp: written and read between two
            total += tmp;                  suspensions: a C local.
            rip_yield();
        }
        return total;
    }

The analysis is a backward dataflow over a control-flow graph of the
function's statements (loops, switch, break, continue, goto, return).  A
statement is one step; one with a suspension inside is treated
conservatively: every variable it reads may be read after the suspension,
and only `x = f(...)` / `T x = f(...)` with a plain name on the left writes
after it.
"""

from .analysis import UNEVALUATED, evaluated_calls


class _Step:
    __slots__ = ("uses", "kills", "suspends", "uses_after", "succs")

    def __init__(self, uses=(), kills=(), suspends=False, uses_after=None):
        self.uses = set(uses)           # variables read
        self.kills = set(kills)         # variables surely written (after the reads)
        self.suspends = suspends        # holds a suspension point
        self.uses_after = set(uses if uses_after is None else uses_after)  # read after it
        self.succs = []                 # indices of the steps that may follow


def frame_variables(body, candidates, is_suspension):
    """Keys of the variables among `candidates` ({key: type}) that must
    live in the frame.  is_suspension(node) says if a CALL_EXPR suspends."""
    cfg = _Builder(candidates, is_suspension)
    cfg.build(body, cfg.exit)
    cfg.resolve_gotos()
    live_in = _solve(cfg.steps)
    needed = set(cfg.escaping)
    for step in cfg.steps:
        if step.suspends:
            out = set().union(*(live_in[s] for s in step.succs))
            needed |= step.uses_after | (out - step.kills)
    return needed & set(candidates)


def _solve(steps):
    live_in = [set() for _ in steps]
    changed = True
    while changed:
        changed = False
        for i in reversed(range(len(steps))):
            s = steps[i]
            out = set()
            for j in s.succs:
                out |= live_in[j]
            new = s.uses | (out - s.kills)
            if new != live_in[i]:
                live_in[i] = new
                changed = True
    return live_in


def _holds_array(t, depth=0):
    """Is `t` an array, or a struct or union with an array inside?"""
    if t.canonical_kind in ("CONSTANTARRAY", "INCOMPLETEARRAY", "VARIABLEARRAY"):
        return True
    if t.canonical_kind == "RECORD" and t.members and depth < 10:
        return any(m is not None and _holds_array(m, depth + 1) for _, m in t.members)
    return False


def _unwrap(node):
    while node.kind in ("UNEXPOSED_EXPR", "PAREN_EXPR") and len(node.children) == 1:
        node = node.children[0]
    return node


class _Builder:
    def __init__(self, candidates, is_suspension):
        self.candidates = candidates
        self.is_suspension = is_suspension
        self.steps = [_Step()]          # steps[0]: the exit
        self.exit = 0
        self.labels = {}                # label name -> step index
        self.gotos = []                 # (step index, label name)
        self.escaping = set()           # address taken or arrays: always in the frame
        for key, t in candidates.items():
            # Arrays decay to pointers, and so do arrays inside structs (`p = m.text`):
            # both keep their place in the frame.
            if t is None or _holds_array(t):
                self.escaping.add(key)

    def step(self, succs, **kw):
        s = _Step(**kw)
        s.succs = list(succs)
        self.steps.append(s)
        return len(self.steps) - 1

    # -- what an expression reads, writes and whether it suspends -------------

    def scan(self, node):
        """(reads, suspends) of an expression; records escaping addresses."""
        uses = set()
        stack = [node]
        while stack:
            n = stack.pop()
            if n.kind == "CXX_UNARY_EXPR" and n.op in UNEVALUATED:
                continue
            if n.kind == "DECL_REF_EXPR" and n.ref in self.candidates:
                uses.add(n.ref)
            if n.kind == "UNARY_OPERATOR" and n.op == "&":
                root = _unwrap(n.children[0]) if n.children else None
                while root is not None and root.kind in ("MEMBER_REF_EXPR", "ARRAY_SUBSCRIPT_EXPR") \
                        and root.children:
                    root = _unwrap(root.children[0])
                if root is not None and root.kind == "DECL_REF_EXPR" and root.ref in self.candidates:
                    self.escaping.add(root.ref)
            stack.extend(n.children)
        return uses, self.suspends(node)

    def suspends(self, node):
        """Does C evaluate a suspending call in `node`?  (As the lowering sees it.)"""
        return any(self.is_suspension(c) for c in evaluated_calls(node))

    def lone_call(self, node):
        """Is `node` a suspending call whose arguments do not suspend?  Its
        arguments are then read before the suspension, not after."""
        node = _unwrap(node)
        return node.kind == "CALL_EXPR" and self.is_suspension(node) and \
            not any(self.suspends(a) for a in node.children[1:])

    def expression_step(self, node, succ):
        uses, suspends = self.scan(node)
        kills, uses_after = set(), None
        top = _unwrap(node)
        if top.kind == "BINARY_OPERATOR" and top.op == "=":
            lhs = _unwrap(top.children[0])
            if lhs.kind == "DECL_REF_EXPR" and lhs.ref in self.candidates:
                kills.add(lhs.ref)
                rhs_uses, _ = self.scan(top.children[1])
                if lhs.ref not in rhs_uses:
                    uses = (uses - {lhs.ref}) | rhs_uses
                if self.lone_call(top.children[1]):
                    uses_after = set()          # x = f(args)
        elif self.lone_call(top):
            uses_after = set()                  # f(args);
        return self.step([succ], uses=uses, kills=kills, suspends=suspends,
                         uses_after=uses_after)

    def declaration_step(self, node, succ):
        """One step per declarator, in order: `int t = x, u = f(t);` writes t
        before the suspension in u's initializer, and t must survive it."""
        for d in reversed([d for d in node.children if d.kind == "VAR_DECL"]):
            init = d.init
            if init is None:
                continue            # nothing read, nothing surely written
            uses, suspends = self.scan(init)
            kills = {d.key} if d.key in self.candidates else set()
            succ = self.step([succ], uses=uses, kills=kills, suspends=suspends,
                             uses_after=set() if self.lone_call(init) else None)
        return succ

    # -- statements ----------------------------------------------------------

    def build(self, node, succ, brk=None, cont=None, cases=None):
        """Index of the first step of statement `node`, which goes on to `succ`."""
        k = node.kind
        if k == "COMPOUND_STMT":
            for child in reversed(node.children):
                succ = self.build(child, succ, brk, cont, cases)
            return succ
        if k == "DECL_STMT":
            return self.declaration_step(node, succ)
        if k == "RETURN_STMT":
            if not node.children:
                return self.step([self.exit])
            return self.expression_step(node.children[0], self.exit)
        if k == "IF_STMT":
            cond = self.expression_step(node.children[0], succ)
            self.steps[cond].succs = [self.build(node.children[1], succ, brk, cont, cases)]
            self.steps[cond].succs.append(
                self.build(node.children[2], succ, brk, cont, cases) if len(node.children) > 2
                else succ)
            return cond
        if k == "WHILE_STMT":
            cond = self.expression_step(node.children[0], succ)
            body = self.build(node.children[1], cond, succ, cond, cases)
            self.steps[cond].succs = [body, succ]
            return cond
        if k == "DO_STMT":
            cond = self.expression_step(node.children[-1], succ)
            body = self.build(node.children[0], cond, succ, cond, cases)
            self.steps[cond].succs = [body, succ]
            return body
        if k == "FOR_STMT":
            return self.for_loop(node, succ, cases)
        if k == "SWITCH_STMT":
            cond = self.expression_step(node.children[0], succ)
            targets = []
            self.build(node.children[1], succ, succ, cont, targets)
            has_default = any(is_default for _, is_default in targets)
            self.steps[cond].succs = [t for t, _ in targets] + ([] if has_default else [succ])
            return cond
        if k in ("CASE_STMT", "DEFAULT_STMT"):
            entry = self.build(node.children[-1], succ, brk, cont, cases)
            if cases is not None:
                cases.append((entry, k == "DEFAULT_STMT"))
            return entry
        if k == "LABEL_STMT":
            entry = self.step([self.build(node.children[0], succ, brk, cont, cases)])
            self.labels[node.name] = entry
            return entry
        if k == "GOTO_STMT":
            s = self.step([])
            target = next((c.name for c in node.children if c.kind == "LABEL_REF"), None)
            self.gotos.append((s, target))
            return s
        if k == "BREAK_STMT":
            return self.step([brk if brk is not None else succ])
        if k == "CONTINUE_STMT":
            return self.step([cont if cont is not None else succ])
        if k == "NULL_STMT":
            return succ
        return self.expression_step(node, succ)      # expressions, and anything else

    def for_loop(self, node, succ, cases):
        body = node.children[-1]
        if node.for_parts is None:      # a header made by macros: one step for all of it
            init, cond, inc = None, None, None
            header = [c for c in node.children[:-1]]
            head = self.step([])
            for part in header:
                uses, suspends = self.scan(part)
                self.steps[head].uses |= uses
                self.steps[head].uses_after |= uses
                self.steps[head].suspends |= suspends
            body_entry = self.build(body, head, succ, head, cases)
            self.steps[head].succs = [body_entry, succ]
            return head
        init, cond, inc = node.for_parts[:3]
        head = self.expression_step(cond, succ) if cond is not None else self.step([])
        inc_step = self.expression_step(inc, head) if inc is not None else head
        body_entry = self.build(body, inc_step, succ, inc_step, cases)
        self.steps[head].succs = [body_entry] + ([succ] if cond is not None else [])
        if init is None:
            return head
        if init.kind == "DECL_STMT":
            return self.declaration_step(init, head)
        return self.expression_step(init, head)

    def resolve_gotos(self):
        for s, label in self.gotos:
            target = self.labels.get(label)
            # An unknown target (a label in a macro...): assume it may go anywhere.
            self.steps[s].succs = [target] if target is not None else list(range(len(self.steps)))

"""expr.py -- async calls inside expressions become statements before them.

An expression that contains async calls is split into statements that run
first (`pre`, each async call a resume point whose result lands in a frame
temporary) and the expression that remains (`value`).  C's evaluation rules
are kept: `&&`, `||` and `?:` evaluate an operand only when C would, the
comma operator is sequenced, and where C leaves the order open operands
are evaluated left to right (an operand left of an async call is saved in a
temporary before the call).

    x = g(a) + f(b) * 2;      with f async, g not:
    pre:   rip_F->rip_t1 = g(rip_F->a);
           <call f(rip_F->b), result in rip_F->rip_t2>
    value: rip_F->x = rip_F->rip_t1 + rip_F->rip_t2 * 2

    ok = ready && recv(c, &v);
    pre:   rip_F->rip_t1 = !!(ready);
           if (rip_F->rip_t1) { <call recv(...) into rip_F->rip_t2>;
                                rip_F->rip_t1 = !!(rip_F->rip_t2); }
    value: rip_F->ok = rip_F->rip_t1
"""

from .analysis import callee_name, evaluated_calls

# Nodes whose value is their only child's (implicit casts, parentheses).
TRANSPARENT = ("UNEXPOSED_EXPR", "PAREN_EXPR")
# Nodes that yield a constant: never worth a temporary.
CONSTANT = ("INTEGER_LITERAL", "FLOATING_LITERAL", "CHARACTER_LITERAL",
            "STRING_LITERAL", "CXX_UNARY_EXPR")
SIDE_EFFECT_OPS = ("=", "++", "--", "post++", "post--")


def is_expression(node):
    return node.kind.endswith(("_EXPR", "_OPERATOR", "_LITERAL"))


def designated_value(node):
    """The value of a designated initializer (`.x = v`, `[i] = v`), or None."""
    if node.kind == "UNEXPOSED_EXPR" and node.type is not None and node.type.kind == "VOID" \
            and len(node.children) >= 2 and node.children[0].kind in (
                "MEMBER_REF", "INTEGER_LITERAL", "UNEXPOSED_EXPR", "DECL_REF_EXPR"):
        return node.children[-1]
    return None


class ExprLowering:
    """Lowers expressions of one async function.  `owner` (lower._Lowering)
    supplies: rw (the Rewriter); temp(type), temp_int(), temp_pointer(type)
    -> a new frame field; store(target, type, value) -> an assignment;
    call_code(call, values) -> the call's CallCode (begin, result, end), given
    the text of arguments already lowered;
    is_async_call(node); error(node, message, hint)."""

    def __init__(self, owner):
        self.owner = owner
        self.rw = owner.rw
        self.memo = {}              # id(node) -> has_async(node)

    # -- queries ------------------------------------------------------------

    def has_async(self, node):
        """Does C evaluate an async call inside `node`?  (Memoized.)"""
        key = id(node)
        if key not in self.memo:
            self.memo[key] = any(self.owner.is_async_call(c) for c in evaluated_calls(node))
        return self.memo[key]

    def has_side_effects(self, node):
        if node.kind in ("CALL_EXPR", "COMPOUND_ASSIGNMENT_OPERATOR", "STMT_EXPR"):
            return True
        if node.kind in ("BINARY_OPERATOR", "UNARY_OPERATOR") and node.op in SIDE_EFFECT_OPS:
            return True
        if node.kind == "CXX_UNARY_EXPR":
            return False
        return any(self.has_side_effects(c) for c in node.children)

    # -- text ---------------------------------------------------------------

    def splice(self, node, values):
        """The text of `node` with some children's text replaced by
        values[id(child)]."""
        out, pos = [], node.start
        for child in node.children:
            if id(child) not in values:
                continue
            if child.start < pos or child.end > node.end or child.in_macro:
                raise self.owner.error(child, "async call inside an expression built by a macro",
                                       hint="expand the macro by hand here")
            out.append(self.rw.text(pos, child.start))
            out.append(values[id(child)])
            pos = child.end
        out.append(self.rw.text(pos, node.end))
        return "".join(out)

    def save(self, node, value, pre):
        """Keep `value` (the value of `node`) in a new temporary; return it."""
        if node.type is None or node.type.kind == "VOID":
            pre.append("%s;" % value)
            return "(void)0"
        t = self.owner.temp(node.type)
        pre.append("%s;" % self.owner.store(t, node.type, value))
        return t

    # -- lowering -----------------------------------------------------------

    def lower(self, node):
        """(pre, value): statements to run first, then the expression left."""
        if not self.has_async(node):
            return [], self.rw.text(node.start, node.end)
        k = node.kind
        if self.owner.is_async_call(node):
            return self.async_call(node)
        if k in ("BINARY_OPERATOR",) and node.op in ("&&", "||"):
            return self.logical(node)
        if k == "CONDITIONAL_OPERATOR":
            return self.conditional(node)
        if k == "BINARY_OPERATOR" and node.op == ",":
            pre_a, va = self.lower(node.children[0])
            pre_b, vb = self.lower(node.children[1])
            if not self.is_temp(vb):    # (f(), x) != x: no self-comparison for gcc to see
                vb = "((void)0, %s)" % vb
            return pre_a + ["(void)(%s);" % va] + pre_b, vb
        if k in ("BINARY_OPERATOR", "COMPOUND_ASSIGNMENT_OPERATOR") and \
                (node.op == "=" or k == "COMPOUND_ASSIGNMENT_OPERATOR"):
            return self.assignment(node)
        if k == "UNARY_OPERATOR" and node.op in ("&", "++", "--", "post++", "post--"):
            return self.on_lvalue(node)
        if k in ("STMT_EXPR", "GENERIC_SELECTION_EXPR"):
            call = next(n for n in node.walk() if self.owner.is_async_call(n))
            raise self.owner.error(call, "async call to '%s' inside %s" % (
                callee_name(call), "a statement expression" if k == "STMT_EXPR" else "_Generic"),
                hint="call it before, into a variable")
        return self.operands(node, node.children)

    def operands(self, node, children):
        """Any other node: its operands, then the node with their values."""
        pre, values = self.in_order(children)
        return pre, self.splice(node, values)

    def in_order(self, children):
        """(pre, {id(child): value}) for operands evaluated left to right,
        each one left of an async call saved first.  A designated initializer
        (`.x = v`, `[3] = v`) keeps its designator as text; only its value
        is an operand."""
        pre, values = [], {}
        operands = [designated_value(c) or c for c in children]
        lowered = [self.lower(c) for c in operands]
        last_async = max((i for i, (p, _) in enumerate(lowered) if p), default=-1)
        for i, (child, operand, (p, v)) in enumerate(zip(children, operands, lowered)):
            pre += p
            if i < last_async and self.must_save(operand, v):
                v = self.save(operand, v, pre)
            if p or v != self.rw.text(operand.start, operand.end):
                values[id(child)] = v if operand is child else \
                    self.splice(child, {id(operand): v})
        return pre, values

    @staticmethod
    def is_temp(value):
        return value.startswith("rip_F->rip_t") and value[12:].isdigit()

    def must_save(self, node, value):
        """Must an operand evaluated before a later async call be kept in a
        temporary?  Not constants, function names, or a temporary already."""
        if self.is_temp(value):
            return False
        if not is_expression(node) or node.kind in CONSTANT or self.is_function_name(node):
            return False
        if node.kind == "INIT_LIST_EXPR":
            return False            # a brace list is no value; its elements were handled
        return True

    def is_function_name(self, node):
        while node.kind in TRANSPARENT and node.children:
            node = node.children[0]
        return node.kind == "DECL_REF_EXPR" and bool(node.ref) and node.ref.startswith("fn:")

    def async_call(self, call):
        pre, values = self.in_order(call.children[1:])
        code = self.owner.call_code(call, values)
        if code.result is None:
            pre.append(code.begin + code.end)
            return pre, "(void)0"
        t = self.owner.temp(call.type)
        pre.append("%s%s; %s" % (code.begin, self.owner.store(t, call.type, code.result),
                                 code.end))
        return pre, t

    def logical(self, node):
        """a && b, a || b: b runs only when C would run it."""
        pre_a, va = self.lower(node.children[0])
        pre_b, vb = self.lower(node.children[1])
        if not pre_b:
            return pre_a, "(%s) %s (%s)" % (va, node.op, vb)
        t = self.owner.temp_int()
        test = t if node.op == "&&" else "!" + t
        return (pre_a + ["%s = !!(%s);" % (t, va),
                         "if (%s) { %s %s = !!(%s); }" % (test, " ".join(pre_b), t, vb)], t)

    def conditional(self, node):
        """c ? a : b: only the chosen branch runs (GNU c ?: b too)."""
        if len(node.children) == 2:
            return self.elvis(node)
        cond, a, b = node.children[0], node.children[-2], node.children[-1]
        pre_c, vc = self.lower(cond)
        pre_a, va = self.lower(a)
        pre_b, vb = self.lower(b)
        if not pre_a and not pre_b:
            return pre_c, "(%s) ? (%s) : (%s)" % (vc, va, vb)
        if node.type is None or node.type.kind == "VOID":
            return (pre_c + ["if (%s) { %s (void)(%s); } else { %s (void)(%s); }"
                             % (vc, " ".join(pre_a), va, " ".join(pre_b), vb)], "(void)0")
        t = self.owner.temp(node.type)
        return (pre_c + ["if (%s) { %s %s = %s; } else { %s %s = %s; }"
                         % (vc, " ".join(pre_a), t, va, " ".join(pre_b), t, vb)], t)

    def elvis(self, node):
        """GNU `c ?: b`: c once, b only when c is zero."""
        cond, b = node.children
        pre_c, vc = self.lower(cond)
        pre_b, vb = self.lower(b)
        t = self.owner.temp(node.type)
        return (pre_c + ["%s = %s;" % (t, vc),
                         "if (!%s) { %s %s = %s; }" % (t, " ".join(pre_b), t, vb)], t)

    def lvalue_address(self, lhs, pre):
        """Evaluate lvalue `lhs` now (it has side effects or async calls):
        keep its address in a temporary and return `*temp`."""
        p, v = self.lower(lhs)
        pre += p
        if lhs.type is None:
            raise self.owner.error(lhs, "cannot take the address of this operand")
        t = self.owner.temp_pointer(lhs.type)
        pre.append("%s = &(%s);" % (t, v))
        return "(*%s)" % t

    def assignment(self, node):
        lhs, rhs = node.children[0], node.children[1]
        pre = []
        pre_r, vr = self.lower(rhs)
        if self.has_async(lhs) or (pre_r and self.has_side_effects(lhs)):
            vl = self.lvalue_address(lhs, pre)
        else:
            vl = self.rw.text(lhs.start, lhs.end)
        pre += pre_r
        return pre, self.splice(node, {id(lhs): vl, id(rhs): vr})

    def on_lvalue(self, node):
        """&x, ++x, x--... with an async call inside the operand."""
        operand = node.children[0]
        pre = []
        v = self.lvalue_address(operand, pre)
        return pre, self.splice(node, {id(operand): v})

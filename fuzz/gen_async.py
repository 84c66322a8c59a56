"""gen_async.py -- random async-heavy C programs in blocking style.

    python fuzz/gen_async.py SEED [--classes LIST] [--posix [--split IO_FILE]] > prog.c

Each program is valid, terminating C against runtime/include/rip.h whose
output depends only on the scheduling contract (so the rip and ucontext
builds print the same bytes): generated helper functions (recursive and
mutually recursive, bounded by a depth argument and a global call budget)
full of suspension points (rip_yield, rip_sleep_ms, a channel round trip
through a server task, a buffered channel, a spawned task that writes
through a pointer into the caller's frame and a wait group) in every
statement and expression form of DESIGN.md, run by several tasks that print
as they go; a checksum of everything at the end.

The rules that keep a program free of undefined and unspecified behaviour:

- arithmetic is unsigned (other types are read through a cast to unsigned);
  divisors are `| 1u`, shift counts `& 15u`, subscripts `% N`;
- an expression with an effect (any async call, any call that prints or
  mixes the checksum, an assignment inside an expression) never stands
  beside another one where C leaves the order open (operands of + * ==,
  call arguments, both sides of =, initializer lists): only across &&, ||,
  ?:, the comma operator or separate statements;
- assignments inside expressions write only "scratch" locals, which are
  read nowhere else in an expression; statics and globals that calls change
  are read only in statements of their own; a pointer argument is passed
  only in a call statement whose result goes to another variable;
- sleeps are rip_sleep_ms(0): a longer sleep wakes after however many
  task runs the clock allows, which differs from run to run (the contract
  orders timers, not timers against yields);
- loops count to at most 3 with a counter nothing else writes; a call is
  skipped once the global budget `fuel` is spent; calls that go back up the
  call graph (j <= i) pass d - 1 and only when d > 0.

Beyond that base, construct classes (CLASSES below; `--classes` picks them,
default all) add the C that ripper has got wrong: statement expressions
with jumps out of them, macros that do more than a call, unevaluated
operands, compound literals, bit-fields, designated initializers,
block-local types, __func__, self-naming initializers, `?:` without its
middle operand, calls of a call's result, asm goto, ...  Each places a
suspension where getting the construct wrong changes the output.  Where an
expression of a class has two effects, they are sequenced (inside a
statement expression) or both are ay() of effect-free arguments, whose
order cannot show.  `--classes base` (no class) gives the programs the
generator gave before the classes, seed for seed.

--posix writes the same programs against plain POSIX for `ripcc --posix`
(POSIX_PRELUDE): rip_yield() a usleep(0) or a round trip through a pipe
to itself (poll, then read), sy() a round trip through a second pipe as
stdio streams (fprintf, fflush, fgets), rip_sleep_ms(0) a nanosleep, the bag a pipe, rt() a round trip
to a server thread over a socketpair, rc() one through a mailbox guarded
by a mutex and a condition variable (a second server thread), mix() under
a mutex (unlocked by name or through a file-scope pointer), counted in a
__thread variable, a spawn a pthread_create (named, or through a local or
file-scope pointer to pthread_create) joined at once, and the tasks run one after another from
main (called, or as a thread joined at once).  Only one thread runs
generated code at a time, so the plain `cc -pthread` build prints the same
bytes every run.  Functions plain code may reach (tables, pick(), a start
routine started through a pointer) run their plain forms there, whose
joins and condition-variable waits run the other tasks nested (rip); they
call only each other (Gen.callees).  Without --posix, the programs are
those of before, seed for seed.
"""
import argparse
import random
import re
import sys

S_FIELDS = (("a", "u"), ("b", "i"), ("c", "uc"))   # struct S: a, b, c, arr[3]
CTYPE = {"u": "unsigned", "i": "int", "uc": "unsigned char", "ull": "unsigned long long"}
SCALARS = ("u", "u", "u", "i", "uc", "ull")
MAX_BLOCK_DEPTH = 4
MAX_LOOP_DEPTH = 2

# Construct classes: name -> (weight of its statement form among the base
# statements' ~50, what it generates).  Weight 0: no statement form (the
# class changes other text).  Order matters for determinism.
CLASSES = {
    "stmtexpr": (3, "GNU statement expressions written out, left by goto to a label after the "
                    "statement, break/continue of the enclosing loop (in a body), return; a "
                    "variable live only along the jump edge across an earlier suspension; "
                    "async calls inside them or before; random statements inside them"),
    "sejump": (2, "jumps (goto, break, continue, return) out of statement expressions that "
                  "hold no async call, with a variable live only along the jump edge across "
                  "the suspension before"),
    "semacro": (2, "statement expressions through macros: TRY(x) (goto fail, the handler "
                   "reads a variable live only along that edge), MAX(a, b) with __typeof__, "
                   "OR_BREAK(x) and OR_NEXT(x) in loop bodies"),
    "macro": (3, "macros that do more than a call: do { if (chk(x) < 0) { ...; return r; } } "
                 "while (0), assert() and EXPECT() of async calls, stringified locals (also "
                 "through a second macro), bodies naming locals, a declaration, a continue, "
                 "macros as other operands, return NULL and return MACRO"),
    "uneval": (2, "async calls with effects in unevaluated operands: sizeof, __typeof__ in a "
                  "declaration and in a compound literal's type, __builtin_types_compatible_p, "
                  "__builtin_classify_type, _Generic's controlling expression"),
    "builtinexpr": (1, "async calls (never made) in __builtin_constant_p and in the branch "
                       "__builtin_choose_expr does not choose (docs/accepts.md lists both as refused)"),
    "vmsizeof": (1, "sizeof of a variably modified type: sizeof(unsigned[n % 5u + 1u]) with n "
                    "kept across a suspension, and with an async call in the size (it is made)"),
    "complit": (2, "compound literals whose address, member address or decayed array is held "
                   "in a pointer across a suspension"),
    "bitfield": (2, "bit-field members assigned from async calls, async calls in the subscript "
                    "of a bit-field lvalue (s[ay(i) % 3u].f = ay(v))"),
    "desig": (2, "designated initializers: array designators that are enum or macro constant "
                 "expressions ([DN - 1] = ay(x)), member designators, nested, chained"),
    "blocktype": (2, "block-local struct/union/enum/typedef, a block-local struct S shadowing the "
                     "file-scope one with another layout, frame variables of unnamed types, "
                     "const ones initialized, arrays of them completed by their initializers "
                     "(and named in a _Static_assert), "
                     "a #pragma pack struct with an aligned bit-field (gcc and clang lay it "
                     "out differently), "
                     "__typeof__ of a name an inner block shadows with another type, a "
                     "block's typedef hidden by an inner block's of the same name, a "
                     "compound literal of __typeof__ of a file-scope struct S kept where a "
                     "block's own struct S hides it"),
    "func": (1, "__func__, __FUNCTION__ and __PRETTY_FUNCTION__ printed after a suspension"),
    "selfinit": (1, "initializers naming the variable declared (struct node *p = "
                    "alloc(sizeof *p)), with and without an outer variable of the same name"),
    "declsplit": (1, "declarators whose initializers wait under a cast or in a larger "
                     "expression (declared before the calls, stored after them: C89), several "
                     "in one declaration, one naming an outer variable or a typedef (sizeof, "
                     "cast) a later declarator shadows, const and double ones"),
    "sysmacro": (1, "function definitions that begin with a system header's macro (glibc's "
                    "__attribute_noinline__ from <sys/cdefs.h>): the user's functions all the same"),
    "elvis": (1, "the conditional without a middle operand: ay(x) ?: y"),
    "commaop": (1, "a comma expression as an operand moved by ripper: the middle operand of "
                   "?: (c ? (v = a), b : f(x)), a statement expression's value"),
    "spawnsel": (1, "rip_spawn(c ? sub_task : sub_task2, arg), a task function chosen by ?:"),
    "callcall": (1, "calling a call's result: pick(k)(d - 1u, x), apick(k)(...) (async pick)"),
    "asmgoto": (1, "asm goto to a label (x86; a plain goto elsewhere) with a variable live only "
                   "along its edge across an earlier suspension"),
    "arrparam": (1, "a parameter of a typedef'd array type (typedef unsigned vec3[3]), written "
                    "through by the async callee; array parameters with qualifiers or static "
                    "in their brackets (unsigned v[volatile restrict 3], [static 3]) kept "
                    "across suspensions"),
    "variadic": (1, "variadic async functions: va_arg read before a suspension, a va_list "
                    "started before suspensions and read by vsnprintf after them; promoted "
                    "(unsigned char, short, float), string and async arguments"),
    "multidecl": (0, "several functions in one declaration (the prototypes), ending in an "
                     "object; functions declared through a function typedef and a __typeof__ "
                     "of themselves; a task's first declaration declaring a function between "
                     "its objects"),
    "comment": (0, "comments (also //, and ones holding ; } ( \" and code) inside loop, if "
                   "and switch headers, before their ')' too, and in call arguments"),
    "names": (0, "locals and labels named like ripper's own names of before (rip_F, rip_self, "
                 "rip_c, rip_t1, rip_hdr, rip_resume_N, rip_cont_N, f0__rip for function f0...): "
                 "the user's to use"),
}
# Names ripper once gave its own locals, frame members and helpers, and
# those it made of a function's name (f0's constructor and resume entry)
RIPPER_LIKE_NAMES = ("rip_F", "rip_c", "rip_r", "rip_w", "rip_self", "rip_hdr", "rip_result",
                     "rip_t1", "rip_t2", "rip_lit1", "rip_d_1", "rip_main_status",
                     "f0__rip", "f1__rip", "f0__resume")
LABEL_PREFIXES = ("out", "skip", "again", "in", "past")
ALL = tuple(CLASSES)
BASE = ()


def parse_classes(text):
    """"all", "base" (none), or a comma list of names; "all,-asmgoto" drops
    one.  A tuple in CLASSES order."""
    chosen = set()
    for part in (p.strip() for p in text.split(",")):
        if part == "all":
            chosen |= set(ALL)
        elif part in ("base", "none", ""):
            pass
        elif part.startswith("-") and part[1:] in CLASSES:
            chosen.discard(part[1:])
        elif part in CLASSES:
            chosen.add(part)
        else:
            raise ValueError("unknown construct class %r (known: all, base, %s)"
                             % (part, ", ".join(ALL)))
    return tuple(c for c in ALL if c in chosen)

PRELUDE = r"""/* generated by fuzz/gen_async.py, seed %(seed)d */
#include <stdio.h>
#include "rip.h"

struct S { unsigned a; int b; unsigned char c; unsigned arr[3]; };
struct targ { unsigned id; unsigned v; unsigned d; unsigned *out; rip_wg *wg; };
typedef RIP_ASYNC_FN(unsigned, ufn, (unsigned d, unsigned x));

static unsigned ck;                  /* checksum of everything mixed */
static unsigned fuel = %(fuel)du;       /* calls of generated functions left */
/* to and from the server; a buffered bag (kept: with every use of bag in
   code gcc drops, at -O2 its store went too, and LeakSanitizer called the
   channel leaked) */
static rip_chan *req __attribute__((used)), *rsp __attribute__((used)),
    *bag __attribute__((used));
static const struct S zs;
static unsigned K[16] = {%(k)s};   /* constants, never written */

static void mix(unsigned v)
{
    ck = (ck ^ v) * 16777619u + 1u;
}

RIP_ASYNC static unsigned ay(unsigned v)
{
    rip_yield();
    return v;
}

static unsigned zz(unsigned v)
{
    rip_sleep_ms(0);
    return v + 1u;
}

static unsigned rt(unsigned v)
{
    unsigned r = 0u;
    if (rip_chan_send(req, &v) == 0)
        rip_chan_recv(rsp, &r);
    return r;
}

static void server(void *arg)
{
    unsigned v;
    (void)arg;
    while (rip_chan_recv(req, &v)) {
        v = v * 3u + 1u;
        if (v & 1u)
            rip_yield();
        rip_chan_send(rsp, &v);
    }
}

"""


POSIX_PRELUDE = r"""/* generated by fuzz/gen_async.py --posix, seed %(seed)d */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct S { unsigned a; int b; unsigned char c; unsigned arr[3]; };
struct targ { unsigned id; unsigned v; unsigned d; unsigned *out; void *wg; };
typedef unsigned ufn(unsigned d, unsigned x);

static unsigned ck;                  /* checksum of everything mixed */
static unsigned fuel = %(fuel)du;       /* calls of generated functions left */
static pthread_mutex_t ckmu = PTHREAD_MUTEX_INITIALIZER;
static const struct S zs;
static unsigned K[16] = {%(k)s};   /* constants, never written */
static __thread unsigned mixes;      /* mix() calls by this thread */
int (*pcreate)(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *) = pthread_create;
int (*punlock)(pthread_mutex_t *) = pthread_mutex_unlock;

static void mix(unsigned v)
{
    pthread_mutex_lock(&ckmu);
    ck = (ck ^ v) * 16777619u + 1u;
    mixes++;
    if (v & 1u)
        pthread_mutex_unlock(&ckmu);
    else
        punlock(&ckmu);
}

"""

# The pipes, the servers and the round trips: in the program, or (--split)
# a file of their own whose functions the other calls as plain externs.
POSIX_IO = r"""static int selfp[2], bagp[2], rtp[2];  /* a pipe to itself; the bag; the server's socketpair */
static FILE *selfr, *selfw;          /* a second pipe to itself, as streams */
static pthread_mutex_t mbmu = PTHREAD_MUTEX_INITIALIZER;   /* the mailbox: */
static pthread_cond_t mbcv = PTHREAD_COND_INITIALIZER;
static unsigned mbval;               /* its value */
static int mbstate;                  /* 0 empty, 1 asked, 2 answered, 3 closed */
static const struct timespec zero_ts;

static int io_open(void)
{
    int sp[2];
    if (pipe(selfp) != 0 || pipe(bagp) != 0 || socketpair(AF_UNIX, SOCK_STREAM, 0, rtp) != 0 ||
        pipe(sp) != 0)
        return -1;
    selfr = fdopen(sp[0], "r");
    selfw = fdopen(sp[1], "w");
    return selfr && selfw ? 0 : -1;
}

static void __attribute__((unused)) pyield(void)  /* likewise */
{
    char c = 'y';
    struct pollfd p = {selfp[0], POLLIN, 0};
    if (write(selfp[1], &c, 1) != 1 || poll(&p, 1, -1) != 1 || read(selfp[0], &c, 1) != 1)
        abort();
}

static unsigned __attribute__((unused)) sy(unsigned v)  /* no call of it, in some seeds */
{
    char line[32];
    if (fprintf(selfw, "%u\n", v) < 0 || fflush(selfw) != 0 || !fgets(line, sizeof line, selfr))
        abort();
    return (unsigned)strtoul(line, NULL, 10);
}

static void __attribute__((unused)) psleep(void)  /* no call of it, in some seeds */
{
    if (nanosleep(&zero_ts, NULL) != 0)
        abort();
}

static int bput(const unsigned *p)
{
    return write(bagp[1], p, sizeof *p) == (ssize_t)sizeof *p ? 0 : -1;
}

static int bget(unsigned *p)
{
    return read(bagp[0], p, sizeof *p) == (ssize_t)sizeof *p;
}

static unsigned ay(unsigned v)
{
    unsigned r = 0u;
    if (write(selfp[1], &v, sizeof v) != (ssize_t)sizeof v || read(selfp[0], &r, sizeof r) != (ssize_t)sizeof r)
        abort();
    return r;
}

static unsigned zz(unsigned v)
{
    usleep(0);
    return v + 1u;
}

static unsigned rt(unsigned v)
{
    unsigned r = 0u;
    if (send(rtp[0], &v, sizeof v, 0) == (ssize_t)sizeof v)
        if (recv(rtp[0], &r, sizeof r, 0) != (ssize_t)sizeof r)
            abort();
    return r;
}

static void *server(void *arg)
{
    unsigned v;
    (void)arg;
    while (read(rtp[1], &v, sizeof v) == (ssize_t)sizeof v) {
        v = v * 3u + 1u;
        if (v & 1u)
            usleep(0);
        if (write(rtp[1], &v, sizeof v) != (ssize_t)sizeof v)
            break;
    }
    return NULL;
}

static unsigned rc(unsigned v)
{
    unsigned r;
    pthread_mutex_lock(&mbmu);
    mbval = v;
    mbstate = 1;
    pthread_cond_broadcast(&mbcv);
    while (mbstate != 2)
        pthread_cond_wait(&mbcv, &mbmu);
    r = mbval;
    mbstate = 0;
    pthread_mutex_unlock(&mbmu);
    return r;
}

static void *mailbox(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&mbmu);
    for (;;) {
        while (mbstate != 1 && mbstate != 3)
            pthread_cond_wait(&mbcv, &mbmu);
        if (mbstate == 3)
            break;
        mbval = mbval * 5u + 2u;
        mbstate = 2;
        pthread_cond_broadcast(&mbcv);
    }
    pthread_mutex_unlock(&mbmu);
    return NULL;
}

"""
POSIX_IO_INCLUDES = """/* generated by fuzz/gen_async.py --posix --split, seed %d: the I/O file */
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

"""
# What the program's file declares of POSIX_IO's under --split.
POSIX_IO_EXTERNS = """extern int selfp[2], bagp[2], rtp[2];
extern pthread_mutex_t mbmu;
extern pthread_cond_t mbcv;
extern int mbstate;
int io_open(void);
unsigned sy(unsigned v);
void pyield(void);
void psleep(void);
int bput(const unsigned *p);
int bget(unsigned *p);
unsigned ay(unsigned v);
unsigned zz(unsigned v);
unsigned rt(unsigned v);
unsigned rc(unsigned v);
void *server(void *arg);
void *mailbox(void *arg);

"""


class Var:
    def __init__(self, name, kind, mode="rw"):
        self.name = name
        self.kind = kind      # u i uc ull S arr sarr uptr sptr
        self.mode = mode      # rw, ro (loop counters, pointers), scratch


class Fn:
    def __init__(self, index, ret, params):
        self.index = index
        self.name = "f%d" % index
        self.ret = ret        # u i S void
        self.params = params  # [(name, kind)], kind in u i S uptr

    def simple(self):
        return self.ret == "u" and [k for _, k in self.params] == ["u"]

    def proto(self):
        ps = ["unsigned d"] + [decl_text(k, n) for n, k in self.params]
        return "static %s %s(%s)" % (ret_text(self.ret), self.name, ", ".join(ps))


def ret_text(kind):
    return {"u": "unsigned", "i": "int", "S": "struct S", "void": "void"}[kind]


def decl_text(kind, name):
    if kind in CTYPE:
        return "%s %s" % (CTYPE[kind], name)
    return {"S": "struct S %s", "arr": "unsigned %s[4]", "sarr": "struct S %s[2]",
            "uptr": "unsigned *%s", "sptr": "struct S *%s"}[kind] % name


def as_u(text, kind):
    return text if kind == "u" else "(unsigned)%s" % text


def is_const(text):
    return text[0].isdigit()


def is_call(text):
    """Is `text` one call, name(...)?"""
    m = re.match(r"[A-Za-z_]\w*\(", text)
    if not m:
        return False
    depth = 0
    for i in range(m.end() - 1, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i == len(text) - 1
    return False


class Ctx:
    """Where a statement or expression is generated."""
    def __init__(self, fn):
        self.fn = fn
        self.scopes = [{}]
        self.loops = 0        # loops around (continue is allowed)
        self.breakable = 0    # loops and switches around
        self.exits = []       # [label, used] of loops around, innermost last
        self.excluded = set() # scratch names an enclosing assignment writes
        self.hidden = set()   # the name being declared: not yet initialized
        self.fail = False     # TRY used: the function needs its `fail:` handler
        self.shadow = False   # inside a block where a local struct S hides the file's
        self.uneval = 0       # inside an unevaluated operand

    def visible(self):
        seen = {}
        for scope in self.scopes:
            seen.update(scope)
        return list(seen.values())

    def declare(self, var):
        self.scopes[-1][var.name] = var


class Gen:
    def __init__(self, seed, classes=ALL, posix=False):
        self.seed = seed
        self.posix = posix    # plain POSIX calls for ripcc --posix (POSIX_PRELUDE)
        self.split = False    # --posix --split: POSIX_IO in a file of its own (Gen.io_file)
        self.plain_safe = set()   # --posix: functions plain code may reach (Gen.callees)
        self.classes = tuple(c for c in ALL if c in classes)
        self.needed = []      # helper functions the classes used, in order
        self.r = random.Random(seed)
        self.serial = 0
        self.called = set()
        self.bools = set()    # expressions gcc knows are 0 or 1

    def boolish(self, text):
        return text in self.bools

    def boolean(self, text):
        self.bools.add(text)
        return text

    def truth(self, text):
        """`text` where C wants a truth value, without gcc's warnings about
        arithmetic in a boolean context."""
        if self.boolish(text) or is_call(text) or re.fullmatch(r"[\w.]+", text):
            return text
        return "(%s != 0u)" % text

    def fresh(self, prefix):
        self.serial += 1
        if prefix in LABEL_PREFIXES and self.on("names") and self.chance(0.5):
            prefix = self.r.choice(("rip_resume_", "rip_cont_"))
        return "%s%d" % (prefix, self.serial)

    def chance(self, p):
        return self.r.random() < p

    def const(self, lo=0, hi=15):
        return "%du" % self.r.randint(lo, hi)

    def value(self):
        """A constant in an expression: K[i], which gcc's warnings about
        always-true comparisons cannot see through (literals can)."""
        return "K[%d]" % self.r.randrange(16)

    # ---- values -------------------------------------------------------

    def readable(self, ctx):
        return [v for v in ctx.visible() if v.mode != "scratch" and v.name not in ctx.hidden]

    def lvalue(self, ctx, eff, write=False):
        """(text, scalar kind, has effect) of an lvalue of a scalar kind;
        its subscript may hold an effect if `eff`."""
        vs = [v for v in self.readable(ctx) if not (write and v.mode == "ro" and v.kind not in ("uptr", "sptr"))]
        if not vs:
            return None
        v = self.r.choice(vs)
        if v.kind in CTYPE:
            return v.name, v.kind, False
        if v.kind == "arr":
            idx, e = self.index(ctx, eff, 4)
            return "%s[%s]" % (v.name, idx), "u", e
        if v.kind == "uptr":
            return "*%s" % v.name, "u", False
        if v.kind == "S":
            return self.member(ctx, v.name + ".", eff)
        if v.kind == "sptr":
            return self.member(ctx, v.name + "->", eff)
        if v.kind == "sarr":
            idx, e = self.index(ctx, eff, 2)
            t, k, e2 = self.member(ctx, "%s[%s]." % (v.name, idx), eff and not e)
            return t, k, e or e2
        raise AssertionError(v.kind)

    def member(self, ctx, prefix, eff):
        if self.chance(0.4):
            idx, e = self.index(ctx, eff, 3)
            return "%sarr[%s]" % (prefix, idx), "u", e
        name, kind = self.r.choice(S_FIELDS)
        return prefix + name, kind, False

    def index(self, ctx, eff, n):
        if self.chance(0.4):
            return str(self.r.randrange(n)), False
        e, has = self.expr(ctx, 1, eff)
        return "%s %% %du" % (e, n), has

    def leaf(self, ctx, eff):
        if self.leaf_classes and not ctx.uneval and self.chance(0.12):
            t = self.class_leaf(ctx)
            if t:
                return t, False
        c = self.r.random()
        if c < 0.25:
            return self.value(), False
        if c < 0.28:    # an unevaluated operand: never called
            fns = [f for f in self.callees(ctx) if f.ret != "void"]
            what = "struct S"
            if fns and self.chance(0.7):
                f = self.r.choice(fns)
                what = self.call(ctx, f, 1, ["K"] * len(f.params))
            return "K[sizeof(%s) %% 16u]" % what, False
        lv = self.lvalue(ctx, eff)
        if lv is None:
            return self.const(), False
        t, k, e = lv
        return as_u(t, k), e

    def expr(self, ctx, depth, eff):
        """(text, has effect) of an unsigned expression."""
        if eff and self.chance(0.3):
            return self.effect(ctx, depth)
        if depth <= 0 or self.chance(0.25):
            return self.leaf(ctx, eff)
        c = self.r.random()
        if c < 0.45:
            op = self.r.choice(["+", "-", "*", "^", "&", "|", "/", "%", "<<", ">>",
                                "==", "!=", "<", ">", "<=", ">="])
            side = self.r.choice("lrn") if eff else "n"
            a, ea = self.expr(ctx, depth - 1, side == "l")
            b, eb = self.expr(ctx, depth - 1, side == "r")
            if sorted(a) == sorted(b) and not eb:   # x ^ x is a constant gcc sees
                b = self.value()
            if op in ("/", "%"):
                b = "(%s | 1u)" % b
            elif op in ("<<", ">>"):
                b = "(%s & 15u)" % b
            elif op in ("<", ">", "<=", ">=", "==", "!="):
                return self.boolean("(unsigned)(%s)" % self.comparison(a, op, b)), ea or eb
            return "(%s %s %s)" % (a, op, b), ea or eb
        if c < 0.55:
            # no ~: gcc warns about it on 0-or-1, on promoted narrow types,
            # and about x || ~x, but only in some of the forms ripper writes
            a, e = self.expr(ctx, depth - 1, eff)
            if self.chance(0.5):
                return self.boolean("(unsigned)!%s" % self.truth(a)), e
            return "(-%s)" % a, e
        if c < 0.7:
            op = self.r.choice(["&&", "||"])
            a, ea = self.expr(ctx, depth - 1, eff)
            b, eb = self.expr(ctx, depth - 1, eff)
            return self.boolean("(unsigned)(%s %s %s)" % (self.truth(a), op, self.truth(b))), ea or eb
        if c < 0.82:
            a, ea = self.expr(ctx, depth - 1, eff)
            b, eb = self.expr(ctx, depth - 1, eff)
            x, ex = self.expr(ctx, depth - 1, eff)
            return "(%s ? %s : %s)" % (self.truth(a), b, x), ea or eb or ex
        if c < 0.9 and eff:
            a = self.void_effect(ctx, depth - 1)
            b, eb = self.expr(ctx, depth - 1, eff)
            return "(%s, %s)" % (a, b), True
        return self.leaf(ctx, eff)

    def comparison(self, a, op, b):
        """a op b, never one gcc calls always true or false."""
        if sorted(a) == sorted(b):     # a == b, also (x ^ y) == (y ^ x)
            b = self.value()
        if self.boolish(a) or self.boolish(b):
            if is_const(a) or is_const(b):
                return "%s %s %s" % (a, self.r.choice(["==", "!="]), "1u" if is_const(b) else b) \
                    if not is_const(a) else "1u %s %s" % (self.r.choice(["==", "!="]), b)
        if op in ("<", ">", "<=", ">="):
            if is_const(b):
                b = self.const(1, 9)
            if is_const(a):
                a = self.const(1, 9)
        return "%s %s %s" % (a, op, b)

    def void_effect(self, ctx, depth):
        """An expression of type void with an effect."""
        c = self.r.random()
        if c < 0.35:
            return "rip_yield()"
        if c < 0.55:
            return "rip_sleep_ms(0)"
        if c < 0.7:
            fns = [f for f in self.callees(ctx) if f.ret == "void" and self.forward(ctx, f)
                   and "uptr" not in [k for _, k in f.params]]
            if fns:
                return self.call(ctx, self.r.choice(fns), depth)
        if c < 0.8:
            a, _ = self.expr(ctx, depth - 1, True)
            b = self.void_effect(ctx, depth - 1)
            return self.r.choice(["(%s ? %s : (void)0)", "(%s ? (void)0 : %s)"]) % (self.truth(a), b)
        e, _ = self.effect(ctx, depth)
        return "(void)%s" % e

    def effect(self, ctx, depth):
        """(text, True): an unsigned expression that has an effect."""
        if self.effect_classes and self.chance(0.2):
            t = self.class_effect(ctx, depth)
            if t:
                return t, True
        c = self.r.random()
        scratch = [v for v in ctx.visible() if v.mode == "scratch" and v.name not in ctx.excluded]
        if c < 0.4:
            fns = [f for f in self.callees(ctx) if f.ret in ("u", "i", "S")
                   and "uptr" not in [k for _, k in f.params]]
            if fns:
                f = self.r.choice(fns)
                t = self.call(ctx, f, depth)
                if f.ret == "S":
                    t = self.s_member_of(ctx, t)
                return as_u(t, "i" if f.ret == "i" else "u"), True
        if c < 0.55:
            a, _ = self.expr(ctx, depth - 1, True)
            return "%s(%s%s)" % (self.r.choice(self.trips(ctx, ["ay", "ay", "zz", "rt"])), self.note(), a), True
        if c < 0.62 and self.tables:
            tbl, fns = self.r.choice(self.tables)
            self.called.update(fns)
            self.tables_used.add(tbl)
            idx, e = self.index(ctx, False, len(fns))
            a, _ = self.expr(ctx, depth - 1, True)
            return "(d > 0u ? %s[%s](d - 1u, %s) : %s)" % (tbl, idx, a, self.const()), True
        if c < 0.75 and scratch:
            t = self.r.choice(scratch)
            ctx.excluded.add(t.name)
            try:
                a, _ = self.expr(ctx, depth - 1, True)
            finally:
                ctx.excluded.discard(t.name)
            op = self.r.choice(["=", "=", "+=", "^=", "*="])
            return "(%s %s %s)" % (t.name, op, a), True
        if c < 0.82 and scratch:
            t = self.r.choice(scratch)
            srcs = [v for v in self.readable(ctx) if v.kind == "u"]
            src = self.r.choice(srcs).name if srcs else t.name
            return "(unsigned)(rip_chan_send(bag, &%s) == 0 && rip_chan_recv(bag, &%s))" % (
                src, t.name), True
        if c < 0.88 and scratch:
            t = self.r.choice(scratch)
            return "%s%s" % (t.name, self.r.choice(["++", "--"])), True
        a = self.void_effect(ctx, depth - 1)
        b, _ = self.expr(ctx, depth - 1, True)
        return "(%s, %s)" % (a, b), True

    def s_member_of(self, ctx, t):
        """A member of a struct rvalue `t`."""
        if self.chance(0.3):
            return "%s.arr[%d]" % (t, self.r.randrange(3))
        name, kind = self.r.choice(S_FIELDS)
        return as_u("%s.%s" % (t, name), kind)

    def struct_expr(self, ctx, depth, eff):
        """(text, has effect) of a struct S value."""
        c = self.r.random()
        ss = [v for v in self.readable(ctx) if v.kind in ("S", "sarr", "sptr")]
        if eff and c < 0.3:
            fns = [f for f in self.callees(ctx) if f.ret == "S" and "uptr" not in [k for _, k in f.params]]
            if fns:
                return self.call(ctx, self.r.choice(fns), depth), True
        if c < 0.45 and depth > 0:
            a, ea = self.expr(ctx, depth - 1, eff)
            b, eb = self.struct_expr(ctx, depth - 1, eff)
            x, ex = self.struct_expr(ctx, depth - 1, eff)
            return "(%s ? %s : %s)" % (self.truth(a), b, x), ea or eb or ex
        if ss and c < 0.9:
            v = self.r.choice(ss)
            if v.kind == "S":
                return v.name, False
            if v.kind == "sptr":
                return "*" + v.name, False
            idx, e = self.index(ctx, eff, 2)
            return "%s[%s]" % (v.name, idx), e
        if self.chance(0.5) and not ctx.shadow:  # a compound literal, its address never taken
            return "(struct S)" + self.s_init(ctx, self.r.randrange(6) if eff else -1), eff
        return "zs", False

    def args(self, ctx, params, depth):
        """Argument texts; at most one with an effect."""
        k = self.r.randrange(len(params) + 1)
        out = []
        for i, kind in enumerate(params):
            if kind == "S":
                out.append(self.struct_expr(ctx, depth - 1, i == k)[0])
            else:
                out.append(self.expr(ctx, depth - 1, i == k)[0])
        return out

    def forward(self, ctx, f):
        """Does a call of f go down the call graph (keeping d)?"""
        return ctx.fn is None or f.index > ctx.fn.index

    def call(self, ctx, f, depth, ptrs=None):
        """A call of `f` as an expression (back edges guarded by d > 0)."""
        text = self.call_raw(ctx, f, depth, ptrs)
        if self.forward(ctx, f):
            return text
        zero = {"u": self.const(), "i": "0", "S": "zs"}[f.ret]
        return "(d > 0u ? %s : %s)" % (text, zero)

    def call_raw(self, ctx, f, depth, ptrs=None):
        """f(d or d - 1u, args...)."""
        if ctx.fn is None or ctx.fn.name != f.name:
            self.called.add(f.name)
        kinds = [k for _, k in f.params]
        vals = self.args(ctx, [k for k in kinds if k != "uptr"], depth)
        ptrs = list(ptrs or [])
        a = []
        for k in kinds:
            a.append(ptrs.pop(0) if k == "uptr" else vals.pop(0))
        return "%s(%s)" % (f.name, ", ".join(["d" if self.forward(ctx, f) else "d - 1u"] + a))

    # ---- statements ---------------------------------------------------

    def block(self, ctx, out, ind, n, depth):
        """Emit n statements (and what they declare) into a new scope;
        return that scope ({name: Var})."""
        ctx.scopes.append({})
        for _ in range(n):
            if self.budget <= 0:
                break
            self.stmt(ctx, out, ind, depth)
        self.use_scope(ctx, out, ind)
        return ctx.scopes.pop()

    def use_scope(self, ctx, out, ind):
        """mix() every variable of the innermost scope: no unused warnings,
        and their last values reach the checksum."""
        for v in ctx.scopes[-1].values():
            if v.kind in CTYPE:
                out.append(ind + "mix((unsigned)%s);" % v.name)
            elif v.kind == "arr":
                out.append(ind + "mix(%s[0] + %s[3]);" % (v.name, v.name))
            elif v.kind == "S":
                out.append(ind + "mix(%s.a ^ %s.arr[2]);" % (v.name, v.name))
            elif v.kind == "sarr":
                out.append(ind + "mix(%s[1].arr[0] + (unsigned)%s[0].b);" % (v.name, v.name))
            elif v.kind == "uptr":
                out.append(ind + "mix(*%s);" % v.name)
            elif v.kind == "sptr":
                out.append(ind + "mix(%s->a + %s->c);" % (v.name, v.name))

    def braced(self, ctx, out, ind, depth, n=None):
        """A block as the body of out[-1]; one simple statement sometimes
        goes without braces."""
        body = []
        self.block(ctx, body, ind + "    ", n or self.r.randint(1, 3), depth + 1)
        if len(body) == 1 and "\n" not in body[0] and out[-1].strip() and self.chance(0.5):
            out.extend(body)
        else:
            out[-1] += " {"
            out.extend(body)
            out.append(ind + "}")

    def cond(self, ctx):
        return self.truth(self.expr(ctx, 3, True)[0])

    def stmt(self, ctx, out, ind, depth):
        self.budget -= 1
        deep = depth >= MAX_BLOCK_DEPTH
        choices = [("assign", 6), ("decl", 5), ("suspend", 4), ("call", 4), ("print", 2),
                   ("ptrcall", 2), ("static", 1), ("spawn", 1)]
        if not deep:
            choices += [("if", 4), ("block", 2), ("switch", 2), ("goto", 1), ("gotoin", 1)]
            if ctx.loops < MAX_LOOP_DEPTH:
                choices += [("duff", 1), ("while", 2), ("do", 2), ("for", 3), ("forever", 1), ("backgoto", 1)]
        if ctx.breakable:
            choices.append(("break", 1))
        if ctx.loops:
            choices.append(("continue", 1))
        if ctx.exits:
            choices.append(("exit", 1))
        if ctx.fn:
            choices.append(("return", 1))
        if not ctx.shadow:
            choices += [("c_" + c, CLASSES[c][0]) for c in self.classes if CLASSES[c][0]]
        total = sum(w for _, w in choices)
        x = self.r.uniform(0, total)
        for kind, w in choices:
            x -= w
            if x <= 0:
                break
        getattr(self, "s_" + kind)(ctx, out, ind, depth)

    def s_assign(self, ctx, out, ind, depth):
        side = self.r.choice("lr")
        lv = self.lvalue(ctx, side == "l", write=True)
        if lv is None:
            return self.s_suspend(ctx, out, ind, depth)
        t, k, e = lv
        if self.chance(0.1):
            out.append(ind + ("++%s;" if k != "i" else "%s += 1u;") % t)
            return
        op = self.r.choice(["=", "=", "+=", "-=", "^=", "|=", "*="])
        if k == "i" and op not in ("=", "^=", "|="):
            op = "="
        rhs, _ = self.expr(ctx, 3, not e)
        if k == "uc" and op == "=":
            rhs = "(unsigned char)%s" % rhs
        out.append(ind + "%s %s %s;" % (t, op, rhs))

    def s_decl(self, ctx, out, ind, depth):
        kind = self.r.choice(SCALARS + ("S", "arr", "sarr", "uptr", "uptr", "sptr"))
        if ctx.shadow and kind in ("S", "sarr", "sptr"):    # `struct S` means the local one
            kind = "u"
        name = self.r.choice(["x", "y", "z", "w"]) + str(self.r.randrange(3))
        if self.on("names") and self.chance(0.3):
            name = self.r.choice(RIPPER_LIKE_NAMES)
            if any(v.name == name for v in ctx.visible()):
                name = self.fresh("v")      # a pointer of that name may be in use already
        if name in ctx.scopes[-1]:
            name = self.fresh("v")
        if name in ctx.hidden:      # skipped by a goto: keep it hidden
            return self.decl(ctx, out, ind, depth, kind, name)
        ctx.hidden.add(name)
        try:
            self.decl(ctx, out, ind, depth, kind, name)
        finally:
            ctx.hidden.discard(name)

    def decl(self, ctx, out, ind, depth, kind, name):
        if kind in CTYPE:
            names = [name] + [self.fresh("v") for _ in range(self.r.randint(0, 1))]
            ctx.hidden.update(names[1:])
            cast = "(unsigned char)" if kind == "uc" else ""
            parts = ["%s = %s%s" % (nm, cast, self.expr(ctx, 3, True)[0]) for nm in names]
            ctx.hidden.difference_update(names[1:])
            const = self.chance(0.15)
            out.append(ind + "%s%s %s;" % ("const " if const else "", CTYPE[kind], ", ".join(parts)))
            for nm in names:
                ctx.declare(Var(nm, kind, "ro" if const else "rw"))
            return
        if kind in ("uptr", "sptr"):
            t = self.address(ctx, kind)
            if t is None:
                return self.s_suspend(ctx, out, ind, depth)
            out.append(ind + "%s = %s;" % (decl_text(kind, name), t))
            ctx.declare(Var(name, kind, "ro"))
            return
        k = self.r.randint(-1, 4)
        if kind == "S" and self.chance(0.4):
            init, _ = self.struct_expr(ctx, 2, True)
        elif kind in ("S", "sarr"):
            init = self.s_init(ctx, k)
            if kind == "sarr":
                init = "{%s, %s}" % (init, self.s_init(ctx, -1))
        else:
            init = "{%s}" % ", ".join(self.expr(ctx, 2, i == k)[0] for i in range(4))
        out.append(ind + "%s = %s;" % (decl_text(kind, name), init))
        ctx.declare(Var(name, kind))

    def s_init(self, ctx, k):
        es = [self.expr(ctx, 2, i == k)[0] for i in range(6)]
        es[2] = "(unsigned char)%s" % es[2]     # no -Woverflow on a folded constant
        return "{%s, %s, %s, {%s, %s, %s}}" % tuple(es)

    def address(self, ctx, kind):
        """&something in the frame for a pointer of `kind` (uptr, sptr)."""
        if kind == "sptr":
            vs = [v for v in self.readable(ctx) if v.kind in ("S", "sarr")]
            if not vs:
                return None
            v = self.r.choice(vs)
            return "&" + v.name if v.kind == "S" else "&%s[%d]" % (v.name, self.r.randrange(2))
        vs = [v for v in self.readable(ctx) if v.kind in ("u", "arr", "S", "sarr") and v.mode == "rw"]
        if not vs:
            return None
        v = self.r.choice(vs)
        if v.kind == "u":
            return "&" + v.name
        if v.kind == "arr":
            return self.r.choice(["%s" % v.name, "&%s[%d]" % (v.name, self.r.randrange(4))])
        if v.kind == "S":
            return self.r.choice(["&%s.a" % v.name, "&%s.arr[%d]" % (v.name, self.r.randrange(3))])
        return "&%s[%d].arr[%d]" % (v.name, self.r.randrange(2), self.r.randrange(3))

    def s_suspend(self, ctx, out, ind, depth):
        c = self.r.random()
        if c < 0.35:
            out.append(ind + "rip_yield();")
        elif c < 0.55:
            out.append(ind + "rip_sleep_ms(0);")
        elif c < 0.7:
            e, _ = self.expr(ctx, 2, True)
            out.append(ind + "%s(%s);" % (self.r.choice(self.trips(ctx, ["ay", "zz", "rt"])), e))
        else:
            vs = [v for v in self.readable(ctx) if v.kind == "u" and v.mode == "rw"]
            if not vs:
                out.append(ind + "rip_yield();")
                return
            a, b = self.r.choice(vs), self.r.choice(vs)
            out.append(ind + "rip_chan_send(bag, &%s);" % a.name)
            out.append(ind + "rip_chan_recv(bag, &%s);" % b.name)

    def s_call(self, ctx, out, ind, depth):
        fns = [f for f in self.callees(ctx) if "uptr" not in [k for _, k in f.params]]
        if not fns:
            return self.s_suspend(ctx, out, ind, depth)
        f = self.r.choice(fns)
        self.call_stmt(ctx, out, ind, f, self.call_raw(ctx, f, 3))

    def call_stmt(self, ctx, out, ind, f, text, lhs=None):
        """`[lhs] text;`, under `if (d > 0u)` for a back edge."""
        if lhs:
            text = "%s %s %s" % (lhs, self.r.choice(["=", "+=", "^="]), as_u(text, f.ret))
        if self.forward(ctx, f):
            out.append(ind + text + ";")
        else:
            out.append(ind + "if (d > 0u)")
            out.append(ind + "    %s;" % text)

    def s_ptrcall(self, ctx, out, ind, depth):
        """x = f(d, &y, ...): the callee writes through the pointer."""
        fns = [f for f in self.callees(ctx) if "uptr" in [k for _, k in f.params]]
        if not fns:
            return self.s_call(ctx, out, ind, depth)
        f = self.r.choice(fns)
        n = [k for _, k in f.params].count("uptr")
        cands = [v for v in self.readable(ctx) if v.kind in ("u", "arr", "S") and v.mode == "rw"]
        cands += [v for v in ctx.visible() if v.kind == "uptr" and v.mode == "param"]
        self.r.shuffle(cands)
        if len(cands) < n:
            return self.s_call(ctx, out, ind, depth)
        ptrs, targets = [], set()
        for v in cands[:n]:
            targets.add(v.name)
            if v.kind == "u":
                ptrs.append("&" + v.name)
            elif v.kind == "arr":
                ptrs.append("&%s[%d]" % (v.name, self.r.randrange(4)))
            elif v.kind == "S":
                ptrs.append("&%s.arr[%d]" % (v.name, self.r.randrange(3)))
            else:
                ptrs.append(v.name)
        text = self.call_raw(ctx, f, 3, ptrs)
        lhs = [v for v in self.readable(ctx) if v.kind in ("u", "i") and v.mode == "rw"
               and v.name not in targets]
        if f.ret in ("u", "i") and lhs and self.chance(0.7):
            self.call_stmt(ctx, out, ind, f, text, self.r.choice(lhs).name)
        else:
            self.call_stmt(ctx, out, ind, f, text)

    def s_print(self, ctx, out, ind, depth):
        e, _ = self.expr(ctx, 3, True)
        out.append(ind + 'printf("%s.%d %%u\\n", %s);' % (ctx.fn.name if ctx.fn else "w",
                                                         self.r.randrange(100), e))

    def s_static(self, ctx, out, ind, depth):
        name = "st%d" % (ctx.fn.index if ctx.fn else 99)
        if name not in self.statics:
            return self.s_suspend(ctx, out, ind, depth)
        e, _ = self.expr(ctx, 2, False)
        out.append(ind + "%s = %s * 3u + %s;" % (name, name, e))
        out.append(ind + "mix(%s);" % name)

    def s_spawn(self, ctx, out, ind, depth):
        """A task that writes into this frame through a pointer, waited for."""
        vs = [v for v in self.readable(ctx) if v.kind == "u" and v.mode == "rw"]
        if not vs:
            return self.s_suspend(ctx, out, ind, depth)
        if self.posix:
            return self.s_thread(ctx, out, ind, vs)
        v = self.r.choice(vs)
        w, t = self.fresh("wg"), self.fresh("ta")
        e, _ = self.expr(ctx, 2, True)
        out.append(ind + "{")
        i2 = ind + "    "
        out.append(i2 + "rip_wg *%s = rip_wg_new();" % w)
        out.append(i2 + "struct targ %s = {7u, %s, d, &%s, %s};" % (t, e, v.name, w))
        out.append(i2 + "rip_wg_add(%s, 1);" % w)
        if self.on("spawnsel") and self.chance(0.6):
            self.need("sub_task2")
            pick = "%s ? sub_task : sub_task2" % self.truth(self.expr(ctx, 2, True)[0])
            if self.chance(0.5):
                out.append(i2 + "rip_spawn(%s, &%s);" % (pick, t))
            else:
                out.append(i2 + "rip_task_fn *fp = %s;" % pick)
                out.append(i2 + "rip_spawn(fp, &%s);" % t)
        elif self.chance(0.5):
            out.append(i2 + "rip_spawn(sub_task, &%s);" % t)
        else:
            out.append(i2 + "rip_task_fn *fp = sub_task;")
            out.append(i2 + "rip_spawn(fp, &%s);" % t)
        if self.chance(0.5):
            out.append(i2 + "rip_yield();")
        out.append(i2 + "rip_wg_wait(%s);" % w)
        out.append(i2 + "rip_wg_free(%s);" % w)
        out.append(ind + "}")

    def s_thread(self, ctx, out, ind, vs):
        """--posix: pthread_create of sub_task writing into this frame, then
        pthread_join at once (the creator waits: only one thread runs
        generated code at a time, so the output cannot depend on how the
        threads interleave)."""
        v = self.r.choice(vs)
        th, t = self.fresh("th"), self.fresh("ta")
        e, _ = self.expr(ctx, 2, True)
        out.append(ind + "{")
        i2 = ind + "    "
        out.append(i2 + "pthread_t %s;" % th)
        out.append(i2 + "struct targ %s = {7u, %s, d, &%s, NULL};" % (t, e, v.name))
        c = self.r.random()
        create = "pc" if c < 0.25 else "pcreate" if c < 0.36 else "pthread_create"
        routine = "sub_task"
        if self.chance(0.3 if create == "pthread_create" else 0.15):
            routine = self.need("sub_exit")     # pthread_exit (in a plain routine too)
        elif self.on("spawnsel") and self.chance(0.3):
            routine = self.need("sub_task2")
        if create == "pc":      # pthread_create taken as a pointer: the routine runs plain
            out.append(i2 + "int (*pc)(pthread_t *, const pthread_attr_t *, void *(*)(void *), "
                       "void *) = pthread_create;")
        # pcreate: the file-scope pointer to it
        out.append(i2 + "if (%s(&%s, NULL, %s, &%s) != 0)" % (create, th, routine, t))
        out.append(i2 + "    abort();")
        if self.chance(0.5):
            out.append(i2 + "if (pthread_join(%s, NULL) != 0)" % th)
            out.append(i2 + "    abort();")
        else:
            out.append(i2 + "pthread_join(%s, NULL);" % th)
        out.append(ind + "}")

    def s_if(self, ctx, out, ind, depth):
        out.append(ind + "if (%s%s)" % (self.cond(ctx), self.note(" ")))
        self.braced(ctx, out, ind, depth)
        if self.chance(0.5):
            out.append(ind + "else")
            if self.chance(0.3):
                out[-1] += " if (%s)" % self.cond(ctx)
            self.braced(ctx, out, ind, depth)

    def s_block(self, ctx, out, ind, depth):
        out.append(ind)
        self.braced(ctx, out, ind, depth, self.r.randint(2, 4))
        out[-1 - 0] = out[-1]

    def loop_body(self, ctx, out, ind, depth, pre=None):
        ctx.loops += 1
        ctx.breakable += 1
        out[-1] += " {"
        if pre:
            out.append(ind + "    " + pre)
        self.block(ctx, out, ind + "    ", self.r.randint(1, 4), depth + 1)
        ctx.loops -= 1
        ctx.breakable -= 1

    def exit_label(self, ctx):
        ctx.exits.append([self.fresh("out"), 0])

    def close_exit(self, ctx, out, ind):
        label, used = ctx.exits.pop()
        if used:
            out.append(ind + "%s: ;" % label)

    def counter(self, ctx, out, ind):
        i = self.fresh("i")
        out.append(ind + "unsigned %s = 0u;" % i)
        ctx.declare(Var(i, "u", "ro"))
        return i

    def counted_loop(self, ctx, out, ind, depth, head, pre, tail):
        """A loop bounded by a fresh counter i: head(i), a body starting
        with pre(i), tail(i) (each made when it is reached)."""
        i = self.counter(ctx, out, ind)
        self.exit_label(ctx)
        out.append(ind + head(i))
        self.loop_body(ctx, out, ind, depth, pre(i))
        out.append(ind + tail(i))
        self.close_exit(ctx, out, ind)

    def s_while(self, ctx, out, ind, depth):
        self.counted_loop(
            ctx, out, ind, depth,
            lambda i: "while (%s%s < %du && %s%s)" % (self.note(), i, self.r.randint(1, 3),
                                                     self.cond(ctx), self.note(" ")),
            lambda i: "%s++;" % i, lambda i: "}")

    def s_do(self, ctx, out, ind, depth):
        self.counted_loop(
            ctx, out, ind, depth, lambda i: "do", lambda i: "%s++;" % i,
            lambda i: "} while (%s < %du &&%s %s%s);" % (i, self.r.randint(1, 3), self.note(" "),
                                                          self.cond(ctx), self.note(" ")))

    def s_for(self, ctx, out, ind, depth):
        self.exit_label(ctx)
        i = self.fresh("i")
        step = "%s++" % i
        if self.chance(0.3):
            step += ", " + self.void_effect(ctx, 1)
        init = "%s = 0u" % i
        scope = {i: Var(i, "u", "ro")}
        pre = None
        if self.chance(0.3):
            v = self.fresh("v")
            init += ", %s = %s" % (v, self.expr(ctx, 2, True)[0])
            scope[v] = Var(v, "u")
            pre = "mix(%s);" % v
        ctx.scopes.append(scope)
        cond = "%s < %du" % (i, self.r.randint(1, 3))
        if self.chance(0.6):
            cond += " && " + self.cond(ctx)
        if self.on("comment") and self.chance(0.5):
            cond = self.r.choice(["// bounded; rip_yield();\n" + ind + "     ",
                                  "/* ; } ( */ "]) + cond
        if self.on("comment") and self.chance(0.2):
            step += " // step\n" + ind
        else:
            step += self.note(" ")
        out.append(ind + "for (unsigned %s; %s; %s%s)" % (init, cond, self.note(), step))
        self.loop_body(ctx, out, ind, depth, pre)
        ctx.scopes.pop()
        out.append(ind + "}")
        self.close_exit(ctx, out, ind)

    def s_forever(self, ctx, out, ind, depth):
        self.counted_loop(
            ctx, out, ind, depth, lambda i: "for (;;)",
            lambda i: "if (%s++ >= %du || !(%s))\n%s        break;" % (
                i, self.r.randint(1, 3), self.cond(ctx), ind),
            lambda i: "}")

    def s_backgoto(self, ctx, out, ind, depth):
        """A loop made of a label and a backward goto."""
        i = self.counter(ctx, out, ind)
        label = self.fresh("again")
        out.append(ind + "%s: ;" % label)
        out.append(ind + "{")
        self.block(ctx, out, ind + "    ", self.r.randint(1, 3), depth + 1)
        out.append(ind + "}")
        out.append(ind + "if (++%s < %du && %s)" % (i, self.r.randint(2, 3), self.cond(ctx)))
        out.append(ind + "    goto %s;" % label)

    def s_goto(self, ctx, out, ind, depth):
        """A forward goto over a block."""
        label = self.fresh("skip")
        out.append(ind + "if (%s)" % self.cond(ctx))
        out.append(ind + "    goto %s;" % label)
        out.append(ind)
        self.braced(ctx, out, ind, depth)
        out.append(ind + "%s:" % label)
        self.s_suspend(ctx, out, ind + "    ", depth)

    def s_gotoin(self, ctx, out, ind, depth):
        """A forward goto into the middle of a block: what was declared
        before the label is not read after it (it would be uninitialized)."""
        label = self.fresh("in")
        out.append(ind + "if (%s)" % self.cond(ctx))
        out.append(ind + "    goto %s;" % label)
        out.append(ind + "{")
        i2 = ind + "    "
        ctx.scopes.append({})
        for _ in range(self.r.randint(1, 3)):
            self.stmt(ctx, out, i2, depth + 1)
        skipped = set(ctx.scopes[-1]) - ctx.hidden
        self.use_scope(ctx, out, i2)
        ctx.scopes.pop()
        out.append(i2 + "%s: ;" % label)
        ctx.hidden |= skipped
        out.append(i2)      # braced: the names of the first part may come again
        self.braced(ctx, out, i2, depth + 1, self.r.randint(1, 2))
        ctx.hidden -= skipped
        out.append(ind + "}")

    def s_duff(self, ctx, out, ind, depth):
        """Duff's device: a switch whose cases are inside a do loop."""
        n = self.r.randint(2, 3)
        i = self.counter(ctx, out, ind)
        out.append(ind + "switch (%s %% %du) {" % (self.cond(ctx), n))
        out.append(ind + "case 0:")
        out.append(ind + "    do")
        ctx.loops += 1
        ctx.breakable += 1
        out[-1] += " {"
        out.append(ind + "        %s++;" % i)
        for c in range(n):
            if c:
                out.append(ind + "        __attribute__((fallthrough));")
                out.append(ind + "case %d:" % c)
            out.append(ind + "        ")
            self.braced(ctx, out, ind + "        ", depth + 1, self.r.randint(1, 2))
        ctx.loops -= 1
        ctx.breakable -= 1
        out.append(ind + "    } while (%s < %du && %s);" % (i, self.r.randint(1, 3), self.cond(ctx)))
        out.append(ind + "}")

    def s_switch(self, ctx, out, ind, depth):
        n = self.r.randint(2, 4)
        out.append(ind + "switch (%s %% %du%s) {" % (self.cond(ctx), n + 1, self.note(" ")))
        ctx.breakable += 1
        for c in range(n + 1):
            out.append(ind + ("default:" if c == n else "case %d:" % c))
            first = len(out)
            if self.chance(0.5):
                self.s_suspend(ctx, out, ind + "    ", depth)
            out.append(ind + "    ")
            self.braced(ctx, out, ind + "    ", depth, self.r.randint(1, 2))
            if c < n and self.chance(0.35):
                # gcc can miss the comment after a block with a label in it
                label = any(line.endswith(": ;") for line in out[first:])
                out.append(ind + "    " + self.r.choice(
                    ["/* fallthrough */"] * (not label) + ["__attribute__((fallthrough));"]))
            else:
                out.append(ind + "    break;")
        ctx.breakable -= 1
        out.append(ind + "}")

    def s_break(self, ctx, out, ind, depth):
        out.append(ind + "if (%s)" % self.cond(ctx))
        out.append(ind + "    break;")

    def s_continue(self, ctx, out, ind, depth):
        out.append(ind + "if (%s)" % self.cond(ctx))
        out.append(ind + "    continue;")

    def s_exit(self, ctx, out, ind, depth):
        e = self.r.choice(ctx.exits)
        e[1] += 1
        out.append(ind + "if (%s)" % self.cond(ctx))
        out.append(ind + "    goto %s;" % e[0])

    def s_return(self, ctx, out, ind, depth):
        out.append(ind + "if (%s)" % self.cond(ctx))
        out.append(ind + "    " + self.ret_stmt(ctx))

    def ret_stmt(self, ctx):
        ret = ctx.fn.ret if ctx.fn else "void"
        if ret == "void":
            return "return;"
        if ret == "S":
            return "return %s;" % self.struct_expr(ctx, 2, True)[0]
        return "return %s;" % self.expr(ctx, 3, True)[0]

    # ---- construct classes (CLASSES, --classes) -----------------------

    def on(self, cls):
        return cls in self.classes

    def callees(self, ctx):
        """The functions a call in `ctx` may name.  Under --posix a function
        plain code may reach (through a table, pick(), the start routine of
        a pthread_create taken as a pointer) runs its plain form there
        (docs/posix.md: plain functions): it calls only its kind."""
        if self.posix and ctx.fn is not None and ctx.fn.name in self.plain_safe:
            return [f for f in self.fns if f.name in self.plain_safe]
        return self.fns

    def trips(self, ctx, names):
        """`names` of suspending calls, and under --posix rc (a round trip
        through the condition-variable mailbox, waited for nested in plain
        code on rip) and sy: e.g. ["ay", "zz", "rt"] -> ["ay", "zz", "rt",
        "rc", "sy"]."""
        if self.posix:
            return names + ["rc", "sy"]
        return names

    @property
    def leaf_classes(self):
        return [c for c in ("uneval", "builtinexpr", "vmsizeof", "stmtexpr", "semacro", "macro")
                if c in self.classes]

    @property
    def effect_classes(self):
        return [c for c in ("stmtexpr", "semacro", "elvis", "callcall", "vmsizeof", "commaop")
                if c in self.classes]

    def need(self, name):
        """Use helper function `name` (emitted once, only when used)."""
        if name not in self.needed:
            self.needed.append(name)
        return name

    def note(self, lead=""):
        """A comment where the comment class puts one, else nothing."""
        if not self.on("comment") or not self.chance(0.3):
            return ""
        text = self.r.choice(["/* bound */", "/* ; } ( */", '/* "q" */', "/* rip_yield(); */"])
        return lead + text if lead else text + " "

    def pure(self, ctx, depth=2):
        """An effect-free unsigned expression."""
        return self.expr(ctx, depth, False)[0]

    def ay_of(self, ctx):
        """ay(an effect-free expression): a suspension whose order against
        another such one cannot show in the output."""
        return "ay(%s)" % self.pure(ctx, 1)

    def async_of(self, ctx):
        """One async call of an effect-free argument."""
        return "%s(%s)" % (self.r.choice(self.trips(ctx, ["ay", "ay", "zz", "rt"])), self.pure(ctx, 2))

    def target(self, ctx):
        """A plain scalar variable to assign a whole expression to, or None."""
        vs = [v for v in self.readable(ctx) if v.kind in CTYPE and v.mode == "rw"]
        return self.r.choice(vs) if vs else None

    def sink(self, ctx, out, ind, e, decl=True):
        """A statement that uses the unsigned value `e` (an expression with an
        effect, standing alone in it): assigned, declared, mixed or printed."""
        c = self.r.random()
        v = self.target(ctx)
        if c < 0.35 and v:
            cast = {"uc": "(unsigned char)", "i": "(int)"}.get(v.kind)
            out.append(ind + "%s = %s;" % (v.name, "%s(%s)" % (cast, e) if cast else e))
        elif c < 0.55 and decl:
            name = self.fresh("v")
            out.append(ind + "unsigned %s = %s;" % (name, e))
            ctx.declare(Var(name, "u"))
        elif c < 0.8:
            out.append(ind + "mix(%s);" % e)
        else:
            out.append(ind + 'printf("%s.c%d %%u\\n", %s);' % (
                ctx.fn.name if ctx.fn else "w", self.r.randrange(100), e))

    def fail_value(self, ret):
        return {"u": "FAIL_U", "i": "FAIL_I", "S": "FAIL_S", "void": "NO_VALUE"}[ret]

    def class_leaf(self, ctx):
        """An effect-free unsigned expression of an enabled class, or None."""
        cls = self.r.choice(self.leaf_classes)
        if cls == "uneval":
            return self.uneval_leaf(ctx)
        if cls == "builtinexpr":
            return self.uneval_leaf(ctx, (6, 7))
        if cls == "vmsizeof":
            vs = [v for v in self.readable(ctx) if v.kind in CTYPE]
            if vs:
                return "(unsigned)sizeof(unsigned[(unsigned)%s %% 5u + 1u])" % (
                    self.r.choice(vs).name)
            return None
        if cls == "stmtexpr":
            t = self.fresh("s")
            return "({ unsigned %s = %s; %s * 3u + %s; })" % (
                t, self.pure(ctx, 1), t, self.pure(ctx, 1))
        if cls == "semacro":
            return "MAX(%s, %s)" % (self.pure(ctx, 1), self.pure(ctx, 1))
        # macros as operands; K[...]: gcc's warnings cannot see the value
        return "K[%s]" % (self.r.choice(["SEVEN", "DN", "EK + 1"]) if self.on("desig") else "SEVEN")

    def uneval_leaf(self, ctx, forms=(0, 1, 2, 3, 4, 5, 8)):
        """A value whose operand holds calls (with effects) never made; forms
        6 and 7 (__builtin_constant_p, __builtin_choose_expr) are builtinexpr's."""
        ctx.uneval += 1
        self.need("loud")
        try:
            # (texts made only when used: a text thrown away could be the only
            # use of a helper function, which gcc would call unused)
            c = self.r.choice(forms)
            fns = [f for f in self.callees(ctx) if f.ret in ("u", "i")
                   and "uptr" not in [k for _, k in f.params]]
            if c in (2, 4, 5):
                e = "loud(%s)" % self.pure(ctx, 1)     # of type unsigned
            elif fns and self.chance(0.3):
                e = self.call(ctx, self.r.choice(fns), 1)
            else:
                e = "loud(%s)" % self.expr(ctx, 1, True)[0]
            if c == 0:
                return "K[sizeof(%s) %% 16u]" % e
            if c == 1:
                return "K[sizeof %s %% 16u]" % e
            if c == 2:
                return ("K[(unsigned)__builtin_types_compatible_p(__typeof__(%s), unsigned) + 2u]"
                        % e)
            if c == 3:
                return "K[(unsigned)__builtin_classify_type(%s) %% 16u]" % e
            if c == 4:
                return "K[_Generic(%s, unsigned: 3u, int: 4u, default: 5u)]" % e
            if c == 5:
                return "(__typeof__(%s)){%s}" % (e, self.pure(ctx, 1))
            if c == 6:
                return "K[(unsigned)__builtin_constant_p(%s) + 6u]" % e
            if c == 7:
                return "K[__builtin_choose_expr(1, %du, %s)]" % (self.r.randrange(16), e)
            return "K[sizeof(__typeof__(%s)) %% 16u]" % e
        finally:
            ctx.uneval -= 1

    def class_effect(self, ctx, depth):
        """An unsigned expression with an effect of an enabled class, or None."""
        return self.class_effect_of(self.r.choice(self.effect_classes), ctx, depth)

    def class_effect_of(self, cls, ctx, depth):
        """An unsigned expression with an effect of class `cls`, or None."""
        if cls == "stmtexpr":  # sequenced: a is the initializer of a declaration
            t = self.fresh("s")
            a, _ = self.expr(ctx, depth - 1, True)
            b, _ = self.expr(ctx, depth - 1, True)
            return "({ unsigned %s = %s; %s ^ %s; })" % (t, a, t, b)
        if cls == "semacro":
            a, _ = self.expr(ctx, depth - 1, True)
            b, _ = self.expr(ctx, depth - 1, True)     # sequenced: MAX declares a_ then b_
            return "MAX(%s, %s)" % (a, b)
        if cls == "elvis":     # ay(...): a truth value would make gcc warn
            a, _ = self.expr(ctx, depth - 1, True)
            b, _ = self.expr(ctx, depth - 1, True)     # evaluated after a, if at all
            return "(%s(%s) ?: %s)" % (self.r.choice(self.trips(ctx, ["ay", "zz", "rt"])), a, b)
        if cls == "commaop":   # the arms run after the condition, if at all
            c, _ = self.expr(ctx, depth - 1, True)
            a, _ = self.expr(ctx, depth - 1, True)
            b, _ = self.expr(ctx, depth - 1, True)
            if self.chance(0.5):
                return "((%s) != 0u ? mix(%s), K[%d] : %s)" % (c, a, self.r.randrange(16), b)
            t = self.fresh("s")
            return "({ unsigned %s = %s; %s += %s, %s ^ %s; })" % (t, c, t, a, t, b)
        if cls == "vmsizeof":
            return "(unsigned)sizeof(unsigned char[%s %% 7u + 1u])" % self.async_of(ctx)
        if cls == "callcall":
            return self.callcall(ctx, depth)
        return None

    def callcall(self, ctx, depth):
        """A call through the pointer a call returned (pick or, async, apick)."""
        if not self.tables:
            return None
        tbl, fns = self.tables[0]
        self.called.update(fns)
        self.tables_used.add(tbl)
        if self.chance(0.5):
            a, _ = self.expr(ctx, depth - 1, True)
            call = "%s(%s)(d - 1u, %s)" % (self.need("pick"), self.pure(ctx, 1), a)
        else:   # the pointer comes from a suspension: the argument has no effect
            call = "%s(%s)(d - 1u, %s)" % (self.need("apick"), self.pure(ctx, 1), self.pure(ctx, 1))
        return "(d > 0u ? %s : %s)" % (call, self.const())

    # statement forms, one per class (s_c_NAME)

    def s_c_stmtexpr(self, ctx, out, ind, depth):
        variants = ["skip", "skip", "loopjump", "loopjump"]
        if depth < MAX_BLOCK_DEPTH:
            variants += ["generic", "generic"]
        if ctx.fn:
            variants.append("retjump")
        if ctx.loops:
            variants.append("bodyjump")
        getattr(self, "se_" + self.r.choice(variants))(ctx, out, ind, depth)

    def s_c_sejump(self, ctx, out, ind, depth):
        """A jump out of a statement expression with no async call in it
        (the suspension comes before): only liveness can get it wrong."""
        variants = (["skip", "loopjump"] + ["retjump"] * bool(ctx.fn)
                    + ["bodyjump"] * bool(ctx.loops))
        getattr(self, "se_" + self.r.choice(variants))(ctx, out, ind, depth, inner=False)

    def s_c_semacro(self, ctx, out, ind, depth):
        variants = ["try", "try", "max", "loopjump"]
        if ctx.loops:
            variants.append("bodyjump")
        v = self.r.choice(variants)
        if v in ("loopjump", "bodyjump"):
            getattr(self, "se_" + v)(ctx, out, ind, depth, macros=True)
        else:
            getattr(self, "se_" + v)(ctx, out, ind, depth)

    def jump_edge_start(self, ctx, out, ind, depth, inner):
        """Open a block declaring lk (read afterwards only along a jump edge
        out of a statement expression); (lk, the value the statement
        expression starts from: an async call, or effect-free after a
        suspension when `inner` is False)."""
        lk = self.fresh("lk")
        out.append(ind + "{")
        out.append(ind + "    unsigned %s = %s;" % (lk, self.expr(ctx, 2, True)[0]))
        if self.chance(0.6) if inner is None else inner:
            return lk, self.async_of(ctx)
        self.s_suspend(ctx, out, ind + "    ", depth)
        return lk, self.pure(ctx)

    def se_skip(self, ctx, out, ind, depth, inner=None):
        """goto from inside a statement expression to the label after its
        statement; lk's first value is read only along that edge, after a
        suspension (inside the statement expression, or before it)."""
        lk, val = self.jump_edge_start(ctx, out, ind, depth, inner)
        q, label = self.fresh("q"), self.fresh("past")
        i2 = ind + "    "
        se = "({ unsigned %s = %s; if (%s %% 3u == 1u) goto %s; %s = %s + 1u; %s; })" % (
            q, val, q, label, lk, q, q)
        self.sink(ctx, out, i2, se, decl=False)
        out.append(i2 + "%s:" % label)
        out.append(i2 + "mix(%s);" % lk)
        out.append(ind + "}")

    def se_try(self, ctx, out, ind, depth):
        """TRY(x): goto fail out of a statement expression (the function's
        handler reads fk, live only along that edge)."""
        ctx.fail = True
        f = self.need(self.r.choice(["chk", "chk", "chk0"]))
        e = "TRY(%s(%s))" % (f, self.expr(ctx, 2, True)[0])
        c = self.r.random()
        if c < 0.3 and depth < MAX_BLOCK_DEPTH:
            out.append(ind + "if (%s > 500)" % e)
            self.braced(ctx, out, ind, depth)
            return
        if c < 0.5:
            name = self.fresh("v")
            out.append(ind + "int %s = %s;" % (name, e))
            ctx.declare(Var(name, "i"))
            return
        self.sink(ctx, out, ind, "(unsigned)" + e, decl=False)

    def se_loopjump(self, ctx, out, ind, depth, macros=False, inner=None):
        """break or continue out of a statement expression in a loop's body;
        lk's value from before the suspension reaches mix(lk) only through it."""
        lk, i, q = self.fresh("lk"), self.fresh("i"), self.fresh("q")
        i2, i3 = ind + "    ", ind + "        "
        jump = self.r.choice(["break", "continue"])
        out.append(ind + "{")
        out.append(i2 + "unsigned %s = %s;" % (lk, self.expr(ctx, 2, True)[0]))
        out.append(i2 + "for (unsigned %s = 0u; %s < %du; %s++) {" % (
            i, i, self.r.randint(2, 3), i))
        if inner is None:
            inner = self.chance(0.6)
        if not inner:
            self.s_suspend(ctx, out, i3, depth)
        val = "%s + %s" % (self.async_of(ctx) if inner else self.pure(ctx), i)
        if macros:
            se = "%s(%s)" % ({"break": "OR_BREAK", "continue": "OR_NEXT"}[jump], val)
        else:
            s = self.fresh("s")
            se = "({ unsigned %s = %s; if (%s %% 3u == 1u) %s; %s; })" % (s, val, s, jump, s)
        out.append(i3 + "unsigned %s = %s;" % (q, se))
        out.append(i3 + "%s = %s + %s;" % (lk, q, i))
        if depth + 1 < MAX_BLOCK_DEPTH and self.chance(0.4):
            ctx.loops += 1
            ctx.breakable += 1
            self.block(ctx, out, i3, 1, depth + 1)
            ctx.loops -= 1
            ctx.breakable -= 1
        out.append(i2 + "}")
        out.append(i2 + "mix(%s);" % lk)
        out.append(ind + "}")

    def se_bodyjump(self, ctx, out, ind, depth, macros=False, inner=None):
        """break/continue of the loop around, from a statement expression."""
        jump = self.r.choice(["continue"] + ["break"] * (ctx.breakable > 0))
        if inner is False:
            self.s_suspend(ctx, out, ind, depth)
        if self.chance(0.6) if inner is None else inner:
            val = self.async_of(ctx)
        else:
            val = self.pure(ctx)
        if macros:
            se = "%s(%s)" % ({"break": "OR_BREAK", "continue": "OR_NEXT"}[jump], val)
        else:
            s = self.fresh("s")
            se = "({ unsigned %s = %s; if (%s %% 4u == 3u) %s; %s + 1u; })" % (s, val, s, jump, s)
        self.sink(ctx, out, ind, se)

    def se_retjump(self, ctx, out, ind, depth, inner=None):
        """return from inside a statement expression, with lk's value from
        before the suspension (read only there)."""
        lk, val = self.jump_edge_start(ctx, out, ind, depth, inner)
        s = self.fresh("s")
        i2 = ind + "    "
        ret = {"u": "return %s;", "i": "return (int)%s;",
               "S": "return (struct S){%s, 1, 2u, {3u, 4u, 5u}};",
               "void": "{ mix(%s); return; }"}[ctx.fn.ret] % lk
        out.append(i2 + "%s = ({ unsigned %s = %s; if (%s %% 4u == 2u) %s %s; });" % (
            lk, s, val, s, ret, s))
        out.append(i2 + "mix(%s);" % lk)
        out.append(ind + "}")

    def se_max(self, ctx, out, ind, depth):
        """MAX(a, b): a statement expression declaring __typeof__(a) a_ = (a)
        (the call in __typeof__ is not made); a and b may both suspend."""
        a, _ = self.expr(ctx, 2, True)
        b, _ = self.expr(ctx, 2, True)
        e = "MAX(%s, %s)" % (a, b)
        if self.chance(0.3):
            e = "MAX(%s, %s)" % (e, self.async_of(ctx))
        self.sink(ctx, out, ind, e)

    def se_generic(self, ctx, out, ind, depth):
        """({ random statements; value; }): whatever jumps they make (break,
        continue, goto out of loops, return, goto past) leave it."""
        body = []
        i2 = ind + "    "
        declared = self.block(ctx, body, i2, self.r.randint(1, 3), depth + 1)
        label = None
        if self.chance(0.4):
            label = self.fresh("past")
            at = self.r.choice([0, len(body)])    # between statements, not lines
            body[at:at] = [i2 + "if (%s)" % self.cond(ctx), i2 + "    goto %s;" % label]
        # the value is in the block's scope: an outer name its declarations
        # shadow is not the outer variable there
        shadowed = set(declared) - ctx.hidden
        ctx.hidden |= shadowed
        try:
            val = self.expr(ctx, 2, True)[0]
        finally:
            ctx.hidden -= shadowed
        se = "({\n%s\n%s%s;\n%s})" % ("\n".join(body), i2, val, ind)
        if self.chance(0.25) and depth < MAX_BLOCK_DEPTH:
            out.append(ind + "if (%s)" % self.truth(se))
            self.braced(ctx, out, ind, depth)
        else:
            self.sink(ctx, out, ind, se, decl=label is None)
        if label:
            out.append(ind + "%s: ;" % label)

    def s_c_macro(self, ctx, out, ind, depth):
        variants = ["expect", "assert", "show", "note", "fprintf", "slot", "declmacro"]
        if ctx.fn:
            variants += ["check", "check", "retmacro"]
        if ctx.loops:
            variants.append("nextif")
        v = self.r.choice(variants)
        if v == "check":
            e = self.expr(ctx, 2, True)[0]
            self.need("chk")
            if ctx.fn.ret == "i" and self.chance(0.7):
                out.append(ind + "CHECK(%s);" % e)
            else:
                out.append(ind + "CHECK_OR(%s, %s);" % (e, self.fail_value(ctx.fn.ret)))
        elif v == "retmacro":
            out.append(ind + "if (%s)" % self.cond(ctx))
            out.append(ind + "    return %s;" % self.fail_value(ctx.fn.ret))
        elif v == "expect":
            if self.chance(0.5):
                out.append(ind + "EXPECT(%s %% 3u != 1u);" % self.ay_of(ctx))
            else:
                out.append(ind + "EXPECT(%s(%s) >= 0);" % (self.need("chk"), self.pure(ctx)))
        elif v == "assert":
            e = self.pure(ctx, 1)
            out.append(ind + "assert(ay(%s) == %s);" % (e, e))
        elif v == "show":
            if self.chance(0.6):
                self.s_suspend(ctx, out, ind, depth)
            lv = self.lvalue(ctx, False)
            if lv:
                out.append(ind + "%s(%s);" % (self.r.choice(["SHOW", "TRACE"]), lv[0]))
        elif v == "note":
            out.append(ind + "NOTE(%s);" % self.pure(ctx))
        elif v == "fprintf":
            if self.chance(0.5):
                out.append(ind + 'fprintf(OUT, FMT, "%s", %s);' % (
                    ctx.fn.name if ctx.fn else "w", self.expr(ctx, 2, True)[0]))
            else:
                out.append(ind + 'printf("seven %%u\\n", %s * SEVEN);' % self.async_of(ctx))
        elif v == "slot":
            sp = self.fresh("sp")
            out.append(ind + "{")
            out.append(ind + "    unsigned *%s = %s(%s);" % (sp, self.need("slot"), self.pure(ctx)))
            out.append(ind + "    if (SLOT_OK(%s)) {" % sp)
            out.append(ind + "        *%s += %s;" % (sp, self.pure(ctx, 1)))
            out.append(ind + "        rip_yield();")
            out.append(ind + "        SHOW(*%s);" % sp)
            out.append(ind + "    } else")
            out.append(ind + '        printf("no slot\\n");')
            out.append(ind + "}")
        elif v == "declmacro":
            mv = self.fresh("mv")
            out.append(ind + "{")
            out.append(ind + "    DECL_U(%s, %s);" % (mv, self.async_of(ctx)))
            self.s_suspend(ctx, out, ind + "    ", depth)
            out.append(ind + "    SHOW(%s);" % mv)
            out.append(ind + "}")
        else:   # braced: an else after it would bind to the macro's if
            out.append(ind + "{ NEXT_IF(%s %% 4u == 3u); }" % self.ay_of(ctx))

    def s_c_uneval(self, ctx, out, ind, depth):
        c = self.r.random()
        if c < 0.3:
            name = self.fresh("v")
            ctx.uneval += 1
            e = self.expr(ctx, 2, True)[0]
            ctx.uneval -= 1
            out.append(ind + "__typeof__(loud(%s)) %s = %s;" % (e, name, self.pure(ctx)))
            self.need("loud")
            ctx.declare(Var(name, "u"))
            return
        sfns = [f for f in self.callees(ctx) if f.ret == "S" and "uptr" not in [k for _, k in f.params]]
        if c < 0.5 and sfns:
            name = self.fresh("v")
            ctx.uneval += 1
            call = self.call(ctx, self.r.choice(sfns), 2)
            ctx.uneval -= 1
            out.append(ind + "struct S %s = (__typeof__(%s))%s;" % (
                name, call, self.s_init(ctx, -1)))
            ctx.declare(Var(name, "S"))
            return
        self.need("loud")
        out.append(ind + 'printf("ue %%u\\n", %s);' % self.uneval_leaf(ctx))

    def s_c_builtinexpr(self, ctx, out, ind, depth):
        out.append(ind + 'printf("ub %%u\\n", %s);' % self.uneval_leaf(ctx, (6, 7)))

    def s_c_vmsizeof(self, ctx, out, ind, depth):
        if self.chance(0.4):
            out.append(ind + "mix((unsigned)sizeof(unsigned[%s %% 5u + 1u]));" % self.async_of(ctx))
            return
        n = self.fresh("n")
        out.append(ind + "{")
        out.append(ind + "    unsigned %s = %s;" % (n, self.expr(ctx, 2, True)[0]))
        self.s_suspend(ctx, out, ind + "    ", depth)
        out.append(ind + '    printf("vm %%u\\n", (unsigned)sizeof(unsigned[%s %% 5u + 1u]));' % n)
        out.append(ind + "}")

    def s_c_complit(self, ctx, out, ind, depth):
        cp = self.fresh("cp")
        i2 = ind + "    "
        k = self.r.randrange(4)
        c = self.r.randrange(4)
        out.append(ind + "{")
        if c == 0:
            es = [self.expr(ctx, 2, i == k)[0] for i in range(3)]
            out.append(i2 + "unsigned *%s = (unsigned[%s]){%s};" % (
                cp, self.r.choice(["", "3"]), ", ".join(es)))
            use, touch = "%s[0] + %s[2]" % (cp, cp), "%s[1]" % cp
        elif c == 1:
            member = self.r.choice(["a", "arr[1]", "arr[2]"])
            out.append(i2 + "unsigned *%s = &(struct S)%s.%s;" % (cp, self.s_init(ctx, k), member))
            use, touch = "*%s" % cp, "*%s" % cp
        elif c == 2:
            out.append(i2 + "struct S *%s = &(struct S)%s;" % (cp, self.s_init(ctx, k)))
            use, touch = "%s->a + %s->arr[2]" % (cp, cp), "%s->arr[0]" % cp
        else:
            out.append(i2 + "unsigned *%s = &(unsigned){%s};" % (cp, self.expr(ctx, 2, True)[0]))
            use, touch = "*%s" % cp, "*%s" % cp
        self.s_suspend(ctx, out, i2, depth)
        if depth < MAX_BLOCK_DEPTH and self.chance(0.4):
            out.append(i2 + "{")    # what it declares must not outlive its scope here
            self.block(ctx, out, i2 + "    ", 1, depth + 1)
            out.append(i2 + "}")
        out.append(i2 + "%s += %s;" % (touch, self.pure(ctx)))
        if self.chance(0.5):
            out.append(i2 + "rip_yield();")
        out.append(i2 + "mix(%s);" % use)
        out.append(ind + "}")

    def s_c_bitfield(self, ctx, out, ind, depth):
        b, ba = self.fresh("b"), self.fresh("ba")
        i2 = ind + "    "
        out.append(ind + "{")
        out.append(i2 + "struct B %s = {1u, 2u, -3, 4u};" % b)
        out.append(i2 + "struct B %s[3] = {{0u, 1u, 2, 3u}, {4u, 5u, -6, 7u}, "
                   "{1u, 1u, 1, 1u}};" % ba)
        idx = self.fresh("j")
        out.append(i2 + "unsigned %s = %s;" % (idx, self.pure(ctx)))
        field = lambda: self.r.choice(["lo", "mid", "hi", "sg"])
        for _ in range(self.r.randint(2, 4)):
            f = field()

            def rhs():      # made when used, like every text (see uneval_leaf)
                val = self.ay_of(ctx) if self.chance(0.5) else self.async_of(ctx)
                return "(int)%s" % val if f == "sg" else val
            c = self.r.randrange(5)
            if c == 0:
                out.append(i2 + "%s.%s = %s;" % (b, f, rhs()))
            elif c == 1:   # both ay() of effect-free arguments: their order cannot show
                out.append(i2 + "%s[%s %% 3u].%s = %s;" % (ba, self.ay_of(ctx), f,
                                                          "(int)" + self.ay_of(ctx) if f == "sg"
                                                          else self.ay_of(ctx)))
            elif c == 2:
                out.append(i2 + "%s[%s %% 3u].%s %s %s;" % (
                    ba, idx, f, self.r.choice(["=", "+=", "^="]), rhs()))
            elif c == 3:
                out.append(i2 + "%s[%s %% 3u].%s++;" % (ba, self.async_of(ctx), f))
            else:       # masked: no -Woverflow on a folded constant
                v = "(%s & 7u)" % self.pure(ctx, 1)
                out.append(i2 + "%s[%s %% 3u].%s = %s;" % (ba, self.async_of(ctx), f,
                                                          "(int)" + v if f == "sg" else v))
        self.s_suspend(ctx, out, i2, depth)
        out.append(i2 + "mix(%s);" % idx)
        mixb = "%s.lo + %s.mid + (unsigned)%s.sg + %s.hi"
        out.append(i2 + "mix(%s);" % (mixb % (b, b, b, b)))
        for j in range(3):
            e = "%s[%d]" % (ba, j)
            out.append(i2 + "mix(%s);" % (mixb % (e, e, e, e)))
        out.append(ind + "}")

    def desig_indices(self, n):
        """Array designators for an array of DN (5) or 3 elements: constant
        expressions of enum and macro constants, distinct values."""
        pool = {5: [("0", 0), ("EK - 2", 0), ("EK - 1", 1), ("EN - 3", 1), ("EK", 2), ("DN - 3", 2),
                    ("EK + 1", 3), ("DN - 2", 3), ("DN - 1", 4), ("EN", 4)],
                3: [("0", 0), ("EK - 2", 0), ("EK - 1", 1), ("1", 1), ("EK", 2), ("DN - 3", 2)]}[n]
        self.r.shuffle(pool)
        seen, out = set(), []
        for text, v in pool:
            if v not in seen and (not out or self.chance(0.7)):
                seen.add(v)
                out.append(text)
        return out

    def s_c_desig(self, ctx, out, ind, depth):
        i2 = ind + "    "
        out.append(ind + "{")
        c = self.r.randrange(3)
        name = self.fresh("ds")
        if c == 0:
            idx = self.desig_indices(5)
            k = self.r.randrange(len(idx))
            items = ["[%s] = %s" % (t, self.expr(ctx, 2, i == k)[0]) for i, t in enumerate(idx)]
            out.append(i2 + "unsigned %s[DN] = {%s};" % (name, ", ".join(items)))
            use = " + ".join("%s[%d]" % (name, j) for j in range(5))
        else:
            fields = []
            k = self.r.randrange(4)
            made = []

            class Vals:     # made when used: an unused text could name a function
                def __next__(it):
                    made.append(1)
                    return self.expr(ctx, 2, len(made) - 1 == k)[0]
            vals = Vals()
            fields.append(".a = %s" % next(vals))
            fields.append(".c = (unsigned char)%s" % next(vals))
            arr = self.desig_indices(3)
            if self.chance(0.5):
                fields.append(".arr = {%s}" % ", ".join("[%s] = %s" % (t, next(vals)) for t in arr))
            else:
                fields += [".arr[%s] = %s" % (t, next(vals)) for t in arr]
            if self.chance(0.5):
                fields.append(".b = (int)%s" % next(vals))
            self.r.shuffle(fields)
            if c == 1:
                out.append(i2 + "struct S %s = {%s};" % (name, ", ".join(fields)))
                use = "%s.a + %s.c + %s.arr[0] + %s.arr[1] + %s.arr[2] + (unsigned)%s.b" % (
                    (name,) * 6)
            else:
                j = self.r.randrange(2)
                other = "[%s].%s = %s" % ("EK - %d" % (1 + j), self.r.choice(["a", "arr[EK]"]),
                                          self.pure(ctx, 1))
                items = ["[%s] = {%s}" % ("EK - 1" if j else "0", ", ".join(fields)), other]
                self.r.shuffle(items)
                out.append(i2 + "struct S %s[2] = {%s};" % (name, ", ".join(items)))
                use = " + ".join("%s[%d].a + %s[%d].arr[%d] + %s[%d].c" % (
                    name, x, name, x, y, name, x) for x in range(2) for y in range(3))
        self.s_suspend(ctx, out, i2, depth)
        out.append(i2 + "mix(%s);" % use)
        out.append(ind + "}")

    def s_c_blocktype(self, ctx, out, ind, depth):
        i2 = ind + "    "
        c = self.r.randrange(10)
        n = self.fresh("")
        out.append(ind + "{")
        if c == 6:    # const frame variables of an unnamed and a block-local type
            out.append(i2 + "const union { unsigned u; unsigned char c[4]; } cu%s = { %s };"
                       % (n, self.pure(ctx)))
            out.append(i2 + "struct K%s { unsigned a; unsigned short h; };" % n)
            out.append(i2 + "const struct K%s ck%s = { %s, 7 }, cc%s = { 9, 2 };"
                       % (n, n, self.async_of(ctx), n))
            self.s_suspend(ctx, out, i2, depth)
            out.append(i2 + "mix(cu%s.u + cu%s.c[0] + ck%s.a + ck%s.h + cc%s.a);"
                       % (n, n, n, n, n))
        elif c == 7:  # arrays of block-local types completed by their initializers
            out.append(i2 + "struct E%s { unsigned v; const char *s; };" % n)
            out.append(i2 + 'static const struct E%s se%s[] = { {1u, "a"}, {2u, "bb"}, '
                       '{3u, "ccc"} };' % (n, n))
            out.append(i2 + 'struct E%s ae%s[] = { {%s, "x"}, {%s, "yy"} };'
                       % (n, n, self.pure(ctx), self.async_of(ctx)))
            out.append(i2 + "const struct { unsigned char b; } ce%s[] = { {1}, {2}, {3}, "
                       "{%d} };" % (n, self.r.randrange(256)))
            self.s_suspend(ctx, out, i2, depth)
            out.append(i2 + "_Static_assert(sizeof ae%s == 2 * sizeof(struct E%s) && "
                       "sizeof(se%s) > sizeof ae%s[0], \"kept\");" % (n, n, n, n))
            out.append(i2 + "ae%s[0].v += %s;" % (n, self.async_of(ctx)))
            out.append(i2 + "mix((unsigned)(sizeof se%s / sizeof se%s[0]) + se%s[2].v + "
                       "(unsigned)(sizeof ae%s / sizeof *ae%s) + ae%s[0].v + ae%s[1].v + "
                       "(unsigned)ae%s[1].s[1] + (unsigned)(sizeof ce%s / sizeof ce%s[0]) + "
                       "ce%s[3].b);" % ((n,) * 11))
        elif c == 8:  # gcc lays it out in 12 bytes, clang in 11
            out.append("#pragma pack(push, 1)")
            out.append(i2 + "struct PB%s { unsigned x : 12; unsigned char y : 6; "
                       "unsigned long long z : 63; __attribute__((aligned(16))) unsigned char "
                       "a : 4; unsigned long long b : 2; };" % n)
            out.append("#pragma pack(pop)")
            out.append(i2 + "struct PB%s pb%s = { 5, 3, 0, 6, 1 };" % (n, n))
            out.append(i2 + "pb%s.z = %s;" % (n, self.async_of(ctx)))
            self.s_suspend(ctx, out, i2, depth)
            out.append(i2 + "pb%s.a += 1;" % n)
            out.append(i2 + "mix(pb%s.x + pb%s.y + (unsigned)pb%s.z + pb%s.a + pb%s.b + "
                       "(unsigned)sizeof pb%s);" % ((n,) * 6))
        elif c == 9:  # __typeof__ of a name, and a typedef, shadowed with another type
            self.typeof_shadowed(ctx, out, i2, depth, n)
        elif c == 0:    # a local struct S of another layout hides the file's
            ls = "ls" + n
            k = self.r.randrange(3)
            ctx.shadow = True   # already in its own initializer
            try:
                es = [self.expr(ctx, 2, i == k)[0] for i in range(3)]
                out.append(i2 + "struct S { unsigned long long q; unsigned a; "
                           "unsigned short h[3]; } %s = {%s, %s, {1, 2, (unsigned short)%s}};"
                           % (ls, es[0], es[1], es[2]))
                self.s_suspend(ctx, out, i2, depth)
                if depth < MAX_BLOCK_DEPTH and self.chance(0.5):
                    # braced: what it declares must not outlive its scope here
                    out.append(i2 + "{")
                    self.block(ctx, out, i2 + "    ", self.r.randint(1, 2), depth + 1)
                    out.append(i2 + "}")
                out.append(i2 + "%s.a += %s;" % (ls, self.async_of(ctx)))
            finally:
                ctx.shadow = False
            out.append(i2 + "mix((unsigned)%s.q + %s.a + %s.h[2] + (unsigned)sizeof %s);" % (
                ls, ls, ls, ls))
        elif c == 1:  # a frame variable of an unnamed type
            uv = "uv" + n
            out.append(i2 + "struct { unsigned a; unsigned char c; unsigned w[2]; } "
                       "%s = {%s, 3, {0}};" % (uv, self.expr(ctx, 2, True)[0]))
            self.s_suspend(ctx, out, i2, depth)
            out.append(i2 + "%s.w[1] = %s;" % (uv, self.async_of(ctx)))
            out.append(i2 + "mix(%s.a + %s.c + %s.w[1]);" % (uv, uv, uv))
        elif c == 2:  # a block-local typedef and enum
            out.append(i2 + "typedef unsigned long long wide%s;" % n)
            out.append(i2 + "enum { LA%s = 3, LB%s = LA%s * 5 };" % (n, n, n))
            out.append(i2 + "wide%s wv%s = (wide%s)%s << LA%s;" % (
                n, n, n, self.expr(ctx, 2, True)[0], n))
            self.s_suspend(ctx, out, i2, depth)
            out.append(i2 + "wv%s += %s;" % (n, self.async_of(ctx)))
            out.append(i2 + "mix((unsigned)(wv%s >> 1) + LB%s);" % (n, n))
        elif c == 3:  # a block-local union
            out.append(i2 + "union U%s { unsigned u; unsigned char b[4]; } un%s;" % (n, n))
            out.append(i2 + "un%s.u = %s;" % (n, self.async_of(ctx)))
            self.s_suspend(ctx, out, i2, depth)
            out.append(i2 + "mix(un%s.b[0] + un%s.b[3]);" % (n, n))
        elif c == 4:  # a block-local self-referential struct
            out.append(i2 + "struct L%s { unsigned v; struct L%s *next; } m%s = {%s, NULL}, "
                       "o%s = {%s, &m%s};" % (n, n, n, self.pure(ctx), n, self.async_of(ctx), n))
            self.s_suspend(ctx, out, i2, depth)
            out.append(i2 + "mix(o%s.next->v + o%s.v);" % (n, n))
        else:         # the same tag in two sibling blocks, other layouts
            out.append(i2 + "{")
            out.append(i2 + "    struct T { unsigned char a; unsigned b; } t%s = {1, %s};" % (
                n, self.async_of(ctx)))
            self.s_suspend(ctx, out, i2 + "    ", depth)
            out.append(i2 + "    mix(t%s.a + t%s.b + (unsigned)sizeof t%s);" % (n, n, n))
            out.append(i2 + "}")
            out.append(i2 + "{")
            out.append(i2 + "    struct T { unsigned long long b; unsigned a[3]; } "
                       "t%s = {%s, {2u}};" % (n, self.async_of(ctx)))
            self.s_suspend(ctx, out, i2 + "    ", depth)
            out.append(i2 + "    mix((unsigned)t%s.b + t%s.a[0] + (unsigned)sizeof t%s);"
                       % (n, n, n))
            out.append(i2 + "}")
        out.append(ind + "}")

    def typeof_shadowed(self, ctx, out, ind, depth, n):
        """`__typeof__(sp)` and a typedef `TS`, in an outer block and in an
        inner one that declares its own `sp` and `TS` of another width; the
        variables of those types kept across suspensions (the frame must
        spell each one's own type):

            unsigned long long sp = x; typedef unsigned long long TS;
            __typeof__(sp) tw = sp << 40; TS tt = tw + 7u;
            { unsigned char sp = ay(y); typedef unsigned short TS;
              struct S { ... } ls;   (hides the file's struct S)
              __typeof__(sp) tq = ...; TS ts = ...;
              unsigned *pa = &(__typeof__(so)){ay(x), ...}.a; <suspend> ... }
            <suspend> ... tw, tt ..."""
        i2 = ind + "    "
        sp, ts = "sp" + n, "TS" + n
        out.append(ind + "unsigned long long %s = %s; typedef unsigned long long %s;"
                   % (sp, self.expr(ctx, 2, True)[0], ts))
        out.append(ind + "__typeof__(%s) tw%s = %s << 40; %s tt%s = tw%s + 7u;"
                   % (sp, n, sp, ts, n, n))
        out.append(ind + "struct S so%s = {%s, 2, 3, {4u, 5u, 6u}};" % (n, self.pure(ctx)))
        out.append(ind + "{")
        out.append(i2 + "unsigned char %s = (unsigned char)%s; typedef unsigned short %s;"
                   % (sp, self.async_of(ctx), ts))
        ctx.shadow = True       # the file's struct S is hidden in this block
        try:
            out.append(i2 + "struct S { unsigned long long q; unsigned a; } ls%s = {1u, %s};"
                       % (n, self.pure(ctx)))
            out.append(i2 + "__typeof__(%s) tq%s = (__typeof__(%s))(%s + 200u);"
                       % (sp, n, sp, sp))
            out.append(i2 + "__typeof__(&%s) tp%s = &%s;" % (sp, n, sp))
            out.append(i2 + "%s ts%s = (%s)(%s * 4099u);" % (ts, n, ts,
                                                            self.expr(ctx, 2, True)[0]))
            out.append(i2 + "unsigned *pa%s = &(__typeof__(so%s)){%s, 7, 8, {9u}}.a;"
                       % (n, n, self.async_of(ctx)))
            self.s_suspend(ctx, out, i2, depth)
            out.append(i2 + "tq%s += (__typeof__(tq%s))%s;" % (n, n, self.async_of(ctx)))
            out.append(i2 + "ts%s += (%s)(%s * 4099u);" % (n, ts, self.async_of(ctx)))
            out.append(i2 + "mix(tq%s + *tp%s + ts%s + (unsigned)sizeof tq%s + "
                       "(unsigned)sizeof ts%s + *pa%s + ls%s.a + (unsigned)sizeof ls%s);"
                       % (n, n, n, n, n, n, n, n))
        finally:
            ctx.shadow = False
        out.append(ind + "}")
        out.append(ind + "mix(so%s.a + so%s.arr[2]);" % (n, n))
        self.s_suspend(ctx, out, ind, depth)
        out.append(ind + "tw%s += %s; tt%s += (%s)%s << 36;" % (n, self.async_of(ctx), n, ts,
                                                                 self.async_of(ctx)))
        out.append(ind + "mix((unsigned)(tw%s >> 33) + (unsigned)(tt%s >> 35) + "
                   "(unsigned)sizeof tw%s + (unsigned)sizeof tt%s);" % (n, n, n, n))

    def s_c_func(self, ctx, out, ind, depth):
        if self.chance(0.7):
            self.s_suspend(ctx, out, ind, depth)
        name = self.r.choice(["__func__", "__FUNCTION__", "__PRETTY_FUNCTION__"])
        out.append(ind + 'printf("in %%s %%u\\n", %s, %s);' % (name, self.pure(ctx, 1)))

    def s_c_selfinit(self, ctx, out, ind, depth):
        """An async call in an initializer that names the variable declared:
        the call may not move in front of the declaration (where the name is
        undeclared, or an outer variable's).  Kept across a suspension or not
        (the variable in the frame or a plain local)."""
        i2, i3 = ind + "    ", ind + "        "
        n = self.fresh("")
        c = self.r.randrange(4)
        kept = self.chance(0.5)
        size = self.r.choice(["sizeof *%s", "sizeof(*%s)", "sizeof(struct node) + 0u * sizeof *%s"])
        out.append(ind + "{")
        if c == 0:    # sizeof *p in p's own initializer; maybe an outer p of another type
            outer = self.chance(0.6)
            if outer:
                out.append(i2 + "struct S *np%s = NULL;" % n)
                out.append(i2 + "mix((unsigned)(np%s == NULL));" % n)
                out.append(i2 + "{")
            else:
                i3 = i2
            p = "np" + n
            if self.chance(0.3):    # and a second declarator naming itself too
                q = "nq" + n
                out.append(i3 + "struct node *%s = %s(%s), *%s = %s(%s);" % (
                    p, self.need("alloc"), size % p, q, "alloc", size % q))
            else:
                q = None
                out.append(i3 + "struct node *%s = %s(%s);" % (p, self.need("alloc"), size % p))
            out.append(i3 + "if (%s != NULL) {" % p)
            out.append(i3 + "    %s->v = %s;" % (p, self.pure(ctx)))
            if kept:
                out.append(i3 + "    rip_yield();")
            out.append(i3 + "    mix(%s->v + (unsigned)sizeof *%s);" % (p, p))
            out.append(i3 + "}")
            out.append(i3 + "free(%s);" % p)
            if q:
                out.append(i3 + "free(%s);" % q)
            if outer:
                out.append(i2 + "}")
        elif c == 1:  # sizeof x in x's initializer, an outer x of another size
            out.append(i2 + "unsigned long long sz%s = %s;" % (n, self.pure(ctx)))
            out.append(i2 + "mix((unsigned)sz%s);" % n)
            out.append(i2 + "{")
            out.append(i3 + "unsigned sz%s = %s((unsigned)%s + %s);" % (
                n, self.r.choice(self.trips(ctx, ["ay", "zz", "rt"])),
                self.r.choice(["sizeof sz%s", "sizeof(sz%s)"]) % n,
                self.pure(ctx, 1)))
            if kept:
                self.s_suspend(ctx, out, i3, depth)
            out.append(i3 + "mix(sz%s);" % n)
            out.append(i2 + "}")
        elif c == 2:  # the variable's own address in its initializer
            out.append(i2 + "struct node nd%s = {.v = %s, .next = &nd%s};" % (
                n, self.async_of(ctx), n))
            if kept:
                self.s_suspend(ctx, out, i2, depth)
            out.append(i2 + 'printf("self %%d %%u\\n", nd%s.next == &nd%s, nd%s.next->v);'
                       % (n, n, n))
        else:         # a later declarator names the earlier one
            out.append(i2 + "unsigned xa%s = %s, xb%s = xa%s + %s;" % (
                n, self.async_of(ctx), n, n, self.ay_of(ctx)))
            if kept:
                self.s_suspend(ctx, out, i2, depth)
            out.append(i2 + "mix(xa%s ^ xb%s);" % (n, n))
        out.append(ind + "}")

    def s_c_declsplit(self, ctx, out, ind, depth):
        """Declarators whose initializers wait on async calls under a cast or
        inside a larger expression: ripper declares them before the calls
        and stores them after (no statement ahead of a declaration, C89),
        except one whose move would put it above an earlier initializer's
        use of an outer variable of its name or of a typedef of its name
        (sizeof(dtN), (dtN)v), or a const."""
        i2, i3 = ind + "    ", ind + "        "
        n = self.fresh("")
        out.append(ind + "{")
        c = self.r.randrange(4)
        if c == 0:
            out.append(i2 + "unsigned long da%s = (unsigned long)%s, db%s = (unsigned long)%s * 3u;"
                       % (n, self.async_of(ctx), n, self.async_of(ctx)))
            out.append(i2 + "mix((unsigned)(da%s ^ db%s));" % (n, n))
        elif c == 1:    # dw's initializer reads the outer dv; the inner dv is declared after it
            out.append(i2 + "unsigned dv%s = %s;" % (n, self.pure(ctx)))
            out.append(i2 + "mix(dv%s);" % n)
            out.append(i2 + "{")
            out.append(i3 + "unsigned dw%s = (unsigned)%s(dv%s), dv%s = (unsigned)%s + 1u;" % (
                n, self.r.choice(self.trips(ctx, ["ay", "zz", "rt"])), n, n, self.async_of(ctx)))
            out.append(i3 + "mix(dw%s * 7u + dv%s);" % (n, n))
            out.append(i2 + "}")
        elif c == 3:    # dx's initializer names the typedef dt that a later declarator shadows
            out.append(i2 + "typedef unsigned char dt%s;" % n)
            out.append(i2 + "{")
            out.append(i3 + "unsigned long dx%s = (unsigned long)%s((unsigned)sizeof(dt%s) + "
                       "(dt%s)%s), dt%s;" % (n, self.r.choice(self.trips(ctx, ["ay", "zz", "rt"])),
                                             n, n, self.pure(ctx), n))
            out.append(i3 + "dt%s = %s;" % (n, self.pure(ctx)))
            out.append(i3 + "mix((unsigned)(dx%s * 5u + dt%s));" % (n, n))
            out.append(i2 + "}")
        else:
            out.append(i2 + "const unsigned dc%s = %s + 1u;" % (n, self.async_of(ctx)))
            out.append(i2 + "double dd%s = (double)%s / 4;" % (n, self.async_of(ctx)))
            out.append(i2 + "mix(dc%s + (unsigned)(dd%s * 4.0));" % (n, n))
        out.append(ind + "}")

    def s_c_sysmacro(self, ctx, out, ind, depth):
        # (the class is in function(): its statements are an async call's)
        self.sink(ctx, out, ind, self.async_of(ctx))

    def s_c_elvis(self, ctx, out, ind, depth):
        a = self.async_of(ctx) if self.chance(0.5) else "ay(%s)" % self.effect(ctx, 2)[0]
        self.sink(ctx, out, ind, "%s ?: %s" % (a, self.expr(ctx, 2, True)[0]))

    def s_c_variadic(self, ctx, out, ind, depth):
        def arg():
            return self.ay_of(ctx) if self.chance(0.3) else self.pure(ctx, 2)
        if self.chance(0.5):
            n = self.r.randrange(4)
            e = "%s(%du%s)" % (self.need("vadd"), n, "".join(", " + arg() for _ in range(n)))
        else:
            e = '%s("%%u %%d %%.1f %%s", %s, (short)(%s), (float)((%s) %% 64u), "%s")' % (
                self.need("vfmt"), arg(), arg(), arg(), self.fresh("w"))
        self.sink(ctx, out, ind, e)

    def s_c_commaop(self, ctx, out, ind, depth):
        self.sink(ctx, out, ind, self.class_effect_of("commaop", ctx, 3))

    def s_c_spawnsel(self, ctx, out, ind, depth):
        return self.s_spawn(ctx, out, ind, depth)

    def s_c_callcall(self, ctx, out, ind, depth):
        e = self.callcall(ctx, 3)
        if e is None:
            return self.s_suspend(ctx, out, ind, depth)
        self.sink(ctx, out, ind, e)

    def s_c_asmgoto(self, ctx, out, ind, depth):
        lk, cv, label = self.fresh("lk"), self.fresh("c"), self.fresh("asm")
        i2 = ind + "    "
        out.append(ind + "{")
        out.append(i2 + "unsigned %s = %s;" % (lk, self.expr(ctx, 2, True)[0]))
        self.s_suspend(ctx, out, i2, depth)
        out.append(i2 + "unsigned %s = %s %% 2u;" % (cv, self.pure(ctx)))
        out.append("#if defined(__x86_64__) || defined(__i386__)")
        out.append(i2 + '__asm__ goto("testl %%0, %%0\\n\\tjnz %%l1" : : "r"(%s) : "cc" : %s);'
                   % (cv, label))
        out.append("#else")
        out.append(i2 + "if (%s)" % cv)
        out.append(i2 + "    goto %s;" % label)
        out.append("#endif")
        out.append(i2 + "%s = %s + 5u;" % (lk, cv))
        out.append(i2 + "%s:" % label)
        out.append(i2 + "mix(%s);" % lk)
        out.append(ind + "}")

    def s_c_arrparam(self, ctx, out, ind, depth):
        arrs = [v for v in self.readable(ctx) if v.kind in ("arr", "S") and v.mode == "rw"]
        lhs = [v for v in self.readable(ctx) if v.kind == "u" and v.mode == "rw"]
        if not arrs or not lhs:
            return self.s_suspend(ctx, out, ind, depth)
        a = self.r.choice(arrs)
        arg = a.name if a.kind == "arr" else a.name + ".arr"
        if self.chance(0.5):
            out.append(ind + "%s = %s(d, %s);" % (self.r.choice(lhs).name, self.need("vsum"),
                                                  arg))
        else:                       # K is never written: no alias of arg's array
            out.append(ind + "%s = %s(d, %s, K + d %% 8u);" % (self.r.choice(lhs).name,
                                                              self.need("vqsum"), arg))

    def class_prelude(self):
        """Types and macros of the enabled classes (unused ones cost nothing)."""
        out = []
        if self.on("selfinit"):
            out.append("#include <stdlib.h>")
        if self.on("macro"):
            out.append("#include <assert.h>")
        if self.on("semacro"):
            out += [
                "#define TRY(x) ({ int t_ = (x); if (t_ < 0) goto fail; t_; })",
                "#define MAX(a, b) ({ __typeof__(a) a_ = (a); __typeof__(b) b_ = (b); "
                "a_ > b_ ? a_ : b_; })",
                "#define OR_BREAK(x) ({ unsigned v_ = (x); if (v_ % 5u == 4u) break; v_; })",
                "#define OR_NEXT(x) ({ unsigned v_ = (x); if (v_ % 5u == 4u) continue; v_; })"]
        if self.on("macro"):
            out += [
                '#define CHECK(x) do { if (chk(x) < 0) { printf("check %s\\n", #x); '
                'return -1; } } while (0)',
                '#define CHECK_OR(x, r) do { if (chk(x) < 0) { printf("check_or %s\\n", #x); '
                'return r; } } while (0)',
                "#define FAIL_U 0xdeadu",
                "#define FAIL_I (-1)",
                "#define FAIL_S zs",
                "#define NO_VALUE",
                '#define EXPECT(c) ((c) ? (void)0 : (void)printf("expect %s\\n", #c))',
                '#define SHOW(v) printf("%s=%u\\n", #v, (unsigned)(v))',
                "#define TRACE(v) SHOW(v)",
                '#define NOTE(x) do { printf("note %u %u\\n", d, (unsigned)(x)); '
                'mix(d + (x)); } while (0)',
                "#define OUT stdout",
                '#define FMT "%s %u\\n"',
                "#define DECL_U(n, e) unsigned n = (e)",
                "#define NEXT_IF(c) if (c) continue",
                "#define SLOT_OK(p) ((p) != NULL)"]
        if self.on("macro"):
            out.append("#define SEVEN 7u")
        if self.on("desig"):
            out += ["enum { EK = 2, EN = 4 };", "#define DN 5"]
        if self.on("bitfield"):
            out.append("struct B { unsigned lo : 3; unsigned mid : 7; int sg : 5; "
                       "unsigned hi : 17; };")
        if self.on("selfinit"):
            out.append("struct node { unsigned v; struct node *next; unsigned pad[5]; };")
        if self.on("arrparam"):
            out.append("typedef unsigned vec3[3];")
        if self.on("variadic"):
            out.append("#include <stdarg.h>")
        return "\n".join(out) + "\n" if out else ""

    def helper(self, name):
        """The text of helper function `name`."""
        tbl = self.tables[0] if self.tables else ("tbl", [])
        return {
            "chk": "RIP_ASYNC static int chk(unsigned v)\n{\n    rip_yield();\n"
                   "    return v % 8u == 0u ? -1 : (int)(v % 1000u);\n}\n",
            "chk0": "static int chk0(unsigned v)\n{\n"
                    "    return v % 8u == 0u ? -1 : (int)(v % 1000u);\n}\n",
            "loud": 'RIP_ASYNC static unsigned loud(unsigned v)\n{\n    printf("loud %u\\n", v);\n'
                    "    rip_yield();\n    return v;\n}\n",
            "slot": "static unsigned slots[8];\n\nRIP_ASYNC static unsigned *slot(unsigned v)\n{\n"
                    "    if (v % 4u == 0u)\n        return NULL;\n    rip_yield();\n"
                    "    return &slots[v % 8u];\n}\n",
            "alloc": "RIP_ASYNC static void *alloc(size_t n)\n{\n"
                     '    printf("alloc %u\\n", (unsigned)n);\n'
                     "    rip_yield();\n    return calloc(1, n);\n}\n",
            "pick": "static ufn *pick(unsigned k)\n{\n    return %s[k %% %du];\n}\n" % (
                tbl[0], len(tbl[1])),
            "apick": "RIP_ASYNC static ufn *apick(unsigned k)\n{\n    rip_yield();\n"
                     "    return %s[k %% %du];\n}\n" % (tbl[0], len(tbl[1])),
            "sub_task2": "static void sub_task2(void *arg)\n{\n    struct targ *t = arg;\n"
                         "    *t->out += t->v * 5u + 1u;\n    rip_yield();\n"
                         '    printf("sub2 %u\\n", *t->out);\n    rip_wg_done(t->wg);\n}\n',
            "sub_exit": "static void *sub_exit(void *arg)\n{\n    struct targ *t = arg;\n"
                        "    pyield();\n    *t->out += t->v * 7u + 3u;\n"
                        '    printf("subx %u\\n", *t->out);\n    pthread_exit(arg);\n}\n',
            "vsum": "static unsigned vsum(unsigned d, vec3 v)\n{\n    rip_yield();\n"
                    "    v[d % 3u] += 1u;\n    return v[0] + v[1] + v[2];\n}\n",
            "vadd": "RIP_ASYNC static unsigned vadd(unsigned n, ...)\n{\n    va_list ap;\n"
                    "    unsigned s = n, i;\n    rip_yield();\n    va_start(ap, n);\n"
                    "    for (i = 0; i < n; i++)\n        s = s * 31u + va_arg(ap, unsigned);\n"
                    "    va_end(ap);\n    rip_yield();\n    return s;\n}\n",
            "vfmt": "RIP_ASYNC static unsigned vfmt(const char *fmt, ...)\n{\n    va_list ap;\n"
                    "    char b[96];\n    int n;\n    va_start(ap, fmt);\n    rip_yield();\n"
                    "    rip_sleep_ms(0);\n    n = vsnprintf(b, sizeof b, fmt, ap);\n"
                    "    va_end(ap);\n    rip_yield();\n"
                    '    printf("vfmt %s\\n", b);\n    return (unsigned)n;\n}\n',
            "vqsum": "static unsigned vqsum(unsigned d, unsigned v[volatile restrict 3], "
                     "const unsigned w[static 3])\n{\n    unsigned s;\n    rip_yield();\n"
                     "    v[d % 3u] += w[0];\n    s = v[0] + w[1];\n    v = v + 1;\n"
                     "    rip_yield();\n    return s + v[1] + w[2];\n}\n",
        }[name]

    def fail_handler(self, ctx, out, ind, who, fk_at, fk_init):
        """TRY's `fail:` (and fk, read only there) when the function used TRY."""
        if not ctx.fail:
            return False
        out.insert(fk_at, ind + "unsigned fk = %s;" % fk_init)
        out.append("fail:")
        out.append(ind + 'printf("%s fail %%u\\n", fk);' % who)
        out.append(ind + "mix(fk);")
        return True

    # ---- functions and the program ------------------------------------

    def signature(self, i):
        ret = self.r.choice(["u", "u", "u", "i", "S", "void"])
        params = []
        for j in range(self.r.randint(1, 3)):
            params.append(("p%d" % j, self.r.choice(["u", "u", "i", "S", "uptr"])))
        return Fn(i, ret, params)

    def function(self, f, out):
        ctx = Ctx(f)
        self.budget = self.r.randint(8, 30)
        sysmacro = self.on("sysmacro") and self.chance(0.5)
        out.append(("__attribute_noinline__ " if sysmacro else "") + f.proto())
        out.append("{")
        ind = "    "
        if f.name in self.statics_of:
            out.append(ind + "static unsigned %s = %du;" % (self.statics_of[f.name], self.r.randint(0, 9)))
        for n, k in f.params:
            ctx.declare(Var(n, k, "param" if k == "uptr" else "rw"))
        scratch = ["t%d" % j for j in range(self.r.randint(1, 3))]
        out.append(ind + "unsigned %s;" % ", ".join(s + " = 0u" for s in scratch))
        for s in scratch:
            ctx.declare(Var(s, "u", "scratch"))
        out.append(ind + "if (fuel == 0u)")
        out.append(ind + "    return%s;" % {"u": " 0u", "i": " 0", "S": " zs", "void": ""}[f.ret])
        out.append(ind + "fuel--;")
        fk_at = len(out)
        shown = [(n, k) for n, k in f.params if k in ("u", "i")]
        out.append(ind + 'printf("%s d%%u%s\\n", d%s);' % (
            f.name, "".join(" %u" if k == "u" else " %d" for _, k in shown),
            "".join(", " + n for n, _ in shown)))
        self.block(ctx, out, ind, self.budget, 0)
        for n, k in f.params:
            out.append(ind + {"u": "mix(%s);", "i": "mix((unsigned)%s);", "S": "mix(%s.a + %s.arr[1]);",
                              "uptr": "mix(*%s);"}[k].replace("%s", n))
        for s in scratch:
            out.append(ind + "mix(%s);" % s)
        if f.name in self.statics_of:
            out.append(ind + "mix(%s);" % self.statics_of[f.name])
        out.append(ind + self.ret_stmt(ctx))
        if self.fail_handler(ctx, out, ind, f.name, fk_at, "d * 2654435761u + %du" % f.index):
            if f.ret != "void":
                out.append(ind + "return %s;" % {"u": "0u", "i": "-1", "S": "zs"}[f.ret])
        out.append("}")
        out.append("")

    def program(self):
        r = self.r
        nf = r.randint(3, 7)
        self.fns = [self.signature(i) for i in range(nf)]
        if not any(f.simple() for f in self.fns):
            j = r.randrange(nf)
            self.fns[j] = Fn(j, "u", [("p0", "u")])
        simple = [f.name for f in self.fns if f.simple()]
        if self.posix:
            self.plain_safe = set(simple)
        self.tables = []
        self.tables_used = set()
        if len(simple) >= 1 and self.chance(0.6):
            self.tables.append(("tbl", simple))
        elif self.on("callcall"):   # pick()(x) indexes the table
            self.tables.append(("tbl", simple))
        self.statics = {}
        self.statics_of = {}
        for f in self.fns:
            if self.chance(0.4):
                self.statics_of[f.name] = "st%d" % f.index
                self.statics["st%d" % f.index] = f.name
        sub = r.choice(simple)
        k = ", ".join("%du" % r.choice([0, 1, 2, 3, 7, 15, 16, 31, 100, 255, 4095, 65535, 0x7fffffff,
                                        0x80000000, 0xfffffffe, 0xffffffff]) for _ in range(16))
        out = [(POSIX_PRELUDE if self.posix else PRELUDE)
               % {"seed": self.seed, "fuel": r.randint(100, 600), "k": k}]
        if self.posix:
            out[0] += POSIX_IO_EXTERNS if self.split else POSIX_IO
        if self.classes:
            out[0] = out[0].replace(" */\n", ", classes %s */\n" % ",".join(self.classes), 1)
            out.append(self.class_prelude())
        self.md_objects = []        # (name, kind) of objects multidecl declares
        if self.on("multidecl"):    # several functions in one declaration
            groups = {}
            for f in self.fns:
                groups.setdefault(f.ret, []).append(f)
            for fs in groups.values():
                declarators = [f.proto().split(" ", 2 + (fs[0].ret == "S"))[-1] for f in fs]
                if fs[0].ret != "void" and self.chance(0.5):    # and then an object
                    name = "md%d" % len(self.md_objects)
                    self.md_objects.append((name, fs[0].ret))
                    value = "%du" % r.randint(0, 9)
                    if fs[0].ret == "S":
                        value = "{%s, 0, 0u, {0u, 0u, 0u}}" % value
                    declarators.append("%s = %s" % (name, value))
                out.append("static %s %s;" % (ret_text(fs[0].ret), ", ".join(declarators)))
            for f in self.fns:      # declared again, through a function type
                if self.chance(0.3):
                    out.append("typedef %s %s_t(%s);" % (ret_text(f.ret), f.name,
                                                         f.proto().split("(", 1)[1][:-1]))
                    out.append("static %s_t %s;" % (f.name, f.name))
                elif self.chance(0.2):
                    out.append("static __typeof__(%s) %s;" % (f.name, f.name))
        else:
            for f in self.fns:
                out.append(f.proto() + ";")
        out.append("")
        for name, fns in self.tables:
            out.append("static ufn *const %s[%d] = {%s};" % (name, len(fns), ", ".join(fns)))
        out.append("")
        helpers_at = len(out)
        out.append("static void %ssub_task(void *arg)" % ("*" if self.posix else ""))
        out.append("{")
        out.append("    struct targ *t = arg;")
        out.append("    rip_yield();")
        out.append("    *t->out += t->d > 0u ? %s(t->d - 1u, t->v) : t->v;" % sub)
        if self.posix:  # a new thread's own thread-local count
            out.append('    printf("sub %u mixes %u\\n", *t->out, mixes);')
            out.append("    return NULL;")
        else:
            out.append('    printf("sub %u\\n", *t->out);')
            out.append("    rip_wg_done(t->wg);")
        out.append("}")
        out.append("")
        self.called.add(sub)
        for f in self.fns:
            self.function(f, out)
        ntask = r.randint(2, 4)
        for k in range(ntask):
            self.task(k, out)
        (self.posix_main if self.posix else self.start)(ntask, out)
        out[helpers_at:helpers_at] = [self.helper(h) for h in self.needed]
        text = "\n".join(out) + "\n"
        return self.posix_text(text) if self.posix else text

    def io_file(self):
        """--split: the text of the I/O file, POSIX_IO with its names
        external."""
        return POSIX_IO_INCLUDES % self.seed + re.sub(r"(?m)^static ", "", POSIX_IO)

    def posix_text(self, text):
        """--posix: rip.h's calls in `text` made plain POSIX ones (the
        helpers of POSIX_PRELUDE): rip_yield() a usleep(0) or a pipe round
        trip, rip_sleep_ms(0) a nanosleep, the bag a pipe; RIP_ASYNC goes
        (--posix finds what is async)."""
        r = random.Random(self.seed * 7 + 1)
        text = text.replace("RIP_ASYNC static", "static")
        text = re.sub(r"rip_yield\(\)", lambda m: r.choice(["(void)usleep(0)", "pyield()"]), text)
        text = re.sub(r"rip_sleep_ms\(0\)", lambda m: r.choice(["psleep()", "pyield()"]), text)
        text = text.replace("rip_chan_send(bag, ", "bput(").replace("rip_chan_recv(bag, ", "bget(")
        text = text.replace("static void sub_task2(void *arg)", "static void *sub_task2(void *arg)")
        text = text.replace('"sub2 %u\\n", *t->out);\n    rip_wg_done(t->wg);\n}',
                            '"sub2 %u\\n", *t->out);\n    return NULL;\n}')
        assert not re.search(r"\brip_(?:wg|chan|spawn|task_fn|run)\w*|RIP_", text), \
            re.search(r".*\b(?:rip_(?:wg|chan|spawn|task_fn|run)\w*|RIP_).*", text).group(0)
        return text

    def posix_main(self, ntask, out):
        """--posix: main starts the two servers, then runs the tasks one at a
        time (called, or a thread it joins), closes the servers and prints
        the checksum."""
        r = self.r
        threaded = [self.chance(0.5) for _ in range(ntask)]
        for k in range(ntask):
            if not threaded[k]:
                continue
            out.append("static void *task%d_thread(void *arg)" % k)
            out.append("{")
            out.append("    task%d(arg);" % k)
            out.append("    return NULL;")
            out.append("}")
            out.append("")
        out.append("int main(void)")
        out.append("{")
        out.append("    struct targ ts[%d];" % ntask)
        out.append("    unsigned outs[%d] = {0};" % ntask)
        out.append("    pthread_t srv, mb, th;")
        out.append("    if (io_open() != 0)")
        out.append("        return 1;")
        out.append("    if (pthread_create(&srv, NULL, server, NULL) != 0 || "
                   "pthread_create(&mb, NULL, mailbox, NULL) != 0)")
        out.append("        return 1;")
        for k in range(ntask):
            out.append("    ts[%d].id = %du; ts[%d].v = %du; ts[%d].d = 0u; ts[%d].out = &outs[%d]; ts[%d].wg = NULL;"
                       % (k, k, k, r.randint(0, 99), k, k, k, k))
            if not threaded[k]:
                out.append("    task%d(&ts[%d]);" % (k, k))
            else:
                out.append("    if (pthread_create(&th, NULL, task%d_thread, &ts[%d]) != 0 || "
                           "pthread_join(th, NULL) != 0)" % (k, k))
                out.append("        return 1;")
        out.append("    struct targ sub = {9u, 5u, 1u, &outs[0], NULL};")
        out.append("    if (pthread_create(&th, NULL, sub_task, &sub) != 0 || pthread_join(th, NULL) != 0)")
        out.append("        return 1;")
        out.append("    mix(ay(1u));")
        out.append("    mix(zz(2u));")
        out.append("    mix(rt(3u) + zs.a);")
        out.append("    mix(rc(4u));")
        for name, kind in self.md_objects:
            out.append("    mix((unsigned)%s%s);" % (name, ".a" if kind == "S" else ""))
        out.append("    close(rtp[0]);              /* the server reads its end */")
        out.append("    pthread_mutex_lock(&mbmu);")
        out.append("    mbstate = 3;                /* the mailbox closes */")
        out.append("    pthread_cond_%s(&mbcv);" % r.choice(["signal", "broadcast"]))
        out.append("    pthread_mutex_unlock(&mbmu);")
        out.append("    if (pthread_join(srv, NULL) != 0 || pthread_join(mb, NULL) != 0)")
        out.append("        return 1;")
        out.append('    printf("checksum %08x fuel %u mixes %u\\n", ck, fuel, mixes);')
        out.append("    return 0;")
        out.append("}")

    def task(self, k, out):
        ctx = Ctx(None)
        out.append("static void task%d(void *arg)" % k)
        out.append("{")
        ind = "    "
        out.append(ind + "struct targ *t = arg;")
        simple = [f for f in self.fns if f.simple()]
        if self.on("multidecl") and simple and self.chance(0.5):
            # a function declared between objects kept across suspensions
            out.append(ind + "unsigned d = %du, %s(unsigned d, unsigned p0), q0 = t->v, r = 0u;"
                       % (self.r.randint(1, 3), self.r.choice(simple).name))
        else:
            out.append(ind + "unsigned d = %du, q0 = t->v, r = 0u;" % self.r.randint(1, 3))
        out.append(ind + "(void)d;")
        out.append(ind + "struct S qs = {t->id, 2, 3u, {4u, 5u, t->v}};")
        out.append(ind + 'printf("task%d start %%u\\n", t->id);' % k)
        for name, kind in (("q0", "u"), ("qs", "S")):
            ctx.declare(Var(name, kind))
        ctx.declare(Var("r", "u", "scratch"))
        fk_at = len(out)
        self.budget = self.r.randint(2, 6)
        self.block(ctx, out, ind, self.budget, 2)
        if ctx.fail:
            out.append(ind + "goto tail;")
            self.fail_handler(ctx, out, ind, "task%d" % k, fk_at, "t->v * 2654435761u + %du" % k)
            out.append("tail:")
        want = [f for f in self.fns if f.name not in self.called]
        if k == 0:
            for f in want:
                if "uptr" in [kk for _, kk in f.params]:
                    ptrs = ["&q0", "&qs.a", "&qs.arr[1]"][:[kk for _, kk in f.params].count("uptr")]
                    out.append(ind + "(void)%s;" % self.call(ctx, f, 2, ptrs))
                else:
                    out.append(ind + "(void)%s;" % self.call(ctx, f, 2))
            for name, fns in self.tables:
                if name not in self.tables_used:
                    out.append(ind + "mix(%s[0](d, q0));" % name)
        out.append(ind + 'printf("task%d end %%u %%u\\n", t->id, r);' % k)
        out.append(ind + "mix(q0 + qs.a + qs.arr[2]);")
        out.append(ind + "mix(r);")
        if not self.posix:
            out.append(ind + "rip_wg_done(t->wg);")
        out.append("}")
        out.append("")

    def start(self, ntask, out):
        r = self.r
        out.append("static void start(void *arg)")
        out.append("{")
        out.append("    struct targ ts[%d];" % ntask)
        out.append("    unsigned outs[%d] = {0};" % ntask)
        out.append("    rip_wg *all = rip_wg_new();")
        out.append("    (void)arg;")
        out.append("    req = rip_chan_new(sizeof(unsigned), %d);" % r.choice([0, 0, 1, 2]))
        out.append("    rsp = rip_chan_new(sizeof(unsigned), %d);" % r.choice([0, 0, 1]))
        out.append("    bag = rip_chan_new(sizeof(unsigned), 1024);")
        out.append("    rip_spawn(server, NULL);")
        for k in range(ntask):
            out.append("    ts[%d].id = %du; ts[%d].v = %du; ts[%d].d = 0u; ts[%d].out = &outs[%d]; ts[%d].wg = all;"
                       % (k, k, k, r.randint(0, 99), k, k, k, k))
            out.append("    rip_wg_add(all, 1);")
            out.append("    rip_spawn(task%d, &ts[%d]);" % (k, k))
            if self.chance(0.3):
                out.append("    rip_yield();")
        out.append("    struct targ sub = {9u, 5u, 1u, &outs[0], all};")
        out.append("    rip_wg_add(all, 1);")
        out.append("    rip_spawn(sub_task, &sub);")
        out.append("    rip_wg_wait(all);")
        out.append("    mix(ay(1u));")
        out.append("    mix(zz(2u));")
        out.append("    mix(rt(3u) + zs.a);")
        for name, kind in self.md_objects:
            out.append("    mix((unsigned)%s%s);" % (name, ".a" if kind == "S" else ""))
        out.append("    rip_wg_free(all);")
        out.append("    rip_chan_close(req);")
        out.append('    printf("checksum %08x fuel %u\\n", ck, fuel);')
        out.append("}")
        out.append("")
        out.append("int main(void)")
        out.append("{")
        out.append("    return rip_run(start, NULL);")
        out.append("}")


def generate(seed, classes=ALL, posix=False):
    """The C text of program number `seed` with the construct `classes`
    (names of CLASSES; BASE for none); with `posix`, plain POSIX calls for
    ripcc --posix instead of rip.h's."""
    return Gen(seed, classes, posix).program()


def generate_split(seed, classes=ALL):
    """(program's file, I/O file): the --posix program of `seed` in two
    files, its pipes, servers and round trips in the second (POSIX_IO),
    which the first calls as plain externs (ripcc --posix rips the first
    again at the link, knowing which of them are async)."""
    g = Gen(seed, classes, True)
    g.split = True
    return g.program(), g.io_file()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("seed", type=int, nargs="?", default=1)
    ap.add_argument("--classes", default="all",
                    help="all (default), base, or a comma list of: %s; -NAME drops one"
                    % ", ".join(ALL))
    ap.add_argument("--list", action="store_true", help="describe the construct classes")
    ap.add_argument("--posix", action="store_true",
                    help="plain POSIX calls (pipes, a socketpair, pthreads) for ripcc --posix")
    ap.add_argument("--split", metavar="IO_FILE",
                    help="--posix, its pipes, servers and round trips written to IO_FILE")
    args = ap.parse_args()
    if args.list:
        for name, (weight, what) in CLASSES.items():
            print("%-10s %d  %s" % (name, weight, what))
        return 0
    try:
        classes = parse_classes(args.classes)
    except ValueError as e:
        ap.error(str(e))
    if args.split:
        main_text, io_text = generate_split(args.seed, classes)
        with open(args.split, "w") as f:
            f.write(io_text)
        sys.stdout.write(main_text)
    else:
        sys.stdout.write(generate(args.seed, classes, args.posix))
    return 0


if __name__ == "__main__":
    sys.exit(main())

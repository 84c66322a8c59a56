"""analysis.py -- which functions are async, and which cannot be.

A function is async when a declaration of it is marked RIP_ASYNC, when it
is defined in the user's files and calls an async function or calls
through a pointer of an async function type (RIP_ASYNC_FN), through the
call graph to a fixed point, or when it is defined here and used as a
value of an async function type (rip_task_fn for rip_spawn, a handler
table...).  Calls C never evaluates (sizeof f()) do not count.  `main` is
never async: it starts tasks, it is not one.

With --posix (POSIX mode, issue 22) the C library's blocking calls that
the runtime has cooperative forms of (blocking.POSIX_CALLS: read, write,
accept, sleep...) are async too -- the library's, declared in a system
header and not defined in the user's files -- and so is `main`, which
runs as the first task:

    int main(void) { char b[9]; return read(0, b, 9) < 0; }   -> main async (calls 'read')

A function used as a plain function pointer (a signal handler, a qsort
comparator) does not become async through those calls: it stays plain and
they stay the C library's (in a handler they block only that), `pinned`
says where.  The exception is pthread_create's start routine, named
directly: a thread is a task, so the routine is async, whatever it calls
(`start_routines`), and pthread_create is given its frame constructor.
The pthread calls that may wait (blocking.POSIX_PTHREAD_WAITS: join, a
mutex lock...) are async like the other POSIX calls.

    RIP_ASYNC void rip_yield(void);
    static void helper(void) { rip_yield(); }       -> async (calls one)
    static void task(void *a) { helper(); }         -> async (calls helper)
    static void pure(void *a) { }                   -> async if rip_spawn(pure, ...)
    int main(void) { return rip_run(task, 0); }     -> not async

`also_async` (ripcc's link under --posix, wholeprogram.py) names functions
that another object of the program defines async: each declared here and
defined nowhere in the file is async as if its declaration were marked
RIP_ASYNC, so that this file calls it as one.

    int serve(int fd);                          (also_async: serve -> server.o)
    int main(void) { return serve(0); }         -> calls serve's constructor

With --all-async (a testing mode) every function defined in the user's
files is ripped as well, except those that cannot be, each with the reason
(`plain_reasons`); they keep their plain definitions, and so does every
ripped function: plain callers call the plain one.
"""

from . import abi, blocking, tree as T
from .evaluation import callee_name, calls

JMP_HINT = "a suspension would leave the saved stack behind; restructure with return codes"
UNRIPPABLE_CALLS = {
    "alloca": "allocate with malloc and free before returning",
    "__builtin_alloca": "allocate with malloc and free before returning",
    "__builtin_alloca_with_align": "allocate with malloc and free before returning",
}
for _name in ("setjmp", "_setjmp", "__setjmp", "sigsetjmp", "__sigsetjmp", "savectx",
              "__builtin_setjmp", "longjmp", "_longjmp", "__longjmp", "siglongjmp",
              "__longjmp_chk", "__builtin_longjmp", "getcontext", "setcontext", "swapcontext",
              "vfork", "__builtin_apply", "__builtin_return"):
    UNRIPPABLE_CALLS[_name] = JMP_HINT
UNRIPPABLE_CALLS["__builtin_return_address"] = UNRIPPABLE_CALLS["__builtin_frame_address"] = \
    "a ripped function runs in a resume entry, whose frame and caller are the scheduler's"
for _name in ("__builtin_va_arg_pack", "__builtin_va_arg_pack_len"):
    UNRIPPABLE_CALLS[_name] = "they forward the arguments of an inlined call, which a " \
        "ripped function is not; pass a va_list instead"
CONSTRUCTOR_ATTRS = ("constructor", "destructor")
# glibc's macros that rename a call as the user writes it (`setjmp(env)` is
# `_setjmp (env)` once preprocessed): a message names what the user wrote.
WRITTEN_AS = {"_setjmp": "setjmp", "__sigsetjmp": "sigsetjmp", "__builtin_alloca": "alloca",
              "__longjmp_chk": "longjmp"}


def written_callee(lines, call, known=UNRIPPABLE_CALLS):
    """The callee of `call` (a named one) as the user wrote it, quoted for
    a message: its name, or the library's macro that makes it (one of
    `known`, or its WRITTEN_AS), or its name in the expansion of the
    user's own macro.

        setjmp(env)     (glibc: _setjmp (env))       -> "'setjmp'"
        SAVE(env)       (#define SAVE(e) setjmp(e))  -> "'setjmp' (in the expansion of macro 'SAVE')"
    """
    name = callee_name(call)
    _, macro = lines.place_of_name(call.callee.start, name)
    if macro is None:
        return "'%s'" % name
    if macro == WRITTEN_AS.get(name) or macro in known:
        return "'%s'" % macro
    return "'%s' (in the expansion of macro '%s')" % (WRITTEN_AS.get(name, name), macro)


def runs_outside_main(f):
    """"constructor" or "destructor" when Function f carries that
    attribute (the C library calls it before or after main), else None."""
    for name in CONSTRUCTOR_ATTRS:
        if any(a.strip() == name or a.startswith(name + "(") for a in f.attrs):
            return name
    return None

# Functions of the C library that gcc knows as builtins (its manual, "Other
# Built-in Functions"): it may fold, expand or replace their calls (floor of
# a float becomes floorf).  --all-async leaves a file's own definition of
# one plain, so that its calls stay calls gcc may treat that way.
LIBRARY_BUILTINS = frozenset("""
abort abs acos acosf acosh acoshf acoshl acosl alloca asin asinf asinh asinhf asinhl asinl
atan atan2 atan2f atan2l atanf atanh atanhf atanhl atanl bcmp bzero cabs cabsf cabsl cacos
cacosf cacosh cacoshf cacoshl cacosl calloc carg cargf cargl casin casinf casinh casinhf
casinhl casinl catan catanf catanh catanhf catanhl catanl cbrt cbrtf cbrtl ccos ccosf ccosh
ccoshf ccoshl ccosl ceil ceilf ceill cexp cexpf cexpl cimag cimagf cimagl clog clogf clogl
conj conjf conjl copysign copysignf copysignl cos cosf cosh coshf coshl cosl cpow cpowf
cpowl cproj cprojf cprojl creal crealf creall csin csinf csinh csinhf csinhl csinl csqrt
csqrtf csqrtl ctan ctanf ctanh ctanhf ctanhl ctanl dcgettext dgettext drem dremf dreml erf
erfc erfcf erfcl erff erfl exit exp exp10 exp10f exp10l exp2 exp2f exp2l expf expl expm1
expm1f expm1l fabs fabsf fabsl fdim fdimf fdiml ffs floor floorf floorl fma fmaf fmal fmax
fmaxf fmaxl fmin fminf fminl fmod fmodf fmodl fprintf fprintf_unlocked fputs fputs_unlocked
free frexp frexpf frexpl fscanf gamma gammaf gammal gettext hypot hypotf hypotl ilogb ilogbf
ilogbl imaxabs index isalnum isalpha isascii isblank iscntrl isdigit isgraph islower isprint
ispunct isspace isupper iswalnum iswalpha iswblank iswcntrl iswdigit iswgraph iswlower
iswprint iswpunct iswspace iswupper iswxdigit isxdigit j0 j0f j0l j1 j1f j1l jn jnf jnl
labs ldexp ldexpf ldexpl lgamma lgammaf lgammal llabs llrint llrintf llrintl llround
llroundf llroundl log log10 log10f log10l log1p log1pf log1pl log2 log2f log2l logb logbf
logbl logf logl lrint lrintf lrintl lround lroundf lroundl malloc memchr memcmp memcpy
mempcpy memset modf modff modfl nearbyint nearbyintf nearbyintl nextafter nextafterf
nextafterl nexttoward nexttowardf nexttowardl pow pow10 pow10f pow10l powf powl printf
printf_unlocked putchar puts realloc remainder remainderf remainderl remquo remquof remquol
rindex rint rintf rintl round roundf roundl scalb scalbf scalbl scalbln scalblnf scalblnl
scalbn scalbnf scalbnl scanf signbit signbitf signbitl signbitd32 significand significandf
significandl sin sincos sincosf sincosl sinf sinh sinhf sinhl sinl snprintf sprintf sqrt
sqrtf sqrtl sscanf stpcpy stpncpy strcasecmp strcat strchr strcmp strcpy strcspn strdup
strfmon strlen strncasecmp strncat strncmp strncpy strndup strnlen strpbrk strrchr strspn
strstr tan tanf tanh tanhf tanhl tanl tgamma tgammaf tgammal toascii tolower toupper
towlower towupper trunc truncf truncl vfprintf vfscanf vprintf vscanf vsnprintf vsprintf
vsscanf y0 y0f y0l y1 y1f y1l yn ynf ynl
execl execle execlp execv execve execvp
__printf_chk __fprintf_chk __vprintf_chk __vfprintf_chk __sprintf_chk __snprintf_chk
__vsprintf_chk __vsnprintf_chk __memcpy_chk __memmove_chk __mempcpy_chk __memset_chk
__stpcpy_chk __stpncpy_chk __strcat_chk __strcpy_chk __strncat_chk __strncpy_chk
""".split())
FOLDABLE_ATTRS = ("pure", "const", "__pure__", "__const__")


def is_async_call(call, async_names):
    """Does Call `call` call an async function (by name or through a
    pointer of an async function type)?"""
    name = callee_name(call)
    if name is not None:
        return name in async_names
    t = call.callee.value_type
    return t is not None and t.async_fn


def function_values(root):
    """Refs to functions under `root` that use the function as a value,
    not as the callee of a call."""
    for n in root.nodes():
        if isinstance(n, T.Ref) and n.what == "fn":
            use = value_use(n)
            p = use.parent
            if not (isinstance(p, T.Call) and use is p.callee):
                yield n


def value_use(ref):
    """The outermost node that is `ref` behind parentheses and `&`."""
    use = ref
    while isinstance(use.parent, T.Paren) or \
            (isinstance(use.parent, T.Unary) and use.parent.op == "&"):
        use = use.parent
    return use


def _value_site(ref):
    """(the node that stands for function `ref` used as a value, the node it
    is in): through parentheses, `&` and the arms of ?:."""
    use = value_use(ref)
    p = use.parent
    while isinstance(p, T.Cond) and use is not p.cond:     # deep ? grow : leaf
        use, p = p, p.parent
        while isinstance(p, T.Paren):
            use, p = p, p.parent
    return use, p


def value_argument_of(ref):
    """(call, index) when function `ref`, used as a value, is argument
    `index` (from 0) of `call`, else None.

        qsort(v, 3, sizeof v[0], cmp)  ->  (<the qsort call>, 3)
    """
    use, p = _value_site(ref)
    if isinstance(p, T.Call) and use is not p.callee:
        return p, p.args.index(use)
    return None


def value_destination(ref, functions):
    """The type a function used as a value is converted to, or None when
    ripper cannot tell (a variadic argument, a comparison...)."""
    use, p = _value_site(ref)
    if p is None:
        return None
    if isinstance(p, T.VarDecl) and use is p.init:
        return p.ctype
    if isinstance(p, T.Assign) and p.op == "=" and use is p.rhs:
        return p.lhs.type
    if isinstance(p, T.Cast):
        return p.type
    if isinstance(p, T.Return):
        f = enclosing_function(p, functions)
        return f.result if f is not None else None
    if isinstance(p, T.Call) and use is not p.callee:
        i = p.args.index(use)
        params = _callee_params(p, functions)
        if params is not None and i < len(params):
            return params[i]
        return None
    if isinstance(p, T.Designated) and use is p.value:
        return _init_member(p.parent, p, functions)
    if isinstance(p, T.InitList):
        return _init_member(p, use, functions)
    return None


def _callee_params(call, functions):
    name = callee_name(call)
    if name is not None:
        f = functions.get(name)
        if f is not None and f.prototyped:
            return f.param_types
    t = call.callee.value_type
    return t.params if t is not None else None


def _init_member(init_list, item, functions):
    """The type of the member or element `item` of `init_list` initializes."""
    t = init_list.type if isinstance(init_list, T.InitList) else None
    if t is None or not t.members:
        return None
    if t.members[0][0] == "":                 # an array: its element
        return t.members[0][1]
    if isinstance(item, T.Designated):
        if not item.names or item.designators:
            return None
        return next((m for name, m in t.members if name == item.names[0]), None) \
            if len(item.names) == 1 else None
    items = init_list.items
    i = items.index(item)
    if any(isinstance(x, T.Designated) for x in items[:i + 1]):
        return None
    return t.members[i][1] if i < len(t.members) else None


def enclosing_function(node, functions):
    while node is not None and node.parent is not None:
        node = node.parent
    for f in functions.values():
        if f.body is node:
            return f
    return None


def unrippable(f, lines):
    """(node, message, hint) for the first construct that keeps function
    `f` from being ripped, or None; `lines` (the unit's LineMap) names a
    call as the user wrote it."""
    if runs_outside_main(f):
        return (f.body, "'%s' runs as a %s, before or after main, where nothing may "
                "suspend" % (f.name, runs_outside_main(f)),
                "keep it plain: move what suspends out of it")
    for n in f.body.nodes():
        if isinstance(n, T.Call) and callee_name(n) in UNRIPPABLE_CALLS:
            return (n, "%s in async function '%s'" % (written_callee(lines, n), f.name),
                    UNRIPPABLE_CALLS[callee_name(n)])
        if isinstance(n, T.IndirectGoto) or (isinstance(n, T.Opaque) and
                                             n.what == "label address"):
            return (n, "labels as values in async function '%s'" % f.name,
                    "use a switch on an int instead of computed goto")
        if isinstance(n, T.VarDecl) and n.storage not in ("static", "extern") and n.cleanup:
            return (n, "cleanup attribute on local '%s' of async function '%s'"
                    % (n.name, f.name), "cleanup would run at every suspension: move the "
                    "variable to a plain function")
        if isinstance(n, (T.VarDecl, T.ParamDecl)) and n.ctype is not None and \
                n.ctype.align > abi.MAX_ALIGN and \
                getattr(n, "storage", "") not in ("static", "extern"):
            return (n, "'%s' needs %d-byte alignment, more than frames give (%d), in async "
                    "function '%s'" % (n.name, n.ctype.align, abi.MAX_ALIGN, f.name),
                    "allocate it with aligned_alloc and keep a pointer")
        if isinstance(n, T.VarDecl) and n.storage == "register" and n.asm_register:
            return (n, "local register variable '%s' (bound to a register) in async function "
                    "'%s'" % (n.name, f.name), "a frame cannot keep a register: move the asm "
                    "that needs it into a plain function")
        if isinstance(n, T.VarDecl) and n.storage not in ("static", "extern") and \
                (n.alignment > abi.MAX_ALIGN or n.alignment < 0):
            return (n, "local '%s' asks for an alignment above 16 (or one ripper cannot read), "
                    "in async function '%s'" % (n.name, f.name),
                    "frames are 16-aligned: allocate it with aligned_alloc and keep a pointer")
    for p in f.params:
        if p.ctype is not None and p.ctype.vm:
            return (p, "parameter '%s' of a variably modified type, in async function '%s'"
                    % (p.name, f.name), "pass a plain pointer and the size")
    if f.result is not None and f.result.align > abi.MAX_ALIGN:
        return (f.body, "async function '%s' returns a %d-byte aligned type; frames give %d"
                % (f.name, f.result.align, abi.MAX_ALIGN), "return a pointer instead")
    return None


def variably_modified(decl):
    """Does declaration `decl` (in a DeclStmt) declare a variably modified
    variable or type, whose scope no jump may enter?"""
    if isinstance(decl, T.VarDecl):
        return decl.ctype is not None and decl.ctype.vm and decl.storage != "extern"
    if isinstance(decl, T.TypeDecl):
        return any(x.role == "size" and _not_constant(x) for x in decl.type_exprs)
    return False


def _not_constant(node):
    return any(isinstance(n, T.Call) or (isinstance(n, T.Ref) and n.what == "var")
               for n in node.walk())


class Analysis:
    """The async functions of a unit, and for --all-async the reasons the
    others stay plain."""

    def __init__(self, unit, all_async=False, posix=False, also_async=None):
        self.unit = unit
        self.all_async = all_async
        self.posix = posix          # --posix: the C library's blocking calls are async, and main
        self.also_async = also_async or {}  # name -> the object that defines it async
        self.functions = {}         # name -> Function: its definition if any, else a declaration
        for f in unit.functions:
            if f.definition or f.name not in self.functions:
                self.functions[f.name] = f
        self.defined = {f.name: f for f in unit.functions
                        if f.definition and not f.system and f.body is not None}
        self.plain = {}             # --all-async: name -> why it stays plain
        self.posix_calls = self.library_posix_calls() if posix else set()
        self.pinned = {}            # --posix: function -> where it is used as a plain pointer
        self.outside_main = set()   # --posix: constructors and destructors (pinned)
        self.start_routines = {}    # --posix: function -> where pthread_create starts it (a task)
        self.extern_start_routines = set()  # --posix: start routines defined in another file
        self.posix_renames = self.library_names(blocking.POSIX_PTHREAD) if posix else set()
        self.plainable = set()      # --posix: defined functions whose plain form can stay
        self.names = self.find()
        # --posix: async functions that keep their plain definition beside
        # the ripped one, for plain pointers and other files' plain code
        self.plain_copies = (self.names & self.plainable) if posix else set()

    def make_plain(self, name, why):
        """--all-async: `name` cannot be ripped after all; it stays plain."""
        self.plain[name] = why
        self.names.discard(name)

    def library_posix_calls(self):
        """--posix: the names of blocking.POSIX_CALLS (and the pthread calls
        that wait) the user's functions call (or name) that are the C
        library's: declared in a system header, defined nowhere in the
        user's files."""
        return self.library_names(blocking.POSIX_CALLS + blocking.POSIX_PTHREAD_WAITS, False)

    def library_names(self, names, globals_too=True):
        """Those of `names` the user's functions (and globals) name that
        are the C library's functions.

            library_names(("pthread_join",)) -> {"pthread_join"} when main calls it
        """
        system = {f.name for f in self.unit.functions if f.system}
        out = set()
        for body in [f.body for f in self.defined.values()] + \
                (list(self.unit.globals) if globals_too else []):
            for n in body.nodes():
                if isinstance(n, T.Ref) and n.what == "fn" and n.name in names \
                        and n.name in system and n.name not in self.defined \
                        and n.name not in self.also_async:   # the program's, not the library's
                    out.add(n.name)
        if "fcntl" in out and not blocking.fcntl_waits(self.unit, self.defined.values()):
            out.discard("fcntl")    # no F_SETLKW written: every fcntl returns at once
        return out

    def find_extern_start_routines(self, bodies):
        """--posix: functions pthread_create starts that another file
        defines (ripped async there, or plain: the link tells), named here
        only as start routines (a call here would need the one or the other).

            void *w(void *);  ...  pthread_create(&t, 0, w, 0);  -> {"w"}
        """
        refs = {}
        for body in bodies:
            for n in body.nodes():
                if isinstance(n, T.Ref) and n.what == "fn" and n.name not in self.defined:
                    refs.setdefault(n.name, []).append(n)
        return {name for name, found in refs.items()
                if all(self.start_routine_of(r) is not None for r in found)}

    def start_routine_of(self, ref):
        """--posix: the pthread_create call (the C library's) that `ref`, a
        function used as a value, is the start routine of, or None.

            pthread_create(&t, 0, worker, 0)  -> that call, for the Ref `worker`
        """
        if "pthread_create" not in self.posix_renames:
            return None
        use = value_use(ref)
        p = use.parent
        if isinstance(p, T.Call) and callee_name(p) == "pthread_create" and \
                len(p.args) == 4 and p.args[2] is use:
            return p
        return None

    def find(self):
        """The async names, each with the reason in `self.why`."""
        unit = self.unit
        lines = unit.lines
        why = self.why = {}

        def at(node):
            name, line, _ = lines.where(node.start)
            if name == unit.path:
                return "line %d" % line
            return "%s:%d" % (name.rsplit("/", 1)[-1], line)
        result = set(self.posix_calls)
        for name in self.posix_calls:
            why[name] = "a blocking call of the C library (--posix)"
        if self.posix and "main" in self.defined:
            result.add("main")
            why["main"] = "runs as the first task (--posix)"
        for f in unit.functions:
            if f.marked_async:
                result.add(f.name)
                why.setdefault(f.name, "marked RIP_ASYNC (%s)" % at(f))
            elif f.name in self.also_async and f.name not in self.defined and not f.static:
                result.add(f.name)
                why.setdefault(f.name, "is async in %s, another object of the program"
                               % self.also_async[f.name])
        if self.all_async:
            for name, f in self.defined.items():
                found = unrippable(f, unit.lines)
                if found:
                    self.plain[name] = found[1]
                elif name in LIBRARY_BUILTINS:
                    self.plain[name] = "a C library function gcc may replace by its builtin"
                elif any(a.strip() in FOLDABLE_ATTRS for a in f.attrs):
                    self.plain[name] = "a pure or const function, whose calls gcc may fold"
                else:
                    result.add(name)
                    why.setdefault(name, "--all-async")
        bodies = [f.body for f in self.defined.values()] + list(unit.globals)
        if self.posix:
            self.extern_start_routines = self.find_extern_start_routines(bodies)
            for name, f in self.defined.items():
                if runs_outside_main(f) and name != "main":
                    # the C library calls it before or after main, outside
                    # any task: plain, as a plain pointer's function (what
                    # it calls keeps a plain form, or it is refused)
                    self.pinned.setdefault(name, "a %s (%s)" % (runs_outside_main(f), at(f)))
                    self.outside_main.add(name)
        for body in bodies:
            for ref in function_values(body):
                dest = value_destination(ref, self.functions)
                if self.posix and ref.name in self.defined and self.start_routine_of(ref):
                    self.start_routines.setdefault(ref.name, at(ref))
                    result.add(ref.name)
                    why.setdefault(ref.name, "a thread's start routine (%s), a task under "
                                   "--posix" % at(ref))
                    continue
                if self.posix and dest is not None and not dest.async_fn and \
                        ref.name in self.defined:
                    self.pinned.setdefault(ref.name, "a plain function pointer takes it, %s"
                                           % at(ref))
                if dest is not None and dest.async_fn and ref.name in self.defined:
                    result.add(ref.name)
                    why.setdefault(ref.name, "used as a value of async type '%s' (%s)"
                                   % (dest.spelling, at(ref)))
        callees = {}
        for name, f in self.defined.items():
            made = calls(f.body)
            callees[name] = [(callee_name(c), c) for c in made if callee_name(c) is not None]
            through = [c for c in made if callee_name(c) is None and is_async_call(c, result)]
            if through and (name != "main" or self.posix):
                result.add(name)
                why.setdefault(name, "calls through a pointer of an async type (%s)"
                               % at(through[0]))
        if self.posix:
            self.plainable = self.find_plainable(callees)
            # what a plain pointer's function calls runs where it does (a
            # thread, a handler): plain too, its stdio the library's, unless
            # it must be async for more than stdio (then it is, as before)
            stdio = set(blocking.POSIX_STDIO)
            beyond = self.async_beyond_stdio(result - stdio, callees, stdio)
            changed = True
            while changed:
                changed = False
                for name, made in callees.items():
                    if name not in self.pinned or name in self.outside_main:
                        continue
                    for callee, call in made:
                        if callee in self.defined and callee not in self.pinned and \
                                callee != "main" and callee not in beyond:
                            self.pinned[callee] = "plain code calls it, %s" % at(call)
                            changed = True
        changed = not self.all_async
        while changed:
            changed = False
            for name, made in callees.items():
                if name in result or (name == "main" and not self.posix):
                    continue
                call = next((c for callee, c in made if callee in result and
                             not (name in self.pinned and self.has_plain_form(callee))), None)
                if call is not None:
                    result.add(name)
                    why[name] = "calls async '%s' (%s)" % (callee_name(call), at(call))
                    changed = True
        return result

    def find_plainable(self, callees):
        """--posix: the functions defined here (main aside) whose plain
        definition can stay beside their ripped one: those that call no
        async function without a plain form (one through a pointer of an
        async type, rip.h's own, one defined here that has none).  A
        plain pointer, and another file's plain function, then take the
        plain form of an async function:

            void log_msg(const char *m) { write(log_fd, m, strlen(m)); }  /* async */
            struct { void (*h)(const char *); } table[] = {{log_msg}};
         -> log_msg stays as written for table[0].h, and rip__new_log_msg is
            its ripped form for tasks' calls."""
        out = {n for n in self.defined if n != "main"}
        for name, f in self.defined.items():
            for c in calls(f.body):
                callee = callee_name(c)
                if callee is None:
                    if is_async_call(c, ()):
                        out.discard(name)       # through a pointer of an async type
                elif callee not in self.defined and not self.has_plain_form(callee):
                    g = self.functions.get(callee)
                    if callee in self.also_async or (g is not None and g.marked_async):
                        out.discard(name)       # rip.h's, or another file's, ripped form only
        changed = True
        while changed:
            changed = False
            for name in sorted(out):
                if any(callee in self.defined and callee not in out for callee, _ in
                       callees.get(name, ())):
                    out.discard(name)
                    changed = True
        return out

    def has_plain_form(self, name, dropped=frozenset()):
        """--posix: may a plain function call `name` (async or not) as
        written: the C library's blocking call (caught at run time), a
        function of this file with a plain form (less the plain copies
        lowering `dropped`: Lowering.drop_unshareable_plain_copies), or
        another file's async one (the link tells whether it has one)?

            has_plain_form("read") -> True, where the file calls libc's read"""
        return name in self.posix_calls or (name in self.plainable and name not in dropped) or \
            (name in self.also_async and name not in self.defined and
             getattr(self.also_async[name], "plain", True))

    def async_beyond_stdio(self, seeds, callees, stdio):
        """--posix: the functions that would be async were stdio not (the
        call graph from `seeds`, the C library's other calls included)."""
        out = set(seeds)
        changed = True
        while changed:
            changed = False
            for name, made in callees.items():
                if name in out or name == "main":
                    continue
                if any(c in out and c not in stdio and
                       not (name in self.pinned and c in self.posix_calls) for c, _ in made):
                    out.add(name)
                    changed = True
        return out

    def chain(self, name):
        """Why `name` is async, through the call graph: "f calls g (line 3);
        g is marked RIP_ASYNC (line 1)"."""
        out, seen = [], set()
        while name in self.why and name not in seen:
            seen.add(name)
            reason = self.why[name]
            out.append("'%s' %s" % (name, reason))
            if not reason.startswith("calls async '"):
                break
            name = reason.split("'")[1]
        return "; ".join(out)

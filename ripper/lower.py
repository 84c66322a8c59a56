"""lower.py -- the ripped file: every async function and every declaration
of one, edited in the preprocessed text.

Each async function defined in the file becomes its frame, constructor
and resume entry (frame.py, printing its body with printer.py), in place
of its definition (--all-async: beside it, its plain definition kept, its
static locals moved to file scope so both share them).  Every declaration
of an async function gains its constructor's prototype and a typedef of
its result type; RIP_ASYNC_FN types become constructor types; code that is
not ripped has async functions used as values turned into their
constructors, and async calls C never evaluates reduced to their type.

    RIP_ASYNC int twice(int a);     ->  int twice(int a); typedef __typeof__(int)
                                        rip__result_twice; struct rip__frame *rip__new_twice(int a);
    rip_spawn(task, 0);   (in main) ->  rip_spawn(rip__new_task, 0);

What cannot be ripped is a diagnostic, never wrong code.
"""

import gc
import os
import re

from . import __version__, abi, blocking, runtime
from . import tree as T
from .analysis import (function_values, is_async_call, unrippable, value_argument_of,
                       value_destination, written_callee)
from .diag import Diagnostic
from .emit import ENCODING, Rewriter
from .evaluation import callee_name, calls, walk_marked
from .frame import AsyncFunction, unevaluated_async_calls
from .scan import declarator_start, matching_paren, params_open, semicolon_after, skip_blank

# rip.h reserves every name starting `rip__`: ripper's own names are there
# (abi.py), so they are the only names of the user's it refuses.
RESERVED = re.compile(r"^rip__\w*$")
RESERVED_HINT = "rename it: rip.h reserves every name starting 'rip__' for ripper"


def lower(unit, analysis, all_async=False, stats=None, keep=True):
    """A Rewriter holding every edit that rips `unit`; raise Diagnostic
    for what cannot be ripped.  With all_async, every ripped function
    yields once on entry and keeps its plain definition beside, and an
    async `main` runs as the first task; a function that turns out not to
    be rippable stays plain (analysis.make_plain) and the unit is ripped
    again.  `stats`, a list, receives a FrameStats per async function.
    The one driver of the passes after analysis: ripping and every
    `ripper --stage` read what it made (rw.lowering.ripped; with keep
    False, that stays empty: each function's normalized tree and layout
    go once its text is made, which ripping alone never reads again)."""
    while True:
        try:
            return _Lowering(unit, analysis, all_async,
                             stats if stats is not None else [], keep).run()
        except LeftPlain as left:
            # (names and messages only: a Diagnostic's traceback holds the pass)
            plain = [(d.function, d.message) for d in left.diagnostics]
        # every ripped function keeps its plain definition anyway; all
        # those found in one pass go at once, so a file is ripped about
        # twice, however many stay plain
        for name, message in plain:
            analysis.make_plain(name, message)
        if stats is not None:
            del stats[:]
        # the pass's edits and functions, cycles the collector (off while
        # ripping) would never free: freed now, the next pass reuses them
        gc.collect()


def lower_thread_locals(unit):
    """A Rewriter giving each task its own copy of every file-scope
    thread-local of `unit` and nothing else (_Lowering.thread_locals_only):
    ripcc --posix on ucontext, whose tasks share their OS thread's."""
    return _Lowering(unit, _NO_ASYNC, False, []).thread_locals_only()


class _NoAsync:
    """The analysis of a unit nothing of which is ripped (lower_thread_locals)."""
    names = frozenset()             # no async function
    functions = {}                  # none looked up


_NO_ASYNC = _NoAsync()


class LeftPlain(Exception):
    """--all-async: the functions of one pass that cannot be ripped (a
    Diagnostic each, its `function` named)."""

    def __init__(self, diagnostics):
        super().__init__(diagnostics[0].message)
        self.diagnostics = diagnostics


class _Lowering:
    def __init__(self, unit, analysis, all_async, stats, keep=True):
        self.unit = unit
        self.keep = keep            # keep each AsyncFunction in `ripped` (ripper --stage)
        self.text = unit.text
        self.analysis = analysis
        self.names = analysis.names
        self.all_async = all_async
        self.stats = stats
        self.rw = Rewriter(unit.pre)
        self.functions = analysis.functions
        self.typedefs = set()       # async functions whose result typedef is emitted
        self.hoisted = {}           # key of a static local -> its file-scope name (--all-async)
        self.hoisted_tags = set()   # tags their declarations moved to file scope (hoist)
        self.hoisted_constants = set()  # enumerators they moved there
        self.first_declared = {}    # function name -> start of its first file-scope declaration
        for g in unit.functions:
            self.first_declared.setdefault(g.name, g.start)
        self.fn_typedefs = set()    # async functions whose function type has a name
        self.declared = set()       # async functions whose constructor is declared so far
        self.prototypes = {}        # async function -> its constructor's file-scope parameter lists so far
        self._va_thunked = {}       # variadic async function -> va_thunked()
        self.ripped = {}            # name -> its AsyncFunction, normalized and laid out
        self.tls_keys = {}          # --posix: Ref key of each thread-local variable -> its name
        self.plain_copies = set()   # --posix: async functions whose plain definition stays
        self.no_plain_form = {}     # --posix: async function -> why its plain one cannot stay
        self.declared_extern_starts = set()     # those given their weak declarations
        self.extern_creates = set()     # --posix: callee offsets of pthread_create calls
                                        # whose start routine another file defines
        self._evaluated_names = None    # functions named where C evaluates (needs_unused_mark)

    def error(self, node, message, hint=None):
        offset = node if isinstance(node, int) else node.start
        name, line, _ = self.unit.lines.where(max(offset, 0))
        span = None             # an expression's text: ^~~~ under all of it, as gcc's
        if isinstance(node, T.Expr) and not isinstance(node, T.Call) and \
                0 <= node.start < node.end:     # (a call: its name, as gcc)
            text = self.unit.lines.text[node.start:node.end]
            span = None if b"\n" in text else text.decode("utf-8", "replace")
        d = Diagnostic(name, line, self.unit.lines.column(max(offset, 0)), message, hint,
                       span=span)
        # the function it is in, for gcc's "In function 'f':" before it
        d.function = next((f.name for f in self.unit.functions
                           if f.definition and f.start <= offset < f.end), None)
        return d

    def run(self):
        self.check_names()
        self.plain_copies = self.drop_unshareable_plain_copies() if self.analysis.posix else set()
        if self.analysis.posix or self.all_async:
            self.refuse_rip_run()
        if self.analysis.posix:
            self.refuse_unread_also_async()
            self.refuse_pre_c99_scanf()
            self.check_start_routines()
            self.thread_locals_per_task()
        for start, name_at, annotations in self.unit.async_typedefs:
            self.async_typedef(start, name_at, annotations)
        groups = _declaration_groups(self.unit.functions)
        errors = []                 # every function's, reported together
        left_plain = []             # --all-async: functions that must stay plain
        for group in groups:
            first = group[0]
            try:
                if first.definition and first.body is not None and not first.system:
                    if first.name in self.names:
                        self.async_definition(first)
                    else:
                        self.plain_definition(first)
                else:
                    self.declarations(group)
                    continue
                # what lowering the definition left behind, cycles the
                # collector (off while ripping) would keep to the end
                gc.collect(0)
            except Diagnostic as d:
                if self.all_async:
                    if d.function not in self.names:
                        raise
                    left_plain.append(d)    # lower() leaves it plain and rips again
                    continue
                if first.name in self.names and d.why is None:
                    d.why = "'%s' is async: %s" % (first.name, self.analysis.chain(first.name))
                errors.append(d)
        if left_plain:
            raise LeftPlain(left_plain)
        if errors:
            raise errors[0].with_others(errors[0].others + [x for e in errors[1:]
                                                            for x in [e] + e.others])
        for g in self.unit.globals:
            self.plain_edits(g)
        main = self.analysis.defined.get("main")
        if main is not None and "main" in self.names:
            self.main_task(main)
        self.rw.insert(len(self.text), [("\n" + abi.check() + "\n" + self.declarations_note(),
                                         None)])
        self.rw.lowering = self     # for ripper --stage (stages.py)
        return self.rw

    def declarations_note(self):
        """Where each function this file calls, without defining it or
        knowing it async, is declared: a string in the object's .rip_decls
        section.  Should the function be async in another file, the link
        fails, and ripcc names the declaration that lacks RIP_ASYNC.

        The text is a list of characters, not a string literal: a string
        holding header paths soon passes the 509 characters C90 compilers
        must support (4095 in C99), which -pedantic warns about.

            int count_to(int);  ...  count_to(3)  ->
            static const char rip__decls[] ... = {'c','o',...,'3','\\000'};"""
        called = {callee_name(c) for f in self.analysis.defined.values()
                  for c in calls(f.body)}
        seen, entries = set(), []
        for f in self.unit.functions:
            if f.system or f.definition or f.name not in called or f.name in self.names or \
                    f.name in self.analysis.defined:
                continue
            path, line, _ = self.unit.lines.where(f.name_at)
            where = "%s %s:%d" % (f.name, path, line)
            if not runtime.is_runtime_header(path) and where not in seen:
                seen.add(where)
                entries.append(where)
        if not entries:
            return ""
        data = b"".join(e.encode("utf-8", "surrogateescape") + b"\0" for e in entries)
        return ('static const char rip__decls[] __attribute__((used, unused, '
                'section(".rip_decls"))) = {%s};\n' % _c_char_list(data))

    # -- names ----------------------------------------------------------------

    def refuse_pre_c99_scanf(self):
        """--posix: the scanf family runs glibc's C99 vfscanf on rip; a file
        whose <stdio.h> gives the older one (C89 with _GNU_SOURCE: its
        fscanf is not renamed __isoc99_fscanf, and `%as` allocates) would
        convert otherwise than its plain build, so it is an error.

            #define _GNU_SOURCE  (-std=gnu89)  fscanf(f, "%as", &s);  -> error
        """
        scans = self.analysis.posix_calls & set(blocking.POSIX_SCANF)
        if not scans:
            return
        renamed = {f.name for f in self.unit.functions
                   if f.system and f.name in scans and f.asm_label}
        for f in self.unit.functions:      # ripped functions' (plain code's is wrapped: both kinds)
            if f.body is None or f.system or f.name not in self.names:
                continue
            for n in f.body.nodes():
                if isinstance(n, T.Ref) and n.what == "fn" and n.name in scans \
                        and n.name not in renamed:
                    raise self.error(n, "'%s' is the C library's scanf from before C99 here (C89 "
                                     "with _GNU_SOURCE, where %%as allocates), which --posix does "
                                     "not map" % n.name,
                                     hint="build with -std=gnu99 or later (or without "
                                     "_GNU_SOURCE): its scanf then converts as C99 says")

    def constructor(self, name):
        """The frame constructor a call of async function `name` calls: its
        own, or under --posix for the C library's read (and the other
        blocking.POSIX_CALLS) the runtime's rip_posix_read's.

            constructor("f") -> "rip__new_f";  constructor("read") -> "rip__new_rip_posix_read"
        """
        if name in self.analysis.posix_calls:
            name = blocking.POSIX_PREFIX + name
        return abi.constructor(name)

    def thread_locals_per_task(self):
        """--posix: a thread is a task, and every task runs on one thread,
        so a __thread (_Thread_local) variable becomes one copy per task:
        its declaration loses the keyword (the variable itself stays, as
        the copies' initial value and as the copy used outside any task),
        a slot `rip__tls_NAME` follows it, and every use of NAME reads the
        current task's copy (tls_access).  One declared in a function is
        refused (it would need a slot of its own there).

            __thread int n = 1;  ->  int n = 1; void *rip__tls_n;
            n++;                 ->  (*(__typeof__(n) *)rip_posix_tls(&rip__tls_n, &n, ...))++;
        """
        unit = self.unit
        for name, offset in unit.block_thread_locals:
            if not runtime.is_runtime_header(unit.lines.where(offset)[0]):
                raise self.error(offset, "thread-local variable '%s' declared in a function, "
                                 "under --posix" % name,
                                 hint="declare it at file scope (static __thread): ripper "
                                 "gives each task its own copy of those")
        self.tls_keys = {}          # Ref key of a thread-local variable -> its name
        stripped = set()
        for i, tl in enumerate(unit.thread_locals):
            if tl.keyword < 0:
                raise self.error(tl.name_at, "thread-local variable '%s': ripper cannot find "
                                 "its __thread or _Thread_local keyword, under --posix"
                                 % tl.name, hint="write the keyword in the declaration")
            self.tls_keys["var:%d" % tl.name_at] = tl.name
            if i == 0:
                self.rw.insert(tl.start, [("void *rip_posix_tls(void **, const void *, "
                                           "__typeof__(sizeof 0), __typeof__(sizeof 0)); ", None)])
            if tl.keyword not in stripped:      # `__thread int a, b;`: one keyword
                stripped.add(tl.keyword)
                self.rw.replace(tl.keyword, tl.keyword_end, [])
            slot = "static " if tl.storage == "static" else \
                "" if tl.definition else "extern "
            end = semicolon_after(self.text, tl.end)
            self.rw.insert(end, [(" %svoid *rip__tls_%s;" % (slot, tl.name), None)])

    def thread_locals_only(self):
        """ripcc --posix on ucontext (ripper --posix-tls-only): only what
        thread_locals_per_task does, every use of a file-scope thread-local
        in the file's code reaching the current task's copy; no function is
        ripped, the rest of the text stays as the preprocessor gave it.

            __thread int n = 1; ... n++;  ->  int n = 1; void *rip__tls_n; ...
                                              (*(__typeof__(n) *)rip_posix_tls(&rip__tls_n, ...))++;
        """
        self.thread_locals_per_task()
        for root in [f.body for f in self.unit.functions
                     if f.definition and f.body is not None and not f.system] + \
                list(self.unit.globals):
            skip = []
            for n in root.nodes():
                self.tls_use(n, skip)
        return self.rw

    def tls_use(self, n, skip):
        """If node `n` names a thread-local variable (thread_locals_per_task)
        and lies in no edit of `skip` ((start, end) pairs), make it the
        current task's copy, add it to `skip` and return True.

            tls_use(<Ref n>, [])  ->  True, `n` now tls_access("n")"""
        if isinstance(n, T.Ref) and n.key in self.tls_keys and \
                not any(s <= n.start and n.end <= e for s, e in skip):
            self.rw.replace(n.start, n.end, [(self.tls_access(n.name), None)])
            skip.append((n.start, n.end))
            return True
        return False

    def tls_access(self, name):
        """The current task's copy of thread-local variable `name`, an lvalue.

            tls_access("n") -> "(*(__typeof__(n) *)rip_posix_tls(&rip__tls_n, &n, sizeof(n), ...))"
        """
        return ("(*(__typeof__(%s) *)rip_posix_tls(&rip__tls_%s, &%s, sizeof(%s), "
                "__alignof__(%s)))" % (name, name, name, name, name))

    def renamed(self, name):
        """--posix: the runtime's function a plain call or use of the C
        library's pthread function `name` goes to (blocking.POSIX_PTHREAD),
        else None.

            renamed("pthread_mutex_unlock") -> "rip_posix_pthread_mutex_unlock"
        """
        if name in self.analysis.posix_renames:
            return blocking.POSIX_PREFIX + name
        return None

    def renamed_at(self, ref):
        """renamed(ref.name) for Ref `ref`: a pthread_create whose start
        routine another file defines goes to pthread_create_extern, which
        takes both the routine's frame constructor and its plain function,
        weak references, whichever that file has."""
        if ref.name == "pthread_create" and ref.start in self.extern_creates:
            return blocking.POSIX_PREFIX + "pthread_create_extern"
        return self.renamed(ref.name)

    def renamed_prototype(self, name):
        """The declaration of renamed(name), spelled from the library's
        declaration in scope (pthread_create's start routine is a frame
        constructor in ripped code).

            renamed_prototype("pthread_self") -> "__typeof__(pthread_self) rip_posix_pthread_self;"
        """
        if name == "pthread_create":
            return ("int %spthread_create(pthread_t *, const pthread_attr_t *, %s *(*)(void *), "
                    "void *); int %spthread_create_extern(pthread_t *, const pthread_attr_t *, "
                    "%s *(*)(void *), void *(*)(void *), void *); int %spthread_create_plain("
                    "pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);"
                    % (blocking.POSIX_PREFIX, abi.FRAME_T, blocking.POSIX_PREFIX, abi.FRAME_T,
                       blocking.POSIX_PREFIX))
        # __typeof__ keeps no attribute: a plain pthread_exit must stay
        # noreturn (-Wreturn-type in a start routine's plain form)
        return "%s__typeof__(%s) %s;" % ("__attribute__((__noreturn__)) "
                                         if name == "pthread_exit" else "",
                                         name, self.renamed(name))

    def check_names(self):
        """The names ripper generates must not be the user's: they start
        `rip__`, which rip.h reserves, and a user's name there is refused.
        Any other name is the user's to choose (`int rip_F, rip_t1;`)."""
        for f in self.unit.functions:
            if not f.system and RESERVED.match(f.name):
                raise self.error(f.name_at, "'%s' is a name ripper reserves" % f.name,
                                 hint=RESERVED_HINT)
        for name, offset in self.unit.global_names:
            path = self.unit.lines.where(offset)[0]
            if not RESERVED.match(name) or runtime.is_runtime_header(path):
                continue
            if os.path.basename(path) == "rip.h":
                raise self.error(offset, "%s is not the rip.h of ripper %s (another version's?)"
                                 % (path, __version__),
                                 hint="compile against ripper's own: its folder is printed "
                                      "by `ripcc --print-include-dir`")
            raise self.error(offset, "'%s' is a name ripper reserves" % name, hint=RESERVED_HINT)
        for f in self.analysis.defined.values():
            for n in list(f.params) + f.body.nodes():
                if isinstance(n, (T.VarDecl, T.ParamDecl, T.Label)) and RESERVED.match(n.name):
                    raise self.error(n, "'%s' is a name ripper reserves" % n.name,
                                     hint=RESERVED_HINT)

    def refuse_unread_also_async(self):
        """--posix, ripped again at the link: a call of another file's
        async function through a declaration ripper does not read (one
        inside a function, an implicit one) would call its plain form
        from a task, where its waits could not suspend."""
        also = self.analysis.also_async
        for f in self.analysis.defined.values():
            if f.name not in self.names:
                continue            # plain code: the plain form serves its calls
            for call in calls(f.body):
                name = callee_name(call)
                if name in also and name not in self.names and name not in self.analysis.defined:
                    raise self.error(call, "'%s' is async in %s, but this call names it "
                                     "through a declaration ripper does not read" % (name,
                                                                                    also[name]),
                                     hint="declare '%s' at file scope, with a prototype, "
                                     "before its calls (not inside a function, nor "
                                     "implicitly)" % name)

    # -- declarations -------------------------------------------------------

    def remove_annotations(self, ranges):
        """RIP_ASYNC's annotate attribute means nothing to the compiler
        (gcc would warn): `__attribute__((annotate("rip_async")))` becomes
        `__attribute__(())`."""
        for a, b in ranges:
            self.rw.replace(a, b, [])

    def declarations(self, group):
        """Declarations (not definitions) of functions, one declaration:
        each async one gains its constructor's prototype after the whole
        declaration, objects it declares too:

            int f(int a), a;  ->  int f(int a), a; typedef ... struct rip__frame *rip__new_f(int a);"""
        lines = []
        for f in group:
            if f.system and self.renamed(f.name):
                lines.append(self.renamed_prototype(f.name))
            if f.name in self.analysis.extern_start_routines and \
                    f.name not in self.declared_extern_starts:
                self.declared_extern_starts.add(f.name)
                lines.append("extern %s *%s(void *) __attribute__((weak)); extern "
                             "__typeof__(%s) %s __attribute__((weak));"
                             % (abi.FRAME_T, abi.constructor(f.name), f.name, f.name))
            if f.name not in self.names:
                continue
            lines.append(self.prototype_text(f))
        if not lines:
            return
        declarators = self.unit.declarators.get(group[0].start) or \
            [T.Declarator(f.name, f.name_at, f.start, f.end, True) for f in group]
        end = semicolon_after(self.text, max(d.end for d in declarators))
        kept = {f.name for f in group if f.name in self.analysis.defined and self.keeps_plain(f)}
        gone = {f.name for f in group if f.name in self.names and f.name not in kept}
        if any(f.static for f in group) and gone and not group[0].system:
            # a static function declared but never defined is a warning: the
            # declarators of the async ones without a plain definition go
            # (--posix keeps some, not others), the others stay
            self.remove_declarators(declarators, group, end, gone)
            self.rw.insert(end, [(" " + " ".join(lines), None)])
            return
        for f in group:
            if not f.system:
                self.remove_annotations(f.annotations)
        self.rw.insert(end, [(" " + " ".join(lines), None)])

    def remove_declarators(self, declarators, group, end, names):
        """The declarators of functions `names` out of a file-scope
        declaration ending at `end` (after its ';'), the rest left as
        written: `static int f(int), g(int), a;` ({"f"}) -> `static int
        g(int), a;`; the whole declaration when nothing is left."""
        gone = [d.function and d.name in names for d in declarators]
        if all(gone):
            self.rw.replace(declarators[0].start, end, [])
            return
        starts = [declarator_start(self.text, d) for d in declarators]
        removed = []
        last_kept = max(i for i, g in enumerate(gone) if not g)
        for i, d in enumerate(declarators):
            if not gone[i]:
                continue
            if i < last_kept:       # `f(int), ` up to the next declarator
                removed.append((starts[i], starts[i + 1]))
            else:                   # `, g(int)` after the last one kept
                removed.append((declarators[i - 1].end, d.end))
        for a, b in removed:
            self.rw.replace(a, b, [])
        for f in group:
            self.remove_annotations([(a, b) for a, b in f.annotations
                                     if not any(x <= a < y for x, y in removed)])

    def prototype_text(self, f, block_scope=False):
        """`typedef T rip__result_f; struct rip__frame *rip__new_f(params);` for a
        declaration of async function f (the typedef at its first
        file-scope declaration)."""
        params = self.params_text(f)
        out = [] if block_scope else self.type_names(f, params)
        static = "static " if f.static else ""
        if block_scope or not self.prototyped(f.name):
            out.append("%s%s *%s%s;" % (static, abi.FRAME_T, self.constructor(f.name),
                                        self.constructor_params(f, params)))
        if not block_scope:
            self.declared.add(f.name)
            self.prototypes.setdefault(f.name, []).append(params)
        return " ".join(out)

    def va_thunked(self, f):
        """Is function f's `...` passed through a thunk (abi.VA_THUNK)?  A
        variadic async function of the user's is; one the runtime declares
        (rip_posix_fcntl), or the C library's that --posix maps to one
        (fcntl), takes its arguments as written."""
        if not f.variadic or f.name in self.analysis.posix_calls:
            return False            # (a header of the user's may say it is a system one)
        if f.name not in self._va_thunked:
            self._va_thunked[f.name] = not self.runtime_declared(f)
        return self._va_thunked[f.name]

    def consumes_va_list(self, name):
        """Does the async function `name` read a va_list it is given before
        its constructor returns?  The runtime's do (--posix's vfprintf
        formats at the call); the user's may read it after a suspension."""
        f = self.functions.get(name) if name else None
        return f is not None and (f.system or self.runtime_declared(f))

    def runtime_declared(self, f):
        """Is f declared in the runtime's headers (rip.h, rip_posix.h)?"""
        where = self.unit.lines.where(f.start)[0]
        return os.path.realpath(where).startswith(os.path.realpath(runtime.INCLUDE) + os.sep)

    def constructor_params(self, f, params):
        """abi.constructor_params where f's arguments go through a thunk."""
        return abi.constructor_params(f, params) if self.va_thunked(f) else params

    def prototyped(self, name):
        """Has a file-scope prototype of async function `name`'s constructor
        been written?  Then its type is fixed, and another is a
        -Wredundant-decls warning (`int f();` declares none: `()`)."""
        return any("".join(p.split()) != "()" for p in self.prototypes.get(name, ()))

    def type_names(self, f, params):
        """At the first file-scope declaration of async function f: names
        for its result type and its function type, spelled where file scope
        means them, so no type of the same name in a block can hide them:
        `typedef __typeof__(int) rip__result_f; typedef __typeof__(int)
        rip__fn_f(int a);`."""
        if f.name in self.typedefs:
            return []
        self.typedefs.add(f.name)
        result = "void" if f.result is None or f.result.void else \
            "__typeof__(%s)" % f.result.spelling
        out = [] if result == "void" else ["typedef %s %s;" % (result,
                                                              abi.result_typedef(f.name))]
        if f.prototyped:
            out.append("typedef %s %s%s;" % (result, abi.function_typedef(f.name), params))
            self.fn_typedefs.add(f.name)
        return out

    def params_text(self, f, decl=None):
        """The parameter list of async function f's constructor, for its
        declaration `decl` (a Function or a block's FuncDecl; f's own by
        default): `(int a, char *b)` as the declaration writes it, or
        spelled from f's type when the declaration names a function type
        (`typedef int ft(int); ft f;` -> `(__typeof__(int))`)."""
        decl = f if decl is None else decl
        if not decl.own_params:
            return self.params_of_type(f, decl)
        i = params_open(self.text, decl)
        j = matching_paren(self.text, i)
        if j < 0:
            raise self.error(decl.name_at, "cannot find the parameter list of '%s'" % f.name)
        return self.text[i:j + 1].decode(*ENCODING)

    def params_of_type(self, f, decl):
        """f's parameters spelled from its type: `(__typeof__(int), ...)`."""
        if not f.prototyped:
            return "()"
        types = f.param_types
        if any(t is None or t.local for t in types):
            raise self.error(decl.name_at, "async function '%s' declared through a type whose "
                             "parameters are of a type declared in a function, or unnamed"
                             % f.name, hint="declare its parameter types at file scope, "
                             "with names")
        out = ["__typeof__(%s)" % (t.in_prototype or t.spelling) for t in types] + \
            (["..."] if f.variadic else [])
        return "(%s)" % (", ".join(out) if out else "void")

    def async_typedef(self, start, name_at, annotations):
        """typedef RIP_ASYNC_FN(int, handler_fn, (int fd)) -- preprocessed to
        `typedef __attribute__((annotate("rip_async"))) int handler_fn (int fd)`
        -- becomes `typedef __attribute__(()) struct rip__frame *handler_fn (int fd)`."""
        a, b = annotations[-1]
        close = skip_blank(self.text, b)
        if self.text[close:close + 2] != b"))":
            raise self.error(a, "RIP_ASYNC_FN type written in an unexpected way",
                             hint="write typedef RIP_ASYNC_FN(ret, name, (params));")
        ret_start = close + 2
        paren = self.text.find(b"(", name_at)
        if paren >= 0 and b"..." in self.text[paren:matching_paren(self.text, paren) + 1]:
            raise self.error(name_at, "RIP_ASYNC_FN type with variadic parameters",
                             hint="a call through it could not pass the arguments again "
                             "at each resume: take a va_list or an array instead")
        paren = self.text.find(b"(", ret_start, name_at)
        ret_end = paren if paren >= 0 else name_at
        self.remove_annotations(annotations)
        self.rw.replace(ret_start, ret_end, [(" %s *" % abi.FRAME_T, None)])

    # -- plain functions ----------------------------------------------------

    def refuse_rip_run(self):
        """--posix, --all-async: main is the first task; a rip_run in the
        program would start a scheduler inside it.

            int main(void) { return rip_run(serve, 0); }   (--all-async) -> error at the call
        """
        mode = "--posix" if self.analysis.posix else "--all-async"
        for f in self.analysis.defined.values():
            for call in calls(f.body):
                if callee_name(call) in ("rip_run", "rip_run_workers"):
                    raise self.error(call, "'%s' under %s, where main runs as the first "
                                     "task already" % (callee_name(call), mode),
                                     hint="call the task's function directly, or start it "
                                     "with rip_spawn" + ("" if self.analysis.posix else
                                                         "; or build without --all-async "
                                                         "(a program written against rip.h "
                                                         "is ripped as it is)"))

    def check_start_routines(self):
        """--posix: refuse the pthread calls not mapped to tasks; and each
        pthread_create (the library's) starts a function named directly:
        this file's is ripped as a task's function, another file's goes
        to pthread_create_extern (renamed_at); a pointer ripper cannot
        follow could be a function that suspends, or one it must rip.

            pthread_create(&t, 0, fn, 0)  (fn a variable)  -> error at `fn`
        """
        for name in sorted(self.analysis.library_names(blocking.POSIX_PTHREAD_REFUSED)):
            ref = next(n for f in list(self.analysis.defined.values()) + self.unit.globals
                       for n in (f.body if hasattr(f, "body") else f).nodes()
                       if isinstance(n, T.Ref) and n.what == "fn" and n.name == name)
            raise self.error(ref, "'%s' under --posix, where threads are tasks: it is not "
                             "mapped to them" % name,
                             hint="the pthread calls --posix maps are listed in docs/posix.md; "
                             "use a mutex and a condition variable, or build without --posix")
        if "pthread_create" not in self.analysis.posix_renames:
            return
        for body in [f.body for f in self.analysis.defined.values()] + list(self.unit.globals):
            for call in calls(body):
                if callee_name(call) != "pthread_create" or len(call.args) != 4:
                    continue
                start = T.strip_parens(call.args[2])
                while isinstance(start, T.Unary) and start.op == "&":
                    start = T.strip_parens(start.operand)
                if isinstance(start, T.Ref) and start.what == "fn" and \
                        start.name in self.analysis.extern_start_routines:
                    self.extern_creates.add(T.strip_parens(call.callee).start)
                    continue
                if not (isinstance(start, T.Ref) and start.what == "fn" and
                        start.name in self.analysis.start_routines):
                    raise self.error(call.args[2], "pthread_create's start routine is not a "
                                     "function named directly, under --posix",
                                     hint="a thread is a task, whose function ripper rips: "
                                     "pass the name of the function (one defined in another "
                                     "file only as a start routine here)")

    def plain_definition(self, f):
        self.remove_annotations(f.annotations)
        for call in calls(f.body):
            if is_async_call(call, self.names) and not self.all_async and \
                    not self.has_plain_form(callee_name(call)):     # pinned: the library's
                callee = callee_name(call)
                if callee in self.no_plain_form and f.name in self.analysis.pinned:
                    raise self.error(call, "'%s', which stays plain (%s), "
                                     "calls async function '%s', whose plain definition "
                                     "cannot stay beside its ripped one: %s"
                                     % (f.name, self.analysis.pinned[f.name], callee,
                                        self.no_plain_form[callee]),
                                     hint="change '%s' so that it can (the reason above), or "
                                     "call it only from code that runs in a task" % callee)
                raise self.error(call, "'%s' calls async function '%s' outside a task"
                                 % (f.name, callee or "through a pointer"),
                                 hint="start the work as a task with rip_run or rip_spawn" +
                                 ("; %s" % self.analysis.chain(callee) if callee else ""))
        self.plain_edits(f.body)

    def plain_edits(self, root):
        """In code that is not ripped: async functions used as values become
        their constructors; async calls C never evaluates keep their type;
        block-scope declarations of async functions gain prototypes."""
        skip = []
        for call in unevaluated_async_calls(root, self.names):
            if any(s <= call.start and call.end <= e for s, e in skip):
                continue
            callee = self.unevaluated_callee(call)
            c = T.strip_parens(call.callee)
            if callee is not None:
                self.rw.replace(c.start, c.end, [(callee, None)])
                skip.append((c.start, c.end))
                continue
            # through a pointer: a call through a null variadic pointer, the
            # callee an argument: `(*(T (*)(int, ...))0)(0, callee, args)`
            open_ = self.text.find(b"(", call.callee.end)
            self.rw.insert(call.start, [(self.unevaluated_pointer(call) + "(0, ", None)])
            self.rw.replace(call.callee.end, open_ + 1, [(", " if call.args else "", None)])
        # pthread_create taken as a pointer: function_value's (its plain
        # form), not the named call's
        create_values = {id(r) for r in function_values(root) if r.name == "pthread_create"}
        for n in root.nodes():
            if self.tls_use(n, skip):
                continue
            if isinstance(n, T.Ref) and n.what == "fn" and self.renamed(n.name) and \
                    n.name not in self.analysis.posix_calls and id(n) not in create_values and \
                    not any(s <= n.start and n.end <= e for s, e in skip):
                self.rw.replace(n.start, n.end, [(self.renamed_at(n), None)])
                skip.append((n.start, n.end))
            elif isinstance(n, T.Call) and callee_name(n) in self.analysis.posix_calls and \
                    self.renamed(callee_name(n)):      # a pthread wait in a plain function
                c = T.strip_parens(n.callee)
                if not any(s <= c.start and c.end <= e for s, e in skip):
                    self.rw.replace(c.start, c.end, [(self.renamed(callee_name(n)), None)])
                    skip.append((c.start, c.end))
        for ref in function_values(root):
            if any(s <= ref.start and ref.end <= e for s, e in skip):
                continue
            text = self.function_value(ref)
            if text is not None:
                self.rw.replace(ref.start, ref.end, [(text, None)])
        for n in root.nodes():
            if isinstance(n, T.DeclStmt):
                protos = self.block_prototypes(n)
                if protos:
                    self.rw.insert(n.end, [(" " + protos, None)])

    def function_declarator(self, d):
        """For FuncDecl `d` in a block's declaration: the range of the
        declaration's specifiers and where d's own declarator begins.
        `int a = 1, *f(int);` -> (`int `, `*f(int)`)."""
        stmt = d.parent
        first = next(x for x in stmt.decls if isinstance(x, (T.VarDecl, T.FuncDecl)))
        specs_end = declarator_start(self.text, first)
        if any(isinstance(x, T.TypeDecl) and x.start < specs_end for x in stmt.decls):
            raise self.error(d, "function '%s' declared in a declaration that also defines a "
                             "type, in an async function" % d.name,
                             hint="declare the function in a declaration of its own")
        return (first.start, specs_end), declarator_start(self.text, d)

    def block_prototypes(self, decl_stmt):
        out = []
        for d in decl_stmt.decls:
            if isinstance(d, T.FuncDecl) and d.name in self.names:
                f = self.functions.get(d.name)
                if f is not None:
                    out.append("%s *%s%s;" % (abi.FRAME_T, self.constructor(d.name),
                                              self.constructor_params(f, self.params_text(f, d))))
        return " ".join(out)

    def function_value(self, ref):
        """The text an async function used as a value becomes, or None to
        leave it; raise when it goes where a plain pointer is expected."""
        name = ref.name
        dest = value_destination(ref, self.functions)
        if name in self.analysis.start_routines and self.analysis.start_routine_of(ref):
            return self.constructor(name)
        if name in self.analysis.extern_start_routines and self.analysis.start_routine_of(ref):
            return "%s, %s" % (abi.constructor(name), name)     # both: whichever is defined
        if name == "pthread_create" and self.renamed(name):
            # taken as a pointer: what it starts is a plain function (a
            # call through the pointer passes one), run as a task
            return blocking.POSIX_PREFIX + "pthread_create_plain"
        if self.renamed(name) and name not in self.analysis.posix_calls:
            return self.renamed(name)
        if name in self.analysis.posix_calls and name not in blocking.POSIX_PTHREAD_WAITS:
            return None     # the library's: caught at run time, or -Wblocking says (blocking.py)
        if name in self.analysis.posix_calls:
            # a pthread wait: the runtime's plain form (on rip it runs the
            # other tasks from inside the caller until the wait ends)
            return blocking.POSIX_PREFIX + name
        if name in self.names:
            if dest is not None and dest.async_fn:
                if self.functions[name].variadic:
                    raise self.error(ref, "variadic async function '%s' used as a value"
                                     % name, hint="call it by name, or give the pointer a "
                                     "function of fixed parameters (a va_list or an array)")
                return self.constructor(name)
            if (self.all_async and name in self.analysis.defined) or \
                    (self.analysis.posix and self.has_plain_form(name)):
                return None         # the plain definition stays
            if dest is None:
                raise self.error(ref, "async function '%s' used as a value where ripper "
                                 "cannot tell the type it becomes" % name,
                                 hint="assign it to a variable of a RIP_ASYNC_FN type first")
            message, hint = self.plain_pointer_refusal(ref, name, dest)
            raise self.error(ref, message, hint="%s; %s" % (hint, self.analysis.chain(name)))
        if dest is not None and dest.async_fn:
            raise self.error(ref, "'%s' is not async but is used as an async function ('%s')"
                             % (name, dest.spelling),
                             hint="mark its declaration RIP_ASYNC, or define it in this file")
        return None

    def plain_pointer_refusal(self, ref, name, dest):
        """(message, hint) for async function `name` (at `ref`) going where
        a plain function pointer of type `dest` is expected, in the terms
        of what the user wrote: the function it is passed to, and advice
        that fits it (a library's parameter is not the user's to change).

            rip_offload(work, arg)  -> ("async function 'work' passed to 'rip_offload', which
                                        runs it on another thread, where it cannot suspend", ...)
        """
        site = value_argument_of(ref)
        callee = callee_name(site[0]) if site else None
        if callee is None:
            return ("async function '%s' used where a plain function pointer ('%s') is "
                    "expected" % (name, dest.spelling),
                    "a function that may suspend cannot be called through a plain pointer: "
                    "declare the pointer's type with RIP_ASYNC_FN (rip.h), or use a plain "
                    "function")
        call, index = site
        written = written_callee(self.unit.lines, call, ())
        if callee == "rip_offload":
            return ("async function '%s' passed to %s, which runs it on another thread, "
                    "where it cannot suspend" % (name, written),
                    "rip_offload runs a plain blocking function (a disk read, getaddrinfo) on "
                    "a pool thread while the task waits: offload a plain function, and call "
                    "'%s' in the task itself" % name)
        f = self.functions.get(callee)
        if callee == "pthread_create":
            return ("async function '%s' passed to %s, whose new thread runs it as a plain "
                    "function, where it cannot suspend" % (name, written),
                    "start it as a task with rip_spawn, or give the thread a plain function "
                    "(under --posix, pthread_create starts a task)")
        if f is None or f.system:       # the library's: its parameter is not the user's
            return ("async function '%s' passed to %s, which calls it as a plain function"
                    % (name, written),
                    "%s is not ripped, and a function that may suspend cannot run inside it: "
                    "pass a plain function" % written)
        return ("async function '%s' passed to %s, whose parameter %d is a plain function "
                "pointer ('%s')" % (name, written, index + 1, dest.spelling),
                "declare that parameter with a RIP_ASYNC_FN type (rip.h), so that %s calls it "
                "as an async function, or pass a plain function" % written)

    def unevaluated_callee(self, call, type_name=None):
        """An async call C never evaluates (sizeof f(x)) keeps its arguments,
        which may name functions and variables nothing else names, and its
        type: its callee becomes a null pointer of the function's type,
        `sizeof (*(__typeof__(int (int)) *)0)(x)`, never called.  None for
        a call through a pointer, which keeps only the type of its value
        (unevaluated_pointer).  `type_name(ctype)` names a type where it
        is written (Printer.type_name, in an async function's body)."""
        callee = T.strip_parens(call.callee)
        name = callee_name(call)
        if name in self.fn_typedefs:
            return "(*(%s *)0)" % abi.function_typedef(name)
        if name is None or not isinstance(callee, T.Ref) or \
                callee.type is None or callee.type.local:
            return None
        return "(*(%s *)0)" % (type_name or _typeof)(callee.type)

    def unevaluated_pointer(self, call, type_name=None):
        """An async call through a pointer that C never evaluates becomes a
        call through a null pointer of a variadic function type with its
        result type, the callee and the arguments its arguments: the same
        type, the same names named, still a call (gcc's warnings see one)."""
        result = "void" if call.type is None or call.type.void else \
            self.result_type(call, type_name)
        return "(*(%s (*)(int, ...))0)" % result

    def result_type(self, call, type_name=None):
        """The type of an async call's value, spelled so that no local type
        of the same name can hide it."""
        name = callee_name(call)
        if name is not None and name in self.typedefs:
            return abi.result_typedef(name)
        return (type_name or _typeof)(call.type)

    # -- async functions ----------------------------------------------------

    def async_definition(self, f):
        try:
            found = unrippable(f, self.unit.lines)
            if found:
                node, message, hint = found
                raise self.error(node, message, hint=hint)
            keeps_plain = self.keeps_plain(f)
            statics = self.hoistable_statics(f) if keeps_plain else []
            fn = AsyncFunction(self, f)
            ripped = fn.lower()
            if self.keep:
                self.ripped[f.name] = fn
        except Diagnostic as d:
            d.function = f.name     # --all-async leaves it plain and tries again
            raise
        if keeps_plain or (self.all_async and f.name == "main"):
            self.remove_annotations(f.annotations)
            if statics:
                self.hoist(f, statics)
            if f.static:
                self.rw.insert(f.start, [("__attribute__((unused)) ", None)])
            if keeps_plain:
                self.plain_edits(f.body)
                self.rw.insert(f.end, [("\n", None)] + ripped)
                return
        self.rw.replace(f.start, f.end, ripped)

    def needs_unused_mark(self, f):
        """Does static async f's frame constructor need the unused attribute,
        for gcc not to warn that it is unused where the plain build does not
        warn (f kept plain beside it, or named only where C does not
        evaluate)?  Not when f is named where C evaluates: clang's
        -Wused-but-marked-unused (in cJSON's flags) would warn then.

            static RIP_ASYNC void task(void *);  ... rip_spawn(task, 0);  -> False
        """
        if self.keeps_plain(f):
            return True
        if self._evaluated_names is None:
            roots = [g.body for g in self.unit.functions if g.body is not None and
                     not g.system] + list(self.unit.globals)
            self._evaluated_names = {n.name for root in roots for n, runs in walk_marked(root)
                                     if runs and isinstance(n, T.Ref) and n.what == "fn"}
        return f.name not in self._evaluated_names

    def has_plain_form(self, name):
        """--posix: may plain code call `name` as written: a function not
        async, or Analysis.has_plain_form less the plain copies not kept?"""
        a = self.analysis
        return a.posix and (name not in self.names or
                            a.has_plain_form(name, a.plain_copies - self.plain_copies))

    def keeps_plain(self, f):
        """Does async f keep its plain definition beside the ripped one
        (--all-async; --posix, for plain pointers and other files' plain
        code: Analysis.plain_copies)?"""
        return f.name != "main" and (self.all_async or f.name in self.plain_copies)

    def drop_unshareable_plain_copies(self):
        """--posix: a plain copy whose static locals the two definitions
        could not share (hoistable_statics refuses) is not kept, nor one
        that calls it; a plain caller of one is then refused, by name."""
        copies = set(self.analysis.plain_copies)
        for name, where in self.analysis.also_async.items():
            if not getattr(where, "plain", True):
                self.no_plain_form[name] = "it has none in %s" % where
        hoisted = dict(self.hoisted)
        for name in sorted(copies):
            try:
                self.hoistable_statics(self.analysis.defined[name])
            except Diagnostic as d:
                copies.discard(name)
                self.no_plain_form[name] = d.message
        self.hoisted = hoisted      # async_definition hoists those it keeps
        changed = True
        while changed:
            changed = False
            for name in sorted(copies):
                callee = next((callee_name(c) for c in calls(self.analysis.defined[name].body)
                               if callee_name(c) in self.analysis.defined and
                               callee_name(c) in self.names and callee_name(c) not in copies),
                              None)
                if callee is not None:
                    copies.discard(name)
                    self.no_plain_form[name] = "it calls '%s', which has none" % callee
                    changed = True
        return copies

    def hoistable_statics(self, f):
        """--all-async: the static locals of f, which its plain and ripped
        definitions must share, named for file scope (hoist)."""
        stmts = [n for n in f.body.nodes() if isinstance(n, T.DeclStmt) and
                 any(isinstance(d, T.VarDecl) and d.storage == "static" for d in n.decls)]

        def inside(key):
            return key is not None and key.split(":")[0] in ("var", "const") and \
                f.start <= int(key.split(":")[1]) < f.end
        own = {d.key for n in stmts for d in n.decls if isinstance(d, T.VarDecl)}
        for n in stmts:
            # a struct, union or enum the declaration itself declares moves
            # with it (`static const struct { ... } table[] = {...};`)
            declared_here = [d for d in n.decls if isinstance(d, T.TypeDecl) and
                             d.what in ("STRUCT_DECL", "UNION_DECL", "ENUM_DECL")]
            for d in n.decls:       # the type first: it may be declared in this declaration
                if isinstance(d, T.VarDecl) and d.storage == "static" and \
                        (d.ctype is None or (d.ctype.local and not declared_here) or
                         d.block_typedefs):     # `typedef long long L; static L v;`
                    raise self.error(d, "static local '%s' of a type declared in '%s', which "
                                     "its plain and ripped definitions could not share"
                                     % (d.name, f.name))
            for d in n.decls:
                if (not isinstance(d, T.VarDecl) or d.storage != "static") and \
                        d not in declared_here:
                    raise self.error(n, "a declaration of static locals with others, in '%s'"
                                     % f.name)
            if declared_here:
                self.check_type_moves(f, n, declared_here[0])
            for x in n.walk():
                if isinstance(x, T.FuncName):
                    # at file scope __func__ names no function: "" (gcc warns)
                    raise self.error(x, "a static local's initializer names the function "
                                     "(__func__), in '%s': at file scope it would name none"
                                     % f.name)
                if isinstance(x, T.Ref) and inside(x.key) and x.key not in own:
                    raise self.error(x, "a static local's initializer names '%s', declared "
                                     "in '%s'" % (x.name, f.name))
                if isinstance(x, T.Ref) and x.what == "fn" and \
                        self.first_declared.get(x.key, f.start) >= f.start:
                    # `static int (*self)(int) = f;`: before f, nothing declares f
                    raise self.error(x, "a static local's initializer names function '%s', "
                                     "which nothing declares before '%s'"
                                     % (x.name, f.name))
        for n in stmts:
            for d in n.decls:
                if isinstance(d, T.VarDecl):
                    self.hoisted[d.key] = abi.hoisted_static(d.name_at, d.name)
        return stmts

    def check_type_moves(self, f, stmt, decl):
        """A type that static locals' declaration `stmt` declares (`decl`)
        may move to file scope with them only where it means there what it
        meant in f: its members name no type, object or enumerator of f's
        (`typedef long long L; static struct { L big[N]; } w;` would name
        file scope's L and N), and its tag
        and enumerators no other declaration of f's, of file scope's or of
        another function's moved there (in f, `struct T` and `A` would name
        an outer block's, which the moved declaration no longer hides)."""
        for d in stmt.decls:
            if isinstance(d, T.VarDecl) and (decl.foreign or
                                             not _declarable_at_file_scope(d.ctype)):
                raise self.error(d, "static local '%s' of a type that names what '%s' "
                                 "declares, which its plain and ripped definitions could not "
                                 "share" % (d.name, f.name))
        tags, names = set(self.hoisted_tags), self.unit.file_names | self.hoisted_constants
        names.update(p.name for p in f.params)
        for x in f.body.nodes():
            if isinstance(x, T.TypeDecl) and x is not decl:
                tags.update(x.tags)
                names.update(x.constants)
                if x.what == "TYPEDEF_DECL":
                    names.add(x.name)
            elif isinstance(x, (T.VarDecl, T.FuncDecl)):
                names.add(x.name)
        clash = [t for t in decl.tags if t in tags or t in self.unit.file_tags] + \
            [c for c in decl.constants if c in names]
        if clash:
            raise self.error(decl, "a static local's type declares '%s', which names another "
                             "declaration too, in '%s' or at file scope: the plain and ripped "
                             "definitions could not share it" % (clash[0], f.name))

    def hoist(self, f, stmts):
        """The static locals of f move before it, under file-scope names:
        its plain definition and its ripped one use the same objects."""
        out = []
        for n in stmts:
            for d in n.decls:
                if isinstance(d, T.TypeDecl):
                    self.hoisted_tags.update(d.tags)
                    self.hoisted_constants.update(d.constants)
            pos, text = n.start, []
            marks = sorted([(d.name_at, d.name_at + len(d.name.encode()), self.hoisted[d.key])
                            for d in n.decls if isinstance(d, T.VarDecl)] +
                           [(x.start, x.end, self.hoisted[x.key]) for x in n.walk()
                            if isinstance(x, T.Ref) and x.key in self.hoisted])
            for a, b, name in marks:
                text.append(self.text[pos:a].decode(*ENCODING) + name)
                pos = b
            text.append(self.text[pos:n.end].decode(*ENCODING))
            out.append("".join(text))
            self.rw.replace(n.start, n.end, [("", None)])     # no statement: c89 declarations may follow
        gone = [(n.start, n.end) for n in stmts] + \
            [(c.start, c.end) for c in unevaluated_async_calls(f.body, self.names)
             if self.unevaluated_callee(c) is None]     # replaced whole (plain_edits)
        for x in f.body.nodes():
            if isinstance(x, T.Ref) and x.key in self.hoisted and \
                    not any(a <= x.start < b for a, b in gone):
                self.rw.replace(x.start, x.end, [(self.hoisted[x.key], None)])
        self.rw.insert(f.start, [(" ".join(out) + "\n", None)])

    def main_task(self, main):
        """A new `main` that runs the ripped user main as the first task."""
        m, frame = abi.MAIN, abi.FRAME_T
        args = [m + "argc", m + "argv", m + "envp"][:len(main.params)]
        status = "0" if main.result is None or main.result.void else \
            abi.result_access("int")
        self.rw.insert(len(self.text), [("\n".join([
            "",
            "/* --all-async or --posix: the program's main runs as the first task. */",
            " ".join(["static int %sargc;" % m, "static char **%sargv;" % m,
                      "static char **%senvp;" % m][:len(args)]),
            "static int %sstatus;" % m,
            # the C library's exit, by a name of ripper's (no <stdlib.h> needed; clang has
            # no __builtin_exit)
            'extern void %sexit(int) __asm__("exit") __attribute__((__noreturn__));' % m
            if self.analysis.posix else "",
            "static int %sresume(%s *%s, %s *%s) {" % (m, frame, abi.SELF, frame, abi.DONE),
            "    if (%s->state == 0) {" % abi.SELF,
            "        %s->state = 1;" % abi.SELF,
            "        %s = %s(%s);" % (abi.DONE, abi.constructor("main"), ", ".join(args)),
            "        if (!%s(%s, %s))" % (abi.CALL, abi.SELF, abi.DONE),
            "            return 0;",
            "    }",
            "    %sstatus = %s;" % (m, status),
            "    %s(%s);" % (abi.FREE, abi.DONE),
            # --posix: a return from main ends the program, threads (tasks) or not
            "    %sexit(%sstatus);" % (m, m) if self.analysis.posix else "",
            "    return 1;",
            "}",
            # rip_dump_tasks: the first frame is ripper's, not the user's (file NULL: not shown)
            "static const struct rip__fninfo %sinfo __attribute__((__used__, __aligned__(8), "
            "__section__(\"%s\"))) = {%sresume, \"main\", 0, 0, 0};" % (m, abi.FNINFO_SECTION, m),
            "static %s *%stask(void *arg) {" % (frame, m),
            "    (void)arg;",
            "    return (%s *)%s(sizeof(%s), %sresume);" % (frame, abi.ALLOC, frame, m),
            "}",
            "int rip_run(%s *(*fn)(void *), void *arg);" % frame,
            # the user's own signature: a declaration of main may precede
            "int main(%s) {" % ["void", "int argc", "int argc, char **argv",
                                "int argc, char **argv, char **envp"][len(args)],
            "    %s" % " ".join(["%sargc = argc;" % m, "%sargv = argv;" % m,
                                 "%senvp = envp;" % m][:len(args)]),
            "    if (rip_run(%stask, 0) != 0)" % m,
            "        return 1;",
            "    return %sstatus;" % m,
            "}",
            ""]), None)])


def _c_char_list(data):
    """The bytes `data` as the initializers of a char array: character
    constants (octal escapes for what is not plain printable ASCII), no
    string literal and so no length a compiler warns about.

        _c_char_list(b"f a.c:1\\0") -> "'f',' ','a','.','c',':','1','\\000'"
    """
    return ",".join("'%s'" % chr(b) if 32 <= b <= 126 and chr(b) not in "'\\?" else
                    "'\\%03o'" % b for b in data)


def _declaration_groups(functions):
    """Function declarations grouped by the declaration they are part of
    (`int f(int), g(void);` is one), in order."""
    groups = []
    for f in functions:
        if groups and not f.definition and not groups[-1][0].definition and \
                groups[-1][0].start == f.start:
            groups[-1].append(f)
        else:
            groups.append([f])
    return groups


def _declarable_at_file_scope(ctype):
    """Can a static local of type `ctype`, declared in its own declaration
    (`static struct s { int a; } v[2];`), be declared at file scope: a
    struct, union or enum (the one its declaration declares), or arrays of
    or pointers to one?  Not a function pointer whose parameters are of a
    type of the function."""
    t, depth = ctype, 0
    while t is not None and depth < 30 and (t.array or t.canonical == "POINTER"):
        t = (t.members[0][1] if t.members else None) if t.array else t.pointee
        depth += 1
    return t is not None and (not t.local or t.canonical in ("RECORD", "ENUM"))


def _typeof(ctype):
    """`__typeof__(spelling)`, where no async function's typedefs are at
    hand (unevaluated async calls in a plain function's body)."""
    return "__typeof__(%s)" % ctype.spelling


"""parse.py -- C source to ripper's own syntax tree, through libclang.

The only module that imports clang.cindex.  Every later pass works on the
plain `Node`/`Function`/`Unit` data built here, so they can be read and
tested without libclang's cursor API.

    int f(int a) { return g(a); }

becomes a `Function` named "f" whose `body` is a Node tree

    COMPOUND_STMT
      RETURN_STMT
        CALL_EXPR name="g" ref="fn:g"
          DECL_REF_EXPR name="a" ref="var:<offset of a>"

with byte offsets into the main file (`start`, `end`), snapped outward to
whole macro invocations, so that replacing a node's text never cuts one.
"""

import ctypes
import functools
import os
import shutil
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from typing import List, Optional

import clang.cindex as ci

from .analysis import invocation_at
from .diag import Diagnostic

RIP_ASYNC_ANNOTATION = "rip_async"
# The binding's one kind name that breaks its own UPPER_CASE pattern.
KIND_NAMES = {"StmtExpr": "STMT_EXPR"}
# How deep the syntax tree of a function may nest.  Passes recurse on it,
# and some take time quadratic in the depth: a limit keeps both in bounds.
MAX_NESTING = 2000


@dataclass
class TypeInfo:
    spelling: str       # as clang spells it: "const char[3]", "int (*)(int)"
    unqualified: str    # without top-level const/volatile (a frame field's type)
    kind: str           # clang TypeKind name: "INT", "CONSTANTARRAY", "VOID", ...
    local: bool         # names a type declared in a function, or an unnamed one
    async_fn: bool = False  # an async function type (RIP_ASYNC_FN typedef) or a pointer to one
    assignable: bool = True  # `x = y` works: no const member in a struct or union
    size: int = -1          # bytes (clang's layout for the target), -1 if unknown
    align: int = -1         # alignment in bytes, -1 if unknown
    canonical_kind: str = ""  # TypeKind of the canonical type: "CONSTANTARRAY", "RECORD"...
    members: Optional[list] = None  # RECORD: [(field name, TypeInfo)]; arrays: [("", element)]


@dataclass
class Node:
    kind: str                       # clang CursorKind name: "CALL_EXPR", "IF_STMT", ...
    start: int                      # byte offset of the node's text in the main file
    end: int                        # byte offset just past it
    line: int                       # 1-based line of the node's own location
    col: int                        # 1-based column of it
    name: str = ""                  # spelling: a declaration's or referenced name
    type: Optional[TypeInfo] = None  # the expression's or declaration's type
    ref: Optional[str] = None       # key of the declaration a reference names
    key: Optional[str] = None       # this declaration's key
    loc: int = -1                   # byte offset of the node's own token (a name)
    in_macro: bool = False          # the node comes (partly) from a macro expansion
    op: str = ""                    # operator token, for operators and sizeof
    storage: str = ""               # VAR_DECL: "static", "extern" or ""
    callee_async: bool = False      # CALL_EXPR through a pointer of an async function type
    param_types: Optional[list] = None  # CALL_EXPR: the callee's parameter types, if known
    init: Optional["Node"] = field(default=None, repr=False)  # VAR_DECL: its initializer
    for_parts: Optional[tuple] = None   # FOR_STMT: (init, cond, inc) child nodes or None each,
                                        # then the offsets of its two ';' and its ')'
    children: List["Node"] = field(default_factory=list)
    parent: Optional["Node"] = field(default=None, repr=False)

    def walk(self):
        """This node and every node below it, in source order (pre-order)."""
        stack = [self]
        while stack:
            node = stack.pop()
            yield node
            stack.extend(reversed(node.children))


@dataclass
class Function:
    name: str
    in_main: bool                   # declared in the main file
    is_definition: bool
    marked_async: bool              # carries RIP_ASYNC
    variadic: bool
    static: bool
    line: int
    col: int
    start: int = 0                  # main file: the declaration's text
    end: int = 0
    result: Optional[TypeInfo] = None
    param_types: List[TypeInfo] = field(default_factory=list)  # every declaration
    params: List[Node] = field(default_factory=list)   # PARM_DECL nodes (main file)
    body: Optional[Node] = None     # COMPOUND_STMT of a definition


@dataclass
class Unit:
    path: str                       # the main file as named on the command line
    source: bytes                   # its text
    functions: List[Function]       # every function declaration, in order
    macros: List[tuple]             # (start, end) of the outermost macro invocations in
                                    # the main file, sorted, disjoint
    macro_names: set = field(default_factory=set)  # every macro defined, headers too
    globals: List[Node] = field(default_factory=list)  # main file's file-scope VAR_DECLs
    macro_uses: dict = field(default_factory=dict)  # macro name -> macros its body names
    stringifying: set = field(default_factory=set)  # macros whose body has `#param`


def _outermost(ranges):
    """The ranges not inside another, sorted."""
    out = []
    for s, e in sorted(set(ranges), key=lambda r: (r[0], -r[1])):
        if out and s < out[-1][1]:
            continue
        out.append((s, e))
    return out


def builtin_include_dir():
    """gcc's directory of compiler headers (stddef.h, stdarg.h...), which
    the libclang wheel does not ship."""
    return _builtin_include_dir()


@functools.lru_cache(maxsize=None)
def _builtin_include_dir():
    for cc in (os.environ.get("CC"), "cc", "gcc"):
        if cc and shutil.which(cc):
            try:
                out = subprocess.run([cc, "-print-file-name=include"],
                                     capture_output=True, text=True, timeout=30)
            except (OSError, subprocess.SubprocessError):
                continue
            path = out.stdout.strip()
            if out.returncode == 0 and os.path.isfile(os.path.join(path, "stddef.h")):
                return path
    return None


# -- libclang glue -----------------------------------------------------------

def _lib():
    lib = ci.conf.lib
    if not getattr(lib, "_ripper_ready", False):
        lib.clang_getFileLocation.argtypes = [
            ci.SourceLocation, ctypes.POINTER(ci.c_object_p),
            ctypes.POINTER(ctypes.c_uint), ctypes.POINTER(ctypes.c_uint),
            ctypes.POINTER(ctypes.c_uint)]
        lib.clang_getFileLocation.restype = None
        lib.clang_getUnqualifiedType.argtypes = [ci.Type]
        lib.clang_getUnqualifiedType.restype = ci.Type
        for name in ("clang_getCursorBinaryOperatorKind", "clang_getCursorUnaryOperatorKind",
                     "clang_Cursor_isMacroFunctionLike"):
            getattr(lib, name).argtypes = [ci.Cursor]
            getattr(lib, name).restype = ctypes.c_int
        lib._ripper_ready = True
    return lib


def _file_location(loc):
    """(file object, line, column, offset) where the text of `loc` is
    written: inside a macro argument, not at the macro's name."""
    f = ci.c_object_p()
    line, col, off = ctypes.c_uint(), ctypes.c_uint(), ctypes.c_uint()
    _lib().clang_getFileLocation(loc, ctypes.byref(f), ctypes.byref(line),
                                 ctypes.byref(col), ctypes.byref(off))
    return f, line.value, col.value, off.value


# libclang's CXBinaryOperatorKind and CXUnaryOperatorKind, in order.
_BINARY_OPS = ("", ".*", "->*", "*", "/", "%", "+", "-", "<<", ">>", "<=>", "<", ">", "<=",
               ">=", "==", "!=", "&", "^", "|", "&&", "||", "=", "*=", "/=", "%=", "+=",
               "-=", "<<=", ">>=", "&=", "^=", "|=", ",")
_UNARY_OPS = ("", "post++", "post--", "++", "--", "&", "*", "+", "-", "~", "!",
              "__real__", "__imag__", "__extension__", "co_await")
_NAMED = (ci.TypeKind.ELABORATED, ci.TypeKind.RECORD, ci.TypeKind.TYPEDEF, ci.TypeKind.ENUM)
_type_cache = {}


def _type_info(t):
    """TypeInfo of a clang type, cached: types repeat on most nodes.  Named
    types are told apart by their declaration (a local `struct s` is not the
    global one)."""
    if t is None or t.kind == ci.TypeKind.INVALID:
        return None
    key = (t.spelling, t.kind, t.get_declaration().hash if t.kind in _NAMED else 0)
    info = _type_cache.get(key)
    if info is None:
        info = _type_cache[key] = _make_type_info(t)
        _members(info, t)
    return info


def _make_type_info(t):
    if "typeof" in t.spelling:      # typeof (expr) may name what ripping removes
        t = t.get_canonical()
    u = _lib().clang_getUnqualifiedType(t)
    u._tu = t._tu
    return TypeInfo(spelling=t.spelling, unqualified=u.spelling,
                    kind=t.kind.name, local=_is_local_type(t), async_fn=_is_async_fn(t),
                    assignable=not _has_const_member(t.get_canonical()),
                    size=_layout(t, "get_size"), align=_layout(t, "get_align"),
                    canonical_kind=t.get_canonical().kind.name)


def _peel(t, pointers=False):
    """`t` without its typedef and elaborated layers (and pointers, if asked).
    Unlike the canonical type, what lies inside keeps its sugar: an element
    or parameter type still names its typedef (RIP_ASYNC_FN types do)."""
    for _ in range(20):
        if t.kind == ci.TypeKind.ELABORATED:
            t = t.get_named_type()
        elif t.kind == ci.TypeKind.TYPEDEF:
            t = t.get_declaration().underlying_typedef_type
        elif pointers and t.kind == ci.TypeKind.POINTER:
            t = t.get_pointee()
        else:
            break
    return t


def _members(info, t):
    """Fill in the member types of a record or array type (for the
    destination of a function named in a brace initializer)."""
    c = t.get_canonical()
    if c.kind == ci.TypeKind.RECORD:
        info.members = [(f.spelling, _type_info(f.type)) for f in c.get_fields()]
    elif c.kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY):
        t = _peel(t)
        element = t.element_type if t.kind in (ci.TypeKind.CONSTANTARRAY,
                                               ci.TypeKind.INCOMPLETEARRAY) else c.element_type
        info.members = [("", _type_info(element))]


# libclang traps (SIGILL) asked the size of a builtin's function type.
_NO_LAYOUT = (ci.TypeKind.FUNCTIONPROTO, ci.TypeKind.FUNCTIONNOPROTO, ci.TypeKind.VOID,
              ci.TypeKind.INVALID, ci.TypeKind.UNEXPOSED)


def _layout(t, what):
    """Size or alignment of an object type, -1 for any other type."""
    if t.get_canonical().kind in _NO_LAYOUT:
        return -1
    return getattr(t, what)()


def _has_const_member(t, depth=0):
    """Does record type `t` have a const member, at any depth?"""
    if depth > 10:
        return False
    if t.kind == ci.TypeKind.CONSTANTARRAY:
        return _has_const_member(t.element_type.get_canonical(), depth + 1)
    if t.kind != ci.TypeKind.RECORD:
        return False
    for f in t.get_fields():
        ft = f.type.get_canonical()
        if ft.is_const_qualified() or _has_const_member(ft, depth + 1):
            return True
    return False


def _decayed(t, info):
    """A parameter's type as the function sees it: arrays and functions
    become pointers (`char *argv[]` is a `char **`)."""
    if t.kind in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY,
                  ci.TypeKind.VARIABLEARRAY, ci.TypeKind.DEPENDENTSIZEDARRAY):
        inner = _type_info(t.element_type)
    elif t.kind in (ci.TypeKind.FUNCTIONPROTO, ci.TypeKind.FUNCTIONNOPROTO):
        inner = info
    else:
        return info
    pointer = "__typeof__(%s) *" % inner.spelling
    return TypeInfo(spelling=pointer, unqualified=pointer, kind="POINTER",
                    local=inner.local, async_fn=info.async_fn, size=8, align=8)


def _is_async_fn(t, depth=0):
    """Is `t` a typedef made with RIP_ASYNC_FN, or a pointer to one?"""
    while depth < 20:
        depth += 1
        if t.kind == ci.TypeKind.ELABORATED:
            t = t.get_named_type()
        elif t.kind == ci.TypeKind.POINTER:
            t = t.get_pointee()
        elif t.kind == ci.TypeKind.TYPEDEF:
            decl = t.get_declaration()
            if any(ch.kind == ci.CursorKind.ANNOTATE_ATTR and ch.spelling == RIP_ASYNC_ANNOTATION
                   for ch in decl.get_children()):
                return True
            t = decl.underlying_typedef_type
        else:
            return False
    return False


def _param_types(fn_type):
    """Parameter types of a function or function pointer type, or None."""
    t = _peel(fn_type, pointers=True)
    if t.kind != ci.TypeKind.FUNCTIONPROTO:
        t = t.get_canonical()
    if t.kind != ci.TypeKind.FUNCTIONPROTO:
        return None
    return [_type_info(a) for a in t.argument_types()]


def _is_local_type(t, depth=0):
    """Does `t` name a type that file-scope code cannot spell?"""
    if depth > 20:
        return False
    k = t.kind
    if k == ci.TypeKind.POINTER:
        return _is_local_type(t.get_pointee(), depth + 1)
    if k in (ci.TypeKind.CONSTANTARRAY, ci.TypeKind.INCOMPLETEARRAY,
             ci.TypeKind.VARIABLEARRAY):
        return _is_local_type(t.element_type, depth + 1)
    if k == ci.TypeKind.FUNCTIONPROTO:
        return (_is_local_type(t.get_result(), depth + 1)
                or any(_is_local_type(a, depth + 1) for a in t.argument_types()))
    decl = t.get_declaration()
    if decl.kind == ci.CursorKind.NO_DECL_FOUND:
        return False
    if "(unnamed" in t.spelling or "(anonymous" in t.spelling:
        return True
    parent = decl.semantic_parent
    while parent is not None and parent.kind != ci.CursorKind.TRANSLATION_UNIT:
        if parent.kind == ci.CursorKind.FUNCTION_DECL:
            return True
        parent = parent.semantic_parent
    return False


def _decl_key(cursor):
    if cursor is None:
        return None
    if cursor.kind == ci.CursorKind.FUNCTION_DECL:
        return "fn:" + cursor.spelling
    _, _, _, off = _file_location(cursor.location)
    name = cursor.location.file.name if cursor.location.file else ""
    return "var:%s:%d" % (name, off)


class _Builder:
    """Converts the cursors of main-file function definitions to Nodes."""

    def __init__(self, main_name, source, macros):
        self.main_name = main_name
        self.source = source
        self.macros = macros

    def in_main(self, cursor):
        f = cursor.location.file
        return f is not None and f.name == self.main_name

    def snap(self, start, end):
        """Widen [start, end) to whole macro invocations; say if it had to."""
        cut = False
        inv = invocation_at(self.macros, start)
        if inv is not None:
            start, cut = inv[0], True
        inv = invocation_at(self.macros, end - 1) if end > 0 else None
        if inv is not None and inv[0] < end:
            end, cut = inv[1], True
        return start, end, cut

    def node(self, c, parent=None, depth=0):
        _, line, col, loc = _file_location(c.location)
        if depth > MAX_NESTING:
            raise Diagnostic(self.main_name, line, col,
                             "nested more than %d levels deep (statements and expressions "
                             "inside one another), more than ripper takes" % MAX_NESTING,
                             hint="split the function or expression into smaller ones")
        _, _, _, s = _file_location(c.extent.start)
        _, _, _, e = _file_location(c.extent.end)
        if e < s:
            e = s
        s, e, in_macro = self.snap(s, e)
        kind = KIND_NAMES.get(c.kind.name, c.kind.name)
        n = Node(kind=kind, start=s, end=e, line=line, col=col, name=c.spelling,
                 loc=loc, in_macro=in_macro, parent=parent)
        if kind in ("VAR_DECL", "PARM_DECL"):
            n.key = _decl_key(c)
            n.type = _type_info(c.type)
            if kind == "PARM_DECL":
                n.type = _decayed(c.type, n.type)
            sc = c.storage_class
            n.storage = {ci.StorageClass.STATIC: "static",
                         ci.StorageClass.EXTERN: "extern"}.get(sc, "")
        elif kind.endswith("_EXPR") or kind.endswith("_OPERATOR") or kind.endswith("_LITERAL"):
            n.type = _type_info(c.type)
        if kind in ("DECL_REF_EXPR", "CALL_EXPR", "MEMBER_REF_EXPR"):
            ref = c.referenced
            if ref is not None:
                n.ref = _decl_key(ref)
        if kind == "CALL_EXPR":
            callee = next(c.get_children(), None)
            if callee is not None:
                n.param_types = _param_types(callee.type)
                n.callee_async = _is_async_fn(callee.type) and \
                    (ref is None or ref.kind != ci.CursorKind.FUNCTION_DECL)
        n.children = [self.node(ch, n, depth + 1) for ch in c.get_children()]
        if kind in ("BINARY_OPERATOR", "COMPOUND_ASSIGNMENT_OPERATOR",
                    "UNARY_OPERATOR", "CXX_UNARY_EXPR"):
            n.op = self.operator(c, n)
        if kind == "FOR_STMT":
            n.for_parts = self.for_parts(c, n)
        if kind == "VAR_DECL" and n.children:
            last = n.children[-1]   # the initializer comes last, after an '='
            name_end = n.loc + len(n.name.encode())
            if last.start >= name_end and b"=" in self.source[name_end:last.start]:
                n.init = last
        return n

    def for_parts(self, c, n):
        """Tell a for statement's init, cond and inc apart by the ';'s of its
        header (clang lists only the parts that are present)."""
        depth, semis, close = 0, [], None
        for t in c.get_tokens():
            sp = t.spelling
            if sp in ("(", "[", "{"):
                depth += 1
            elif sp in (")", "]", "}"):
                depth -= 1
                if depth == 0:
                    close = t.extent.start.offset
                    break
            elif sp == ";" and depth == 1:
                semis.append(t.extent.start.offset)
        if len(semis) != 2 or close is None:
            return None             # a header built by macros
        init = cond = inc = None
        for ch in n.children[:-1]:
            if ch.start < semis[0] or (ch.kind == "DECL_STMT" and ch.start <= semis[0]):
                init = ch
            elif ch.start < semis[1]:
                cond = ch
            else:
                inc = ch
        return (init, cond, inc, semis[0], semis[1], close)

    def operator(self, c, n):
        """The operator's spelling ("post++" for a postfix one), from clang."""
        if n.kind == "CXX_UNARY_EXPR":
            text = self.source[n.start:n.end].split(b"(")[0].split()
            return text[0].decode() if text else ""
        if n.kind == "UNARY_OPERATOR":
            k = _lib().clang_getCursorUnaryOperatorKind(c)
            return _UNARY_OPS[k] if 0 <= k < len(_UNARY_OPS) else ""
        k = _lib().clang_getCursorBinaryOperatorKind(c)
        return _BINARY_OPS[k] if 0 <= k < len(_BINARY_OPS) else ""

    def function(self, c):
        in_main = self.in_main(c)
        _, line, col, _ = _file_location(c.location)
        marked = any(ch.kind == ci.CursorKind.ANNOTATE_ATTR
                     and ch.spelling == RIP_ASYNC_ANNOTATION
                     for ch in c.get_children())
        fn = Function(name=c.spelling, in_main=in_main,
                      is_definition=c.is_definition(), marked_async=marked,
                      variadic=c.type.kind == ci.TypeKind.FUNCTIONPROTO
                      and c.type.is_function_variadic(),
                      static=c.storage_class == ci.StorageClass.STATIC,
                      line=line, col=col,
                      result=_type_info(c.result_type),
                      param_types=_param_types(c.type) or [])
        if in_main:
            n = self.node(c)
            fn.start, fn.end = n.start, n.end
            args = list(c.get_arguments())     # the function's own, not its return type's
            keys = {_decl_key(a) for a in args}
            fn.params = [ch for ch in n.children if ch.kind == "PARM_DECL" and ch.key in keys]
            if fn.is_definition:
                bodies = [ch for ch in n.children if ch.kind == "COMPOUND_STMT"]
                fn.body = bodies[-1] if bodies else None
        return fn


def _clang_args(extra_args):
    args = ["-x", "c", "-D__RIPPER__=1", "-ferror-limit=50"]
    builtin = builtin_include_dir()
    if builtin:
        args += ["-isystem", builtin]
    here = os.path.dirname(os.path.abspath(__file__))
    rt_include = os.path.join(os.path.dirname(here), "runtime", "include")
    args += list(extra_args) + ["-I", rt_include]
    return args


def parse(path, source, extra_args=(), alarm=None):
    """Parse `source` (bytes, the text of `path`) into a Unit.

    Raises Diagnostic for every error libclang reports.  With `alarm`
    (seconds), SIGALRM ends the process if libclang's parse runs longer:
    libclang 18 hangs on some malformed input (`(::)` in a function body).
    Only for a process that exists to rip one file (ripper's child)."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))   # deep expressions
    try:
        index = ci.Index.create()
    except Exception as e:  # the shared library could not be loaded
        raise Diagnostic(path, 0, 0, "cannot load libclang: %s" % e,
                         hint="install the 'libclang' package from PyPI") from e
    opts = ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD
    if alarm:
        signal.setitimer(signal.ITIMER_REAL, alarm)
    try:
        tu = index.parse(path, args=_clang_args(extra_args),
                         unsaved_files=[(path, source)], options=opts)
    except ci.TranslationUnitLoadError as e:
        raise Diagnostic(path, 0, 0, "libclang could not parse the file: %s" % e) from e
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
    errors = []
    for d in tu.diagnostics:
        if d.severity >= ci.Diagnostic.Error:
            loc = d.location
            fname = loc.file.name if loc.file else path
            errors.append(Diagnostic(fname, loc.line, loc.column, d.spelling))
    if errors:
        raise errors[0].with_others(errors[1:])

    main = tu.cursor.spelling
    definitions, invoked, macros = {}, set(), []
    for c in tu.cursor.get_children():
        if c.kind == ci.CursorKind.MACRO_DEFINITION:
            definitions[c.spelling] = c
        elif c.kind == ci.CursorKind.MACRO_INSTANTIATION and c.location.file is not None \
                and c.location.file.name == main:
            invoked.add(c.spelling)
            _, _, _, s = _file_location(c.extent.start)
            _, _, _, e = _file_location(c.extent.end)
            macros.append((s, e))
    macros = _outermost(macros)
    macro_uses, stringifying = _macro_facts(definitions, invoked)
    builder = _Builder(main, source, macros)
    functions, globals_ = [], []
    for c in tu.cursor.get_children():
        if c.kind == ci.CursorKind.FUNCTION_DECL:
            functions.append(builder.function(c))
        elif c.kind == ci.CursorKind.VAR_DECL and builder.in_main(c):
            globals_.append(builder.node(c))
    return Unit(path=path, source=source, functions=functions, macros=macros,
                macro_names=set(definitions), globals=globals_, macro_uses=macro_uses,
                stringifying=stringifying)


def _macro_facts(definitions, invoked):
    """For the macros the main file invokes and those their bodies name:
    which macros each body names, and which bodies stringify (`#param`)."""
    uses, stringifying = {}, set()
    todo = [m for m in invoked if m in definitions]
    while todo:
        name = todo.pop()
        if name in uses:
            continue
        cursor = definitions[name]
        tokens = [t.spelling for t in cursor.get_tokens()]
        body = tokens[1:]
        if _lib().clang_Cursor_isMacroFunctionLike(cursor):    # skip the parameter list
            body = tokens[tokens.index(")") + 1:] if ")" in tokens else []
        uses[name] = {t for t in body if t in definitions and t != name}
        for i, t in enumerate(body[:-1]):
            if t == "#" and body[i + 1] != "#" and (i == 0 or body[i - 1] != "#"):
                stringifying.add(name)
        todo.extend(uses[name] - set(uses))
    return uses, stringifying

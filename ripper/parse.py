"""parse.py -- preprocessed C to ripper's tree (tree.py), through libclang.

The only module that imports clang.cindex.  libclang parses the text the
user's compiler preprocessed (preprocess.py) as preprocessed C in the
user's dialect; what gcc accepts and clang only warns about (implicit int,
implicit declarations) stays a warning, and errors inside system headers
(gcc-only builtins in gcc's own headers) are not the user's code's and are
ignored.  Function bodies in the user's files become tree nodes; for the
rest (system headers) only declarations are read.

    int f(int a) { return g(a); }

becomes Function("f", body=Compound(items=[Return(value=Call(
callee=Ref(name="g", what="fn"), args=[Ref(name="a", what="var")]))]))
with byte offsets into the preprocessed text.
"""

import bisect
import ctypes
import re
import signal
import sys
import time

from .diag import Diagnostic

try:
    import clang.cindex as ci
except ImportError as e:        # installed with --no-deps, or a broken install: one line
    raise Diagnostic("", 0, 0, "libclang's Python package 'clang', which ripper parses C "
                     "with, cannot be imported (%s): install it with 'pip install libclang'"
                     % e) from None

from . import tree as T
from .blocking import POSIX_PTHREAD
from .scan import params_open, semicolon_after, skip_blank

_TLS_KEYWORD = re.compile(rb"\b(?:__thread|_Thread_local|thread_local)\b")

RIP_ASYNC_ANNOTATION = "rip_async"
CLEANUP_ATTRS = ("cleanup", "__cleanup__")
BIGGEST_ALIGNMENT = 16      # what `aligned` alone asks for: the target's biggest (x86-64)
ANNOTATION = re.compile(rb'annotate\s*\(\s*"rip_async"\s*\)')
# How deep the syntax tree of a function may nest: passes recurse on it.
MAX_NESTING = 2000
# libclang's errors on GNU C it will never read, said in the user's words.
GNU_ONLY = {
    "function definition is not allowed here":
        ("nested function (a GNU extension libclang does not read)",
         "move the function to file scope and pass what it uses as arguments"),
    "fields must have a constant size":
        ("variable-length array in a struct (a GNU extension libclang does not read)",
         "give the array a constant size, or allocate it apart"),
}
# What gcc 12 accepts with a warning and clang 16+ makes an error by default.
LENIENT = ["-Wno-error=implicit-function-declaration", "-Wno-error=implicit-int",
           "-Wno-error=int-conversion", "-Wno-error=incompatible-function-pointer-types",
           "-Wno-error=return-type", "-Wno-error=incompatible-pointer-types",
           "-Wno-error=deprecated-non-prototype"]
CK = ci.CursorKind
TK = ci.TypeKind
BUILTIN_OPAQUE = ("__builtin_va_arg", "__builtin_offsetof", "__builtin_types_compatible_p",
                  "__builtin_convertvector", "__builtin_shufflevector", "__builtin_bit_cast")
FUNC_NAMES = (b"__func__", b"__FUNCTION__", b"__PRETTY_FUNCTION__")


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
        lib.clang_Type_getValueType.argtypes = [ci.Type]
        lib.clang_Type_getValueType.restype = ci.Type
        for name in ("clang_getCursorBinaryOperatorKind", "clang_getCursorUnaryOperatorKind"):
            getattr(lib, name).argtypes = [ci.Cursor]
            getattr(lib, name).restype = ctypes.c_int
        lib.clang_Cursor_Evaluate.argtypes = [ci.Cursor]
        lib.clang_Cursor_Evaluate.restype = ctypes.c_void_p
        lib.clang_EvalResult_getKind.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_getKind.restype = ctypes.c_int
        lib.clang_EvalResult_getAsLongLong.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_getAsLongLong.restype = ctypes.c_longlong
        lib.clang_EvalResult_dispose.argtypes = [ctypes.c_void_p]
        lib.clang_EvalResult_dispose.restype = None
        lib._ripper_ready = True
        global _FILE_LOCATION, _RANGE_START, _RANGE_END, _EXTENT
        _FILE_LOCATION = lib.clang_getFileLocation
        _RANGE_START, _RANGE_END = lib.clang_getRangeStart, lib.clang_getRangeEnd
        _EXTENT = lib.clang_getCursorExtent
    return lib


_IDENT = re.compile(rb"[A-Za-z_]\w*")
_OFF = ctypes.c_uint()
_OFF_REF = ctypes.byref(_OFF)


def _offset(loc):
    _FILE_LOCATION(loc, None, None, None, _OFF_REF)
    return _OFF.value


def _slow_range(c):
    ext = ci.conf.lib.clang_getCursorExtent(c)
    _FILE_LOCATION(_RANGE_START(ext), None, None, None, _OFF_REF)
    start = _OFF.value
    _FILE_LOCATION(_RANGE_END(ext), None, None, None, _OFF_REF)
    return start, _OFF.value


# The preprocessed text is libclang's one file, so a location's raw encoding
# is its offset plus a constant: the file's start in clang's location space.
# parse() measures it against the slow path (None: not measured, or not so).
_raw_base = None
_raw_size = 0                   # the text's length: a location past it is not the text's


def _range(c):
    """Byte offsets of cursor c's text, from its extent (libclang's calls,
    made as few times as a tree of 10^5 nodes needs)."""
    if _raw_base is None:
        return _slow_range(c)
    ext = _EXTENT(c)
    b, e = ext.begin_int_data, ext.end_int_data
    b -= _raw_base
    e -= _raw_base
    if not 0 <= b <= e <= _raw_size:
        return _slow_range(c)   # a null extent, or another file's (the compiler's own)
    return _one_int(b, b), _one_int(e, e)


_ints = {}                      # offsets while a tree is built: one int object per value
_one_int = _ints.setdefault     # (a node's start is often another's; 32 bytes each)


def _measure_raw_base(cursors, size):
    """Set _raw_base if raw encodings are offsets plus one constant for
    every cursor in `cursors` (a sample of a text of `size` bytes); else
    leave the slow path."""
    global _raw_base, _raw_size
    _raw_base, _raw_size = None, size
    bases = set()
    for c in cursors[::max(1, len(cursors) // 64)]:
        ext = _EXTENT(c)
        if not ext.begin_int_data:
            continue            # a null extent
        s, e = _slow_range(c)
        bases.add(ext.begin_int_data - s)
        bases.add(ext.end_int_data - e)
    if len(bases) == 1 and min(bases) >= 0:
        _raw_base = bases.pop()


_visited = []                   # what the one visitor callback collects into


def _visit(child, _parent, _data):
    _visited.append(child)
    return 1                    # CXChildVisit_Continue


_VISITOR = None


def _constant(c):
    """The value of integer constant expression c, or None."""
    lib = _lib()
    result = lib.clang_Cursor_Evaluate(c)
    if not result:
        return None
    try:
        if lib.clang_EvalResult_getKind(result) != 1:      # CXEval_Int
            return None
        return lib.clang_EvalResult_getAsLongLong(result)
    finally:
        lib.clang_EvalResult_dispose(result)


def _children(c):
    """The child cursors of c (one ctypes callback for every call)."""
    global _VISITOR
    if _VISITOR is None:
        _VISITOR = ci.callbacks["cursor_visit"](_visit)
    start = len(_visited)
    ci.conf.lib.clang_visitChildren(c, _VISITOR, None)
    out = _visited[start:]
    del _visited[start:]
    tu = c._tu
    for child in out:
        child._tu = tu
    return out


def _type_of_node(node):
    """The type of `node` (a maker of Expr types: a designated item's is its value's)."""
    return node.type


def _saved(c):
    """Cursor c as the 32 bytes of its CXCursor, for a node to keep: the
    Cursor object itself, with the attributes cindex caches on it, takes
    some 300 bytes, and a tree keeps one for every expression (10^6 in
    SQLite).  _Types.of_saved makes it a Cursor again.

        _saved(c) -> b'...' (len 32)"""
    return bytes(c)


# libclang's CXBinaryOperatorKind and CXUnaryOperatorKind, in order.
_BINARY_OPS = ("", ".*", "->*", "*", "/", "%", "+", "-", "<<", ">>", "<=>", "<", ">", "<=",
               ">=", "==", "!=", "&", "^", "|", "&&", "||", "=", "*=", "/=", "%=", "+=",
               "-=", "<<=", ">>=", "&=", "^=", "|=", ",")
_UNARY_OPS = ("", "post++", "post--", "++", "--", "&", "*", "+", "-", "~", "!",
              "__real__", "__imag__", "__extension__", "co_await")
_KIND_OF = {k.value: k for k in CK.get_all_kinds()}     # c.kind, without a call
_LITERALS = (CK.INTEGER_LITERAL, CK.FLOATING_LITERAL, CK.CHARACTER_LITERAL,
             CK.IMAGINARY_LITERAL)
_NAMED = (TK.ELABORATED, TK.RECORD, TK.TYPEDEF, TK.ENUM)
_NO_LAYOUT = (TK.FUNCTIONPROTO, TK.FUNCTIONNOPROTO, TK.VOID, TK.INVALID, TK.UNEXPOSED)
ALIGNED_ATTR_BOUND = 64          # _size_bound: the most an aligned attribute is taken to ask
_ARRAYS = (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY, TK.VARIABLEARRAY, TK.DEPENDENTSIZEDARRAY)
_FUNCTIONS = (TK.FUNCTIONPROTO, TK.FUNCTIONNOPROTO)


class _Types:
    """CTypes of clang types, cached by what tells them apart: a block-local
    `struct s` is not the file-scope one, nor is a pointer to it."""

    def __init__(self, tu=None):
        self.cache = {}
        self.tu = tu                # of the cursors of_saved() rebuilds

    def of(self, c):
        """The CType of cursor c's type (c None: None)."""
        return None if c is None else self.get(c.type)

    def of_saved(self, saved):
        """of() for a cursor kept as _saved() made it (None: None)."""
        if saved is None:
            return None
        if self.tu is None:
            raise RuntimeError("a type asked for after libclang's unit was released")
        c = ci.Cursor.from_buffer_copy(saved)
        c._tu = self.tu
        return self.get(c.type)

    def get(self, t):
        if t is None or t.kind == TK.INVALID:
            return None
        scoped, decls = _named(t)
        if scoped:
            t = t.get_canonical()
            decls = _named(t)[1]
        key = (t.spelling, t.kind, decls, t.is_const_qualified())
        info = self.cache.get(key)
        if info is None:
            info = self.make(t, key)
        return info

    def parameter(self, t, index_volatile=False):
        """The CType of a parameter declared with type `t`, as the function
        sees it: an array a pointer to its element (`int x[const 5]`: `int *`,
        volatile if its brackets say so), a function a pointer to it."""
        info = self.get(t)
        if info is None or not (info.array or info.canonical in ("FUNCTIONPROTO",
                                                                 "FUNCTIONNOPROTO")):
            return info
        bound = None
        element = self.get(t.element_type) if t.kind in _ARRAYS else None
        if info.array and element is not None:
            # written as an array: its brackets may hold qualifiers or
            # static, which no type name may (`int[volatile 5]`)
            spelling = "__typeof__(%s) *" % element.spelling
            if t.kind == TK.CONSTANTARRAY:
                bound = "__typeof__(%s) [%d]" % (element.spelling, t.element_count)
            local = element.local
        elif info.array:                # a typedef's (`vec v`, a va_list)
            spelling = "__typeof__(&(*(__typeof__(%s) *)0)[0])" % info.spelling
            if info.canonical == "CONSTANTARRAY":
                bound = info.spelling
            element = info.members[0][1] if info.members else None
            local = element.local if element else info.local
        else:
            spelling = "__typeof__(%s) *" % info.spelling
            local = info.local
        out = T.CType(spelling, "POINTER", "POINTER", 8, 8, local=local,
                      async_fn=info.async_fn, vm=info.vm)
        out.volatile = index_volatile
        out.in_prototype = bound
        out.named = info.named
        return out

    def make(self, t, key):
        canonical = t.get_canonical()
        unqualified = _lib().clang_getUnqualifiedType(t)
        unqualified._tu = t._tu
        info = T.CType(spelling=t.spelling, kind=t.kind.name, canonical=canonical.kind.name,
                       const=t.is_const_qualified(), local=_is_local(t),
                       async_fn=_is_async_fn(t), vm=_is_vm(canonical))
        info.unqualified = unqualified.spelling
        info.named = bool(key[2])       # the tags and typedefs get() found in it
        info.volatile = t.is_volatile_qualified()
        info.assignable = not _has_const_member(canonical)    # a field's top const goes
        if canonical.kind not in _NO_LAYOUT:
            info.size, info.align = t.get_size(), t.get_align()
        self.cache[key] = info          # before its parts: a struct may point to itself
        if canonical.kind == TK.RECORD:
            info.members = [(f.spelling, self.get(f.type)) for f in canonical.get_fields()]
        elif canonical.kind in _ARRAYS:
            peeled = _peel(t)
            element = peeled.element_type if peeled.kind in _ARRAYS else canonical.element_type
            info.members = [("", self.get(element))]
            if canonical.kind == TK.CONSTANTARRAY:
                info.count = canonical.get_array_size()
        elif canonical.kind == TK.POINTER:
            info.pointee = self.get(_peel(t).get_pointee()) if _peel(t).kind == TK.POINTER \
                else None
        fn = _peel(t)
        if fn.kind == TK.POINTER:
            fn = _peel(fn.get_pointee())
        if fn.kind == TK.FUNCTIONPROTO:
            info.params = [self.get(a) for a in fn.argument_types()]
        if info.local and info.size > 0 and info.align > 0 and _aligned_bit_field(canonical):
            info.bound = _size_bound(canonical)
        return info


def _function_type(t):
    """The function type of a function declared with type `t`: `t` itself
    (`int f(int)`), or what a function typedef or a typeof names
    (`ft f;`, `__typeof__(g) f;`)."""
    if t.kind in _FUNCTIONS:
        return t
    peeled = _peel(t)
    return peeled if peeled.kind in _FUNCTIONS else t.get_canonical()


def _writes_params(text, f):
    """Does the declarator of function `f` (name, name_at) write its
    parameter list (`int f(int)`, `int (f)(void)`), or take it from a
    function type (`ft f;`, `__typeof__(g) f;`)?  Clang gives the type of
    an earlier declaration to a later one, whichever way each is written,
    and no type location: the token after the name (and the ')'s closing
    a parenthesized name) says."""
    i = params_open(text, f)
    return text[i:i + 1] == b"("


_VOLATILE = ("volatile", "__volatile", "__volatile__")


def _index_volatile(c):
    """Does parameter cursor c, an array, have `volatile` in its brackets
    (`int x[volatile 5]`: x is an `int *volatile`)?  libclang gives a
    parameter the array type as written, whose spelling loses the
    qualifiers of `int x[volatile]`, and no call for them: clang's tokens
    of the declarator answer, the first '[' after the name (and the ')'s
    that close a parenthesized name)."""
    if not c.spelling or c.type.get_canonical().kind not in _ARRAYS:
        return False
    name_at = _offset(c.location)
    tokens = list(c.get_tokens())
    i = next((k for k, tok in enumerate(tokens) if _offset(tok.location) == name_at), None)
    if i is None:
        return False
    i += 1
    while i < len(tokens) and tokens[i].spelling == ")":
        i += 1
    if i == len(tokens) or tokens[i].spelling != "[":
        return False
    for tok in tokens[i + 1:]:
        if tok.spelling in _VOLATILE:
            return True
        if tok.kind != ci.TokenKind.KEYWORD:
            return False
    return False


_WRAPPERS = (TK.ATOMIC, TK.VECTOR, TK.EXTVECTOR, TK.COMPLEX)


def _wrapped(t):
    """The type a wrapper type `t` (one of _WRAPPERS) is made of, whose
    names its spelling writes: `_Atomic(T)` -> T, `T
    __attribute__((vector_size(16)))` -> T."""
    if t.kind == TK.ATOMIC:
        inner = _lib().clang_Type_getValueType(t)
        inner._tu = t._tu
        return inner
    return t.element_type


def _spelled_parts(t, depth=0):
    """The types `t`'s spelling names, one by one: through pointers, arrays,
    elaborated names, _Atomic and vector wrappers, and a function's result
    and parameters, down to what each names (a tag, a typedef, typeof,
    a builtin type), which is not looked into.

        `struct s *(*)(T, int)`  ->  struct s, T, int"""
    k = t.kind
    if depth > 30:
        return
    if k == TK.POINTER:
        yield from _spelled_parts(t.get_pointee(), depth + 1)
    elif k in _ARRAYS:
        yield from _spelled_parts(t.element_type, depth + 1)
    elif k == TK.ELABORATED:
        yield from _spelled_parts(t.get_named_type(), depth + 1)
    elif k in _WRAPPERS:
        yield from _spelled_parts(_wrapped(t), depth + 1)
    elif k in (TK.FUNCTIONPROTO, TK.FUNCTIONNOPROTO):
        yield from _spelled_parts(t.get_result(), depth + 1)
        if k == TK.FUNCTIONPROTO:
            for a in t.argument_types():
                yield from _spelled_parts(a, depth + 1)
    else:
        yield t


def _named(t):
    """(scoped, decls) of `t`'s spelling, in one walk of what it names:
    does it name something that means another thing, or nothing,
    elsewhere (`__typeof__(*p)`: whose `p`? a typedef declared in a
    block)?  Then ripper spells the canonical type, which names only tags
    (a block's own tags make it `local`).  decls: the hashes of the
    declarations (tags, typedefs) it names, which tell apart two types
    spelled the same in different blocks (`struct s *` and another block's).

        { float *p = &f; __typeof__(*p) q; }  ->  q's CType spells `float`"""
    scoped, decls = False, []
    for x in _spelled_parts(t):
        k = x.kind
        if k in (TK.UNEXPOSED, TK.AUTO):    # typeof (expr), typeof (type), __auto_type
            scoped = True
        elif k in (TK.RECORD, TK.ENUM, TK.TYPEDEF):
            decl = x.get_declaration()
            if decl.kind != CK.NO_DECL_FOUND:
                decls.append(decl.hash)
                scoped = scoped or (k == TK.TYPEDEF and _in_function(decl))
    return scoped, tuple(decls)


def _in_function(decl):
    """Is cursor `decl` declared inside a function?"""
    parent = decl.semantic_parent
    while parent is not None and parent.kind != CK.TRANSLATION_UNIT:
        if parent.kind == CK.FUNCTION_DECL:
            return True
        parent = parent.semantic_parent
    return False


def _attr_tokens(attr, decl):
    """The tokens of attribute cursor `attr` of declaration `decl`: its name
    and its parenthesized arguments (`aligned ( 16 )`, `_Alignas ( 32 )`;
    clang's extent of `_Alignas` ends at the keyword), never the tokens of
    the initializer after it."""
    extent = ci.SourceRange.from_locations(attr.extent.start, decl.extent.end)
    out, depth = [], 0
    for tok in decl.translation_unit.get_tokens(extent=extent):
        t = tok.spelling
        if out and depth == 0 and t != "(":
            break
        out.append(t)
        depth += (t == "(") - (t == ")")
        if out[-1] == ")" and depth == 0:
            break
    return out


def _attr_name(attr, decl):
    if attr.kind != CK.UNEXPOSED_ATTR:
        return None
    tokens = _attr_tokens(attr, decl)
    return tokens[0] if tokens else None


def _alignment(attrs, decl):
    """The alignment the attribute cursors `attrs` of `decl` ask for, from
    `aligned(N)`, `__aligned__`, `_Alignas(N)`: 0 for none, -1 for one
    ripper cannot read (`_Alignas(double)`, `aligned(sizeof(long))`)."""
    best = 0
    for a in attrs:
        if a.kind != CK.ALIGNED_ATTR:
            continue
        tokens = _attr_tokens(a, decl)
        if len(tokens) == 1:
            best = max(best, BIGGEST_ALIGNMENT)     # `aligned` alone
            continue
        value = _integer(tokens[2:-1])
        if value is None:
            return -1
        best = max(best, value)
    return best


def _integer(tokens):
    """The value of one integer literal token (a list of one), else None."""
    if len(tokens) != 1:
        return None
    m = re.fullmatch(r"(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)[uUlL]*", tokens[0])
    if m is None:
        return None
    digits = m.group(1)
    return int(digits, 16) if digits[:2] in ("0x", "0X") else \
        int(digits, 8) if digits.startswith("0") else int(digits)


_TAGS = (CK.STRUCT_DECL, CK.UNION_DECL, CK.ENUM_DECL)


def _declared_names(c, depth=0):
    """The tags and the enumerators declaration cursor `c` declares in its
    scope: a struct, union or enum's own and those of the types declared
    inside it (C gives nested ones the enclosing scope), or those of the
    types a typedef declares (`typedef struct s { enum { A } k; } t;`:
    (['s'], ['A']))."""
    tags, constants = [], []
    if depth > 30:
        return tags, constants
    if c.kind in _TAGS and not c.is_anonymous() and re.fullmatch(r"\w+", c.spelling):
        tags.append(c.spelling)
    for y in _children(c):
        if y.kind == CK.ENUM_CONSTANT_DECL:
            constants.append(y.spelling)
        elif y.kind in _TAGS or y.kind == CK.FIELD_DECL:
            more = _declared_names(y, depth + 1)
            tags += more[0]
            constants += more[1]
    return tags, constants


def _names_function_declarations(c):
    """Does declaration cursor `c` name a type (typedef, tag) or an object
    or enumerator (`int a[N]`, `char b[sizeof x]`) declared in a function,
    outside `c` itself?"""
    s, e = _range(c)
    for y in c.walk_preorder():
        if y.kind in (CK.TYPE_REF, CK.DECL_REF_EXPR):
            d = y.referenced
            if d is not None and _in_function(d) and not s <= _range(d)[0] < e:
                return True
    return False


def _block_typedefs(kids):
    """The names of the typedefs declared in a function that a declaration's
    written type names (its cursor's children `kids`, not its initializer's):
    `T *p = q;` -> ["T"] when `T` is a block's typedef."""
    out = []
    for x in kids:
        if x.kind.is_expression() or x.kind.is_attribute():
            continue
        for y in x.walk_preorder():
            if y.kind == CK.TYPE_REF:
                d = y.referenced
                if d is not None and d.kind == CK.TYPEDEF_DECL and _in_function(d) and \
                        d.spelling not in out:
                    out.append(d.spelling)
    return out


def _peel(t):
    """`t` without its typedef and elaborated layers (what is inside keeps
    its sugar: an element type still names its typedef)."""
    for _ in range(30):
        if t.kind == TK.ELABORATED:
            t = t.get_named_type()
        elif t.kind == TK.TYPEDEF:
            t = t.get_declaration().underlying_typedef_type
        else:
            break
    return t


def _is_vm(canonical, depth=0):
    """Is the canonical type variably modified?"""
    if depth > 30:
        return False
    k = canonical.kind
    if k in (TK.VARIABLEARRAY, TK.DEPENDENTSIZEDARRAY):
        return True
    if k in (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY):
        return _is_vm(canonical.element_type, depth + 1)
    if k == TK.POINTER:
        return _is_vm(canonical.get_pointee(), depth + 1)
    return False


def _aligned_bit_field(t, depth=0):
    """Does canonical type t hold (in itself, a member or an element) a
    bit-field with an aligned attribute?  gcc and clang may place one
    differently: under #pragma pack gcc keeps part of the alignment the
    attribute asks for, clang none of it.

        #pragma pack(1)
        struct P { char c; int b : 3 __attribute__((aligned(4))); long long q : 40; };
        gcc: sizeof 7, clang: sizeof 6"""
    if depth > 30:
        return True
    if t.kind in (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY):
        return _aligned_bit_field(t.element_type.get_canonical(), depth + 1)
    if t.kind != TK.RECORD:
        return False
    for f in t.get_fields():
        if f.is_bitfield() and any(k.kind == CK.ALIGNED_ATTR for k in _children(f)):
            return True
        if _aligned_bit_field(f.type.get_canonical(), depth + 1):
            return True
    return False


def _size_bound(t, depth=0):
    """Bytes gcc's layout of canonical type t cannot exceed if it aligns t
    and its members' types as clang does, and honours no aligned attribute
    of a member above ALIGNED_ATTR_BOUND (ripper checks that the bytes
    suffice): every member starts at most at the next multiple of its
    alignment (its type's, or ALIGNED_ATTR_BOUND for one with an aligned
    attribute, whose value libclang does not tell), and a bit-field takes
    at most one byte more than its type (it may straddle a byte).  The
    frame keeps a variable of such a type in this many bytes, not in
    clang's size."""
    if t.kind == TK.CONSTANTARRAY:
        return t.get_array_size() * _size_bound(t.element_type.get_canonical(), depth + 1)
    if t.kind != TK.RECORD or depth > 30 or not _aligned_bit_field(t):
        return max(t.get_size(), 0)
    align = max(t.get_align(), 1)
    union = t.get_declaration().kind == CK.UNION_DECL
    end = 0
    for f in t.get_fields():
        ft = f.type.get_canonical()
        if any(k.kind == CK.ALIGNED_ATTR for k in _children(f)):
            member_align = max(align, ALIGNED_ATTR_BOUND)
        elif f.is_bitfield():       # `int : 0` aligns even in a packed struct
            member_align = max(1, ft.get_align())
        else:
            member_align = max(1, min(align, ft.get_align()))
        size = max(ft.get_size(), 0) + 1 if f.is_bitfield() else _size_bound(ft, depth + 1)
        end = max(end, size) if union else _round_up(end, member_align) + size
    return _round_up(end, align)


def _round_up(n, align):
    return (n + align - 1) // align * align


def _has_const_member(t, depth=0):
    if depth > 10:
        return False
    if t.kind in (TK.CONSTANTARRAY, TK.INCOMPLETEARRAY):
        return _has_const_member(t.element_type.get_canonical(), depth + 1)
    if t.kind != TK.RECORD:
        return False
    for f in t.get_fields():
        ft = f.type.get_canonical()
        if ft.is_const_qualified() or _has_const_member(ft, depth + 1):
            return True
    return False


def _is_async_fn(t):
    """Is `t` a typedef made with RIP_ASYNC_FN (annotated), or a pointer to one?"""
    for _ in range(30):
        if t.kind == TK.ELABORATED:
            t = t.get_named_type()
        elif t.kind == TK.POINTER:
            t = t.get_pointee()
        elif t.kind == TK.TYPEDEF:
            decl = t.get_declaration()
            if any(ch.kind == CK.ANNOTATE_ATTR and ch.spelling == RIP_ASYNC_ANNOTATION
                   for ch in _children(decl)):
                return True
            t = decl.underlying_typedef_type
        else:
            return False
    return False


def _is_local(t, depth=0):
    """Does `t` name a type that file-scope code cannot spell?"""
    return depth <= 30 and any(_names_local(x, depth) for x in _spelled_parts(t))


def _names_local(t, depth):
    """_is_local of one of the types a spelling names (_spelled_parts)."""
    if "(unnamed" in t.spelling or "(anonymous" in t.spelling:
        return True
    decl = t.get_declaration()
    if decl.kind == CK.NO_DECL_FOUND:
        return False
    if _in_function(decl):
        return True
    if t.kind == TK.TYPEDEF:
        return _is_local(decl.underlying_typedef_type, depth + 1)
    return False


# -- the tree builder -----------------------------------------------------

class _Builder:
    """Turns the cursors of one function body (or initializer) into nodes."""

    def __init__(self, unit_text, lines, types, path):
        self.text = unit_text
        self.lines = lines
        self.types = types
        self.type_maker = types.of_saved    # one bound method for every Expr, not one each
        self.path = path
        self.depth = 0
        self.block_thread_locals = []   # (name, offset) of each thread-local declared in a function

    def error(self, offset, message, hint=None):
        name, line, _ = self.lines.where(offset)
        return Diagnostic(name, line, self.lines.column(offset), message, hint)

    def ctype(self, c):
        return self.types.get(c.type)

    # -- statements ---------------------------------------------------------

    def deeper(self, c):
        """One level deeper, into cursor `c` (stmt and expr; they step back
        out): past MAX_NESTING levels, an error at c, not a RecursionError.

            x = ((((...2001 parentheses...)))) -> "nested more than 2000 levels deep ..."
        """
        self.depth += 1
        if self.depth > MAX_NESTING:
            raise self.error(_range(c)[0], "nested more than %d levels deep (statements and "
                             "expressions inside one another), more than ripper takes"
                             % MAX_NESTING, hint="split the function or expression into "
                             "smaller ones")

    def stmt(self, c):
        self.deeper(c)
        try:
            node = self.make_stmt(c)
        finally:
            self.depth -= 1
        kids = node.children()
        if kids and kids[-1].end > node.end:
            node.end = kids[-1].end
        return node

    def make_stmt(self, c):
        k = _KIND_OF[c._kind_id]
        s, e = _range(c)
        kids = _children(c)
        if k == CK.COMPOUND_STMT:
            return T.Compound([self.stmt(x) for x in kids], start=s, end=e)
        if k == CK.DECL_STMT:
            return T.DeclStmt(self.decls(kids), start=s, end=e)
        if k == CK.IF_STMT:
            parts = [self.expr(kids[0])] + [self.stmt(x) for x in kids[1:]]
            return T.If(parts[0], parts[1], parts[2] if len(parts) > 2 else None,
                        start=s, end=e)
        if k == CK.WHILE_STMT:
            return T.While(self.expr(kids[0]), self.stmt(kids[1]), start=s, end=e)
        if k == CK.DO_STMT:
            return T.Do(self.stmt(kids[0]), self.expr(kids[1]), start=s,
                        end=semicolon_after(self.text, e))
        if k == CK.FOR_STMT:
            return self.for_stmt(c, kids, s, e)
        if k == CK.SWITCH_STMT:
            return T.Switch(self.expr(kids[0]), self.stmt(kids[1]), start=s, end=e)
        if k == CK.CASE_STMT:
            high = self.expr(kids[1]) if len(kids) > 2 else None
            return T.Case(self.expr(kids[0]), high, self.stmt(kids[-1]), start=s, end=e)
        if k == CK.DEFAULT_STMT:
            return T.Default(self.stmt(kids[0]), start=s, end=e)
        if k == CK.LABEL_STMT:
            return T.Label(self.stmt(kids[0]), c.spelling, start=s, end=e)
        if k == CK.GOTO_STMT:
            label = next((x.spelling for x in kids if x.kind == CK.LABEL_REF), "")
            return T.Goto(label, start=s, end=semicolon_after(self.text, e))
        if k == CK.INDIRECT_GOTO_STMT:
            return T.IndirectGoto(self.expr(kids[0]), start=s, end=semicolon_after(self.text, e))
        if k == CK.BREAK_STMT:
            return T.Break(start=s, end=semicolon_after(self.text, e))
        if k == CK.CONTINUE_STMT:
            return T.Continue(start=s, end=semicolon_after(self.text, e))
        if k == CK.RETURN_STMT:
            value = self.expr(kids[0]) if kids else None
            return T.Return(value, start=s, end=semicolon_after(self.text, e))
        if k == CK.NULL_STMT:
            return T.Null(start=s, end=e)
        if k in (CK.ASM_STMT, CK.MS_ASM_STMT):
            return T.Asm([self.expr(x) for x in kids], self.asm_labels(s, e), start=s,
                          end=semicolon_after(self.text, e))
        if self.is_expression(k):
            x = self.expr(c)
            return T.ExprStmt(x, start=x.start, end=semicolon_after(self.text, x.end))
        if k == CK.UNEXPOSED_STMT and len(kids) == 1 and kids[0].kind.is_statement():
            return T.Attributed(self.stmt(kids[0]), start=s, end=e)
        if k == CK.UNEXPOSED_STMT and not kids:
            return T.Null(start=s, end=semicolon_after(self.text, e))
        raise self.error(s, "unsupported statement (%s)" % k.name,
                         hint="this is a gap in ripper; please report it")

    @staticmethod
    def is_expression(k):
        return k.is_expression()

    def for_stmt(self, c, kids, s, e):
        """Tell a for statement's init, cond and inc apart by the ';'s of
        its header (clang lists only the parts that are present)."""
        semis = self.header_semicolons(s)
        if len(semis) != 2:
            raise self.error(s, "cannot find the two ';' of this for statement")
        init = cond = step = None
        for x in kids[:-1]:
            xs, _ = _range(x)
            if xs < semis[0] or (x.kind == CK.DECL_STMT and xs <= semis[0]):
                init = self.stmt(x) if x.kind == CK.DECL_STMT else self.expr(x)
            elif xs < semis[1]:
                cond = self.expr(x)
            else:
                step = self.expr(x)
        if isinstance(init, T.Expr):
            init = T.ExprStmt(init, start=init.start, end=semis[0] + 1)
        return T.For(init, cond, step, self.stmt(kids[-1]), semis, start=s, end=e)

    def header_semicolons(self, s):
        """Offsets of the ';'s at the top level of the parenthesized header
        that follows offset s (strings, characters and comments skipped)."""
        text, n = self.text, len(self.text)
        i = text.find(b"(", s)
        depth, semis = 0, []
        while 0 <= i < n:
            ch = text[i]
            if ch in b"([{":
                depth += 1
            elif ch in b")]}":
                depth -= 1
                if depth == 0:
                    break
            elif ch == 59 and depth == 1:           # ';'
                semis.append(i)
            elif ch in b"\"'":
                j = i + 1
                while j < n and text[j] != ch and text[j] != 10:
                    j += 2 if text[j] == 92 else 1  # a backslash escapes
                i = j
            elif text.startswith(b"/*", i):
                i = text.find(b"*/", i + 2) + 1 or n
            elif text.startswith(b"//", i) or (ch == 35 and text[i - 1] == 10):
                i = text.find(b"\n", i)             # a comment or a linemarker
                if i < 0:
                    break
            i += 1
        return semis

    def asm_labels(self, s, e):
        """The labels of `asm goto (... : ... : ... : ... : l1, l2)`."""
        body = self.text[s:e]
        if not re.match(rb"\w+\s*(?:\w+\s*)*goto\b", body) and b"goto" not in body[:40]:
            return []
        depth, colons, labels, i = 0, 0, [], body.find(b"(")
        for m in re.finditer(rb'"(?:[^"\\]|\\.)*"|[()]|:|[A-Za-z_]\w*', body[i:]):
            tok = m.group()
            if tok == b"(":
                depth += 1
            elif tok == b")":
                depth -= 1
            elif tok == b":" and depth == 1:
                colons += 1
            elif colons == 4 and depth == 1 and tok[:1] != b'"':
                labels.append(tok.decode())
        return labels

    # -- declarations -------------------------------------------------------

    def decls(self, kids):
        out = []
        for x in kids:
            k = x.kind
            s, e = _range(x)
            if k == CK.VAR_DECL:
                out.append(self.var(x))
            elif k == CK.FUNCTION_DECL:
                d = T.FuncDecl(x.spelling, _offset(x.location), True, start=s, end=e)
                d.own_params = _writes_params(self.text, d)
                out.append(d)
            elif k == CK.STATIC_ASSERT:
                exprs = [self.expr(y) for y in _children(x) if self.is_expression(y.kind)]
                out.append(T.StaticAssert(_dedupe(exprs), start=s, end=e))
            else:
                exprs = [self.expr(y) for y in _children(x) if self.is_expression(y.kind)]
                tags, constants = _declared_names(x)
                out.append(T.TypeDecl(_typed(self, _dedupe(exprs)),
                                      "" if x.is_anonymous() else x.spelling, k.name,
                                      tags, constants, _names_function_declarations(x),
                                      start=s, end=e))
        return out

    def var(self, c):
        s, e = _range(c)
        name_at = _offset(c.location)
        if c.tls_kind != ci.TLSKind.NONE and \
                c.semantic_parent is not None and c.semantic_parent.kind != CK.TRANSLATION_UNIT:
            self.block_thread_locals.append((c.spelling, name_at))
        kids = _children(c)
        init, type_exprs = None, []
        name_end = name_at + len(c.spelling.encode())
        for i, x in enumerate(kids):
            if not self.is_expression(x.kind):
                continue
            xs, _ = _range(x)
            if i == len(kids) - 1 and xs >= name_end and \
                    b"=" in self.text[name_end:xs]:
                init = self.expr(x)
            else:
                type_exprs.append(self.expr(x))
        storage = {ci.StorageClass.STATIC: "static", ci.StorageClass.EXTERN: "extern",
                   ci.StorageClass.REGISTER: "register",
                   ci.StorageClass.AUTO: "auto"}.get(c.storage_class, "")
        attrs = [x for x in kids if x.kind.is_attribute()]
        return T.VarDecl(_typed(self, _dedupe(type_exprs)), init, c.spelling, "var:%d" % name_at,
                         self.ctype(c), storage, name_at, _block_typedefs(kids),
                         any(_attr_name(a, c) in CLEANUP_ATTRS for a in attrs),
                         any(a.kind == CK.ASM_LABEL_ATTR for a in attrs),
                         _alignment(attrs, c), start=s, end=e)

    def param(self, c):
        s, e = _range(c)
        name_at = _offset(c.location)
        exprs = [self.expr(x) for x in _children(c) if self.is_expression(x.kind)]
        return T.ParamDecl(_typed(self, _dedupe(exprs)), c.spelling, "var:%d" % name_at, self.param_type(c),
                           start=s, end=e)

    def param_type(self, c):
        """A parameter's type as the function sees it: arrays and functions
        become pointers (`char *argv[]` is a `char **`, a va_list a pointer,
        `int x[volatile 5]` an `int *volatile`)."""
        return self.types.parameter(c.type, _index_volatile(c))

    # -- expressions --------------------------------------------------------

    def expr(self, c):
        self.deeper(c)
        try:
            return self.make_expr(c)
        finally:
            self.depth -= 1

    def make_expr(self, c):
        k = _KIND_OF[c._kind_id]
        s, e = _range(c)
        ty = (self.type_maker, _saved(c), None)   # a CType when asked (tree.Expr)
        if k == CK.DECL_REF_EXPR:
            ref = c.referenced
            what, key = "var", None
            if ref is not None:
                rk = ref.kind
                if rk == CK.FUNCTION_DECL:
                    what, key = "fn", ref.spelling
                elif rk == CK.ENUM_CONSTANT_DECL:
                    what, key = "const", "const:%d" % _offset(ref.location)
                else:
                    key = "var:%d" % _offset(ref.location)
            name = self.text[s:e]
            name = name.decode() if _IDENT.fullmatch(name) else c.spelling
            # one str per name and key, not per use (10^5 references in SQLite)
            return T.Ref(sys.intern(name), key and sys.intern(key), what, start=s, end=e,
                         lazy=ty)
        if k in _LITERALS:
            return T.Literal(start=s, end=e, lazy=ty)
        if k == CK.STRING_LITERAL:
            if self.text[s:e] in FUNC_NAMES:
                return T.FuncName(start=s, end=e, lazy=ty)
            return T.Literal(start=s, end=e, lazy=ty)
        kids = _children(c)         # (leaves above: no call for what has none)
        if k == CK.UNEXPOSED_EXPR:
            if len(kids) == 1 and _range(kids[0]) == (s, e):
                inner = self.expr(kids[0])          # an implicit conversion
                inner.convert_to(_saved(c))
                return inner
            return self.unexposed(c, kids, s, e, ty)
        if k == CK.CALL_EXPR:
            if not kids:
                return T.Opaque([], "call", start=s, end=e, lazy=ty)
            return T.Call(self.expr(kids[0]), [self.expr(x) for x in kids[1:]],
                          start=s, end=e, lazy=ty)
        if k == CK.PAREN_EXPR:
            return T.Paren(self.expr(kids[0]), start=s, end=e, lazy=ty)
        if k == CK.UNARY_OPERATOR:
            op = _UNARY_OPS[_lib().clang_getCursorUnaryOperatorKind(c)]
            return T.Unary(self.expr(kids[0]), op, start=s, end=e, lazy=ty)
        if k in (CK.BINARY_OPERATOR, CK.COMPOUND_ASSIGNMENT_OPERATOR):
            op = _BINARY_OPS[_lib().clang_getCursorBinaryOperatorKind(c)]
            lhs, rhs = self.expr(kids[0]), self.expr(kids[1])
            cls = T.Assign if k == CK.COMPOUND_ASSIGNMENT_OPERATOR or op == "=" else T.Binary
            return cls(lhs, rhs, op, start=s, end=e, lazy=ty)
        if k == CK.CONDITIONAL_OPERATOR:
            return T.Cond(self.expr(kids[0]), self.expr(kids[1]), self.expr(kids[2]),
                          start=s, end=e, lazy=ty)
        if k == CK.CSTYLE_CAST_EXPR:
            exprs = [self.expr(x) for x in kids[:-1] if self.is_expression(x.kind)]
            return T.Cast(_typed(self, _dedupe(exprs)), self.expr(kids[-1]), start=s, end=e, lazy=ty)
        if k == CK.MEMBER_REF_EXPR:
            base = self.expr(kids[0]) if kids else None
            at = _offset(c.location)
            arrow = base is not None and b"->" in self.text[base.end:at]
            return T.Member(base, sys.intern(c.spelling), arrow, start=s, end=e, lazy=ty)
        if k == CK.ARRAY_SUBSCRIPT_EXPR:
            return T.Index(self.expr(kids[0]), self.expr(kids[1]), start=s, end=e, lazy=ty)
        if k == CK.CXX_UNARY_EXPR:
            return self.sizeof(c, kids, s, e, ty)
        if k == CK.StmtExpr:
            return T.StmtExpr(self.stmt(kids[0]), start=s, end=e, lazy=ty)
        if k == CK.INIT_LIST_EXPR:
            return T.InitList([self.init_item(x) for x in kids], start=s, end=e, lazy=ty)
        if k == CK.COMPOUND_LITERAL_EXPR:
            exprs = [self.expr(x) for x in kids[:-1] if self.is_expression(x.kind)]
            return T.CompoundLiteral(_typed(self, _dedupe(exprs)), self.expr(kids[-1]),
                                     start=s, end=e, lazy=ty)
        if k == CK.GENERIC_SELECTION_EXPR:
            exprs = [self.expr(x) for x in kids if self.is_expression(x.kind)]
            return T.Generic(exprs[0], exprs[1:], start=s, end=e, lazy=ty)
        if k == CK.ADDR_LABEL_EXPR:
            return T.Opaque([], "label address", start=s, end=e, lazy=ty)
        exprs = [self.expr(x) for x in kids if self.is_expression(x.kind)]
        return T.Opaque(_dedupe(exprs), k.name.lower(), start=s, end=e, lazy=ty)

    def init_item(self, c):
        """An initializer list's item: a designated one (`.x = v`, `[i] = v`)
        is an UNEXPOSED_EXPR of type void in libclang."""
        if c.kind == CK.UNEXPOSED_EXPR and c.type.kind == TK.VOID:
            kids = _children(c)
            exprs = [x for x in kids if self.is_expression(x.kind)]
            if exprs and len(kids) >= 2:
                s, e = _range(c)
                value = self.expr(exprs[-1])
                designators = [self.expr(x) for x in exprs[:-1]]
                names = [x.spelling for x in kids if x.kind == CK.MEMBER_REF]
                return T.Designated(designators, value, names, start=s, end=e,
                                    lazy=(_type_of_node, value, None))
        return self.expr(c)

    def unexposed(self, c, kids, s, e, ty):
        text = self.text[s:e]
        exprs = [x for x in kids if self.is_expression(x.kind)]
        if text.startswith(b"__builtin_choose_expr") and len(exprs) == 3:
            a, b, d = (self.expr(x) for x in exprs)
            value = _constant(exprs[0])
            return T.Choose(a, b, d, None if value is None else value != 0, start=s, end=e,
                            lazy=ty)
        for name in BUILTIN_OPAQUE:
            if text.startswith(name.encode()):
                parts = [self.expr(x) for x in exprs]
                return T.Opaque(_dedupe(parts), name, start=s, end=e, lazy=ty)
        if len(exprs) == 4:                 # GNU `c ?: b`: common, cond, true, false
            common = self.expr(exprs[0])
            if b"?" in self.text[common.end:_range(exprs[3])[0]]:
                return T.Cond(common, None, self.expr(exprs[3]), start=s, end=e, lazy=ty)
        parts = [self.expr(x) for x in exprs]
        return T.Opaque(_dedupe(parts), "unexposed", start=s, end=e, lazy=ty)

    def sizeof(self, c, kids, s, e, ty):
        """sizeof / _Alignof: of an expression (the child that runs to the
        end) or of a type (the expressions inside the type)."""
        text = self.text[s:e]
        m = re.match(rb"\w+", text)
        op = m.group().decode() if m else "sizeof"
        exprs = [x for x in kids if self.is_expression(x.kind)]
        if exprs and _range(exprs[-1])[1] == e and \
                skip_blank(self.text, s + len(op)) == _range(exprs[-1])[0]:
            operand = self.expr(exprs[-1])
            vm = operand.type is not None and operand.type.vm
            return T.SizeOf([], operand, op, vm and op == "sizeof", start=s, end=e, lazy=ty)
        parts = _typed(self, _dedupe([self.expr(x) for x in exprs]))
        evaluated = op == "sizeof" and any(self.array_size(p) for p in parts)
        return T.SizeOf(parts, None, op, evaluated, start=s, end=e, lazy=ty)

    def array_size(self, node, constant_too=False):
        """Is `node`, inside a written type, an array's size (that is not a
        constant, so the type is variably modified)?"""
        i = node.start - 1
        while i >= 0 and self.text[i:i + 1] in b" \t\r\n":
            i -= 1
        if self.text[i:i + 1] != b"[":
            return False
        return constant_too or any(isinstance(n, T.Call) or
                                   (isinstance(n, T.Ref) and n.what == "var")
                                   for n in node.walk())


def _typed(builder, nodes):
    """Expressions inside a written type, each with its role: an array's
    size, or a typeof operand (or anything else: 'typeof', never run)."""
    for n in nodes:
        n.role = "size" if builder.array_size(n, constant_too=True) else "typeof"
    return nodes


def _dedupe(nodes):
    """Nodes in source order, one per range, none inside another (libclang
    lists a VLA's size twice, once for the type and once as the size)."""
    out = []
    for n in sorted(nodes, key=lambda n: (n.start, -n.end)):
        if out and n.start < out[-1].end:
            continue
        out.append(n)
    return out


# -- the translation unit ---------------------------------------------------

_FILE_LOCATION = _RANGE_START = _RANGE_END = _EXTENT = None     # bound by _lib()


def parse(pre, dialect=(), alarm=None):
    """Parse preprocessed text into a tree.Unit.

    `pre`: a preprocess.Preprocessed, or a preprocessing under way
    (start_preprocess()), whose likely text libclang parses while the
    preprocessor's choice of text is settled.  `dialect`: the user's flags
    that shape the language (-std=...).  Raises Diagnostic for every error
    libclang reports in user code.  With `alarm` (seconds), SIGALRM ends
    the process if preprocessing and libclang's parse together run longer:
    libclang hangs on some malformed input.  The preprocessor is waited for
    first, under its own limit (preprocess.py), so that a hang there is
    reported as the preprocessor's, its group ended.  Only for a process
    that exists to rip one file (ripper's child)."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))   # deep expressions
    global _raw_base
    _raw_base = None            # the slow path until this text's base is measured
    try:
        index = ci.Index.create()
        _lib()
    except Exception as e:  # the shared library could not be loaded
        # cindex's advice (Config.set_library_path()) is for its own callers
        why = str(e).split(". To provide a path to libclang")[0]
        raise Diagnostic("", 0, 0, "cannot load libclang's shared library (%s): reinstall "
                         "it with 'pip install --force-reinstall libclang'" % why) from e
    name = (pre.path if pre.path not in ("-", "<stdin>") else "stdin") + ".ripper.i"
    args = ["-x", "cpp-output", "-ferror-limit=0",
            "-fbracket-depth=%d" % (MAX_NESTING + 48)] + list(dialect) + LENIENT
    if alarm:
        started = time.monotonic()
        if hasattr(pre, "candidate"):
            started = pre.started
            pre.candidate()                 # the preprocessor: under its own limit
        signal.setitimer(signal.ITIMER_REAL, max(alarm - (time.monotonic() - started), 0.001))
    try:
        if hasattr(pre, "candidate"):       # under way
            text = pre.candidate()
            tu = _parse_text(index, name, args, text, pre.path)
            pre = pre.result()
            if pre.text is not text:        # not the text parsed
                tu = _parse_text(index, name, args, pre.text, pre.path)
        else:
            tu = _parse_text(index, name, args, pre.text, pre.path)
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
    lines = pre.lines
    errors = []
    for d in tu.diagnostics:
        if d.severity < ci.Diagnostic.Error:
            continue
        if d.location.file is None:
            errors.append(Diagnostic(pre.path, 0, 0, d.spelling))
            errors[-1].libclang_rejects = True
            continue
        off = _offset(d.location)
        if lines.in_system_header(off):
            continue                # gcc's own headers, which gcc accepts
        fname, line, _ = lines.where(off)
        # no note yet: whether the compiler accepts the file is the
        # driver's to find out (cli.compiler_judges)
        message, hint = next(((m, h) for key, (m, h) in GNU_ONLY.items()
                              if d.spelling.startswith(key)), (d.spelling, None))
        errors.append(Diagnostic(fname, line, lines.column(off), message, hint))
        errors[-1].libclang_rejects = True
    if errors:
        raise errors[0].with_others(errors[1:50])
    try:
        return _Unit(pre, tu, dialect).build()
    finally:
        _ints.clear()           # the tree shares the ints; the table goes


def _parse_text(index, name, args, text, path):
    try:
        return index.parse(name, args=args, unsaved_files=[(name, text)])
    except ci.TranslationUnitLoadError as e:
        raise Diagnostic(path, 0, 0, "libclang could not parse the file: %s" % e) from e


class _SystemFunction(T.Function):
    """A function a system header declares (or defines) without RIP_ASYNC:
    hundreds per file, of which the passes ask all but a few only for
    name, system and definition.  The rest is read from libclang when
    first asked."""
    __slots__ = ("_unit", "_cursor")

    def __init__(self, unit, c, s, e):      # not Function's: that sets every field
        self._unit, self._cursor = unit, c
        self.name, self.start, self.end = c.spelling, s, e
        self.system, self.marked_async = True, False
        self.definition = c.is_definition()
        self.body = None                    # a system header's body is not read

    def __getattr__(self, name):            # a field not read yet
        if name in ("_unit", "_cursor"):
            raise AttributeError(name)
        full = self._unit.full_function(self._cursor, self.start, self.end, True)
        for slot in T.Function.__slots__:
            setattr(self, slot, getattr(full, slot))
        return getattr(self, name)


class _Unit:
    def __init__(self, pre, tu, dialect):
        self.pre = pre
        self.tu = tu
        self.text = pre.text
        self.lines = pre.lines
        self.types = _Types(tu)
        self.builder = _Builder(pre.text, pre.lines, self.types, pre.path)
        self.annotations = [m.start() for m in ANNOTATION.finditer(pre.text)]

    def annotated(self, s, e):
        """Offsets of annotate("rip_async") in [s, e)."""
        i = bisect.bisect_left(self.annotations, s)
        out = []
        while i < len(self.annotations) and self.annotations[i] < e:
            out.append(self.annotations[i])
            i += 1
        return out

    def thread_local(self, c, s, e):
        """The ThreadLocal of file-scope VAR_DECL cursor c, of range s..e."""
        name_at = _offset(c.location)
        m = _TLS_KEYWORD.search(self.pre.text, s, name_at)
        storage = {ci.StorageClass.STATIC: "static",
                   ci.StorageClass.EXTERN: "extern"}.get(c.storage_class, "")
        definition = c.is_definition() if hasattr(c, "is_definition") else storage != "extern"
        return T.ThreadLocal(c.spelling, name_at, s, e, m.start() if m else -1,
                             m.end() if m else -1, storage, definition)
    def build(self):
        functions, var_cursors, async_typedefs = [], [], []
        top = _children(self.tu.cursor)
        _measure_raw_base(top, len(self.text))
        for c in top:
            k = c.kind
            if k == CK.FUNCTION_DECL:
                functions.append(self.function(c))
            elif k == CK.VAR_DECL:
                var_cursors.append(c)
            elif k == CK.TYPEDEF_DECL:
                s, e = _range(c)
                if self.annotated(s, e):
                    async_typedefs.append(self.async_typedef(c, s, e))
        names = {f.name for f in functions if not f.system}
        # and the C library's pthread calls --posix renames (blocking.py):
        # a file-scope pointer to one must go to the runtime's too
        named = names | {f.name for f in functions if f.system and f.name in POSIX_PTHREAD}
        globals_, global_names = [], []
        declarators = [T.Declarator(f.name, f.name_at, f.start, f.end, True)
                       for f in functions if not f.system and not f.definition]
        ident = re.compile(rb"[A-Za-z_]\w*")
        thread_locals = []
        for c in var_cursors:
            s, e = _range(c)
            if self.lines.in_system_header(s):
                continue
            if c.tls_kind != ci.TLSKind.NONE:
                thread_locals.append(self.thread_local(c, s, e))
            global_names.append((c.spelling, _offset(c.location)))
            declarators.append(T.Declarator(c.spelling, _offset(c.location), s, e, False))
            if any(m.group().decode() in named for m in ident.finditer(self.text, s, e)):
                node = self.builder.var(c)
                globals_.append(T.set_parents(node))
        unit = T.Unit(self.pre, functions, globals_, async_typedefs)
        unit.thread_locals = thread_locals
        unit.block_thread_locals = self.builder.block_thread_locals
        unit.release = self.release
        unit.global_names = global_names
        for c in top:
            if c.kind in _TAGS or c.kind == CK.TYPEDEF_DECL:
                tags, constants = _declared_names(c)
                unit.file_tags.update(tags)
                unit.file_names.update(constants)
            if c.kind in (CK.FUNCTION_DECL, CK.VAR_DECL, CK.TYPEDEF_DECL):
                unit.file_names.add(c.spelling)
        for d in sorted(declarators, key=lambda d: d.name_at):
            unit.declarators.setdefault(d.start, []).append(d)
        return unit

    def release(self):
        """Free libclang's unit (SQLite's: some 90 MB) once nothing will
        ask the tree for what it reads lazily (types, system functions):
        ripping does, after lowering, before the output is put together.
        A later ask raises RuntimeError, never reads freed memory."""
        if self.tu is not None:
            tu, self.tu, self.types.tu = self.tu, None, None
            ci.conf.lib.clang_disposeTranslationUnit(tu)
            tu.obj = tu._as_parameter_ = None   # its __del__ disposes NULL: nothing

    def function(self, c):
        s, e = _range(c)
        # a system header's by where its name is: a definition may begin
        # with a system header's macro (`noreturn`, RIP_ASYNC from a rip.h
        # found through -isystem), and is the user's all the same
        system = self.lines.in_system_header(_offset(c.location))
        if system and not self.annotated(s, e):
            return _SystemFunction(self, c, s, e)
        return self.full_function(c, s, e, system)

    def full_function(self, c, s, e, system):
        if self.tu is None:
            raise RuntimeError("a function read after libclang's unit was released")
        definition = c.is_definition()
        kids = _children(c) if (definition and not system) or self.annotated(s, e) else None
        body = None
        if kids is not None:
            bodies = [x for x in kids if x.kind == CK.COMPOUND_STMT]
            body = bodies[-1] if bodies and definition else None
        header_end = _range(body)[0] if body is not None else e
        annotations = [a for a in self.annotated(s, header_end)]
        marked = bool(annotations) and any(
            x.kind == CK.ANNOTATE_ATTR and x.spelling == RIP_ASYNC_ANNOTATION
            for x in (kids if kids is not None else _children(c)))
        ftype = _function_type(c.type)
        prototyped = ftype.kind == TK.FUNCTIONPROTO
        f = T.Function(c.spelling, s, e, name_at=_offset(c.location), system=system,
                       definition=definition, marked_async=marked,
                       variadic=prototyped and ftype.is_function_variadic(),
                       static=c.storage_class == ci.StorageClass.STATIC,
                       types=lambda: self.function_types(c, ftype),
                       prototyped=prototyped, header_end=header_end)
        f.own_params = definition or _writes_params(self.text, f)
        if system:
            f.asm_label = next((x.spelling for x in (kids if kids is not None else _children(c))
                                if x.kind == CK.ASM_LABEL_ATTR), None)
        f.annotations = [(a, a + len(ANNOTATION.match(self.text, a).group()))
                         for a in annotations]
        if kids is not None:
            f.attrs = [self.text[slice(*_range(x))].decode("utf-8", "replace")
                       for x in kids if x.kind.is_attribute()]
            params = [x for x in kids if x.kind == CK.PARM_DECL]
            own = {x.hash for x in c.get_arguments()} if params else set()
            f.params = [T.set_parents(self.builder.param(x)) for x in params if x.hash in own]
            if body is not None:
                f.body = T.set_parents(self.builder.stmt(body))
                f.knr = any(p.start > self.close_paren(f) for p in f.params if p.start >= 0)
        return f

    def function_types(self, c, ftype):
        """(result CType, parameter CTypes) of function cursor c, of function
        type `ftype`: each parameter's as the function sees it (an array a
        pointer)."""
        if self.tu is None:
            raise RuntimeError("a function's types asked for after libclang's unit was released")
        params = [self.types.parameter(a) for a in ftype.argument_types()] \
            if ftype.kind == TK.FUNCTIONPROTO else []
        return self.types.get(c.result_type), params

    def close_paren(self, f):
        """Offset of the ')' that closes f's parameter list."""
        i = self.text.find(b"(", f.name_at)
        depth = 0
        while 0 <= i < len(self.text):
            ch = self.text[i:i + 1]
            if ch == b"(":
                depth += 1
            elif ch == b")":
                depth -= 1
                if depth == 0:
                    return i
            i += 1
        return len(self.text)

    def async_typedef(self, c, s, e):
        """(typedef start, name offset, annotations): a RIP_ASYNC_FN type."""
        return (s, _offset(c.location), [(a, a + len(ANNOTATION.match(self.text, a).group()))
                                         for a in self.annotated(s, e)])

"""wholeprogram.py -- a POSIX program of several files, ripped whole at its link.

Under --posix a function that calls read() is async, and so is every
function that calls it, through the call graph; but a file compiled alone
sees only plain declarations of the other files' functions:

    io.c:      ssize_t read_line(...) { ... read(fd, &c, 1) ... }  -> async: rip__new_read_line
    server.c:  int serve(int fd) { ... read_line(fd, ...) ... }     -> plain: calls `read_line`

and the link would fail (there is no plain `read_line`).  So each object
`ripcc --posix` compiles on the rip backend keeps a record of how to rip
it again, in a section the link leaves out of the program (SHF_EXCLUDE):
the folder, the compiler and flags, the source, and a hash of each of the
user's files it read.  At the link (rip_again), ripcc reads the symbols
of every object and archive member: one that refers plainly to a function
another object defines async is ripped again from its source with those
functions async (analysis.py's also_async), which may make functions of
its own async (serve), which others call plainly (main.c): rounds until
no plain reference to an async function is left.  The async set only
grows, so the rounds end.  The link then takes the objects ripped again
in place of the old ones; an archive, a copy with those members replaced.

An object that cannot be ripped again (no record: not built by ripcc
--posix; its source changed or gone since) is an error that names the
function, the object and what to do; an archive member's is told only if
the link then fails (the linker may not need that member).
"""

import os
import sys

from . import abi, children, objfile
from .diag import Diagnostic

RECORD_SECTION = ".rip_rerip"
RECORD_VERSION = 1
RECORD_PIECE = 400      # characters of the record per asm statement (C90: 509 a string)


def record_asm(record):
    """C text (top-level asm) that puts `record` (a dict) into the object's
    RECORD_SECTION, NUL-terminated base64 of its JSON: flag "e"
    (SHF_EXCLUDE) keeps it out of executables and shared libraries; `ld -r`
    keeps every record of what it joins.  The text is cut in pieces of
    RECORD_PIECE characters, one asm statement each (they are emitted in
    order): no string literal passes the 509 characters C90 compilers
    must support, which clang's -pedantic warns about, asm or not.

        record_asm({"v": 1}) -> '__asm__(".pushsection .rip_rerip,\\"e\\",%progbits\\n..."'"""
    import base64               # here: only --posix builds write records (3 ms of a start)
    import json
    text = base64.b64encode(json.dumps(record, sort_keys=True).encode()).decode()
    pieces = [text[i:i + RECORD_PIECE] for i in range(0, len(text), RECORD_PIECE)] or [""]
    return "\n" + "".join('__asm__(".pushsection %s,\\"e\\",%%progbits\\n\\t.%s \\"%s\\"\\n\\t'
                          '.popsection");\n' % (RECORD_SECTION, "asciz" if i == len(pieces) - 1
                                                 else "ascii", piece)
                          for i, piece in enumerate(pieces))


def make_record(source, cc, flags, all_async, blocking_mode, seconds, files, warned,
                max_frame=None):
    """The record of one compile: `source` as named (relative to the
    folder), the compiler's words and flags, and the hash of each of the
    user's `files` the preprocessor read; `warned`: the places of the
    warnings it printed (a rip again prints only new ones); `max_frame`:
    its --max-frame (a rip again keeps to it too)."""
    return {"v": RECORD_VERSION, "cwd": os.getcwd(), "source": source, "cc": list(cc),
            "flags": list(flags), "all_async": all_async, "blocking": blocking_mode,
            "seconds": seconds, "files": [[f, file_hash(f)] for f in files],
            "warned": sorted(set(warned)), "max_frame": max_frame}


def file_hash(path):
    import hashlib
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def records(data):
    """The records in ELF object `data` (one per object `ripcc --posix`
    compiled; several if `ld -r` joined objects)."""
    import base64
    import json
    section = objfile.elf_section(data, RECORD_SECTION)
    out = []
    for text in (section or b"").split(b"\0"):
        if text:
            try:
                out.append(json.loads(base64.b64decode(text)))
            except ValueError:
                out.append({})
    return out


def has_record(path):
    """Was object (or any member of archive) `path` compiled by ripcc --posix?"""
    try:
        if objfile.is_archive(path):
            return any(records(data) for _, data in objfile.members(path))
        with open(path, "rb") as f:
            return bool(records(f.read()))
    except (objfile.NotReadable, OSError):
        return False


class Elsewhere(str):
    """The object an async function of another file is ripped in, as
    messages name it (a str), and whether it keeps the function's plain
    form there (`plain`): a file ripped again with it async gives its own
    functions a plain form only where that one has one (analysis.py).

        Elsewhere("log.o", plain=False) -> "log.o", .plain False"""

    def __new__(cls, shown, plain=True):
        self = str.__new__(cls, shown)
        self.plain = plain
        return self

    def __reduce__(self):           # pickled to the ripping child (cli.py)
        return (Elsewhere, (str(self), self.plain))


class _Object:
    """An object of the link, explicit or an archive's member."""

    def __init__(self, shown, data, path=None, archive=None, member=None):
        self.shown = shown          # how messages name it: "server.o", "libsrv.a(server.o)"
        self.path = path            # the file the link names (an explicit object), else None
        self.archive = archive      # the archive it is a member of (as the link names it)
        self.member = member        # its name in that archive
        self.records = records(data)
        self.defined, self.undefined = objfile.elf_symbols(data)
        self.also = {}              # the async functions it was ripped again with -> where
        self.again = None           # the object ripped again (in ripcc's folder), else None
        self.stuck = None           # why it cannot be ripped again (an archive member's)
        self.needs = set()          # what it needed when it got stuck


class Result:
    def __init__(self):
        self.replaced = {}          # a file the link names -> the file it takes instead
        self.names = {}             # a file of ripcc's -> how messages name it
        self.stuck = []             # archive members not ripped again (_Object.stuck says why)
        self.rounds = 0             # rounds of ripping again
        self.ripped = 0             # objects ripped again, counted each round


def rip_again(files, names, tmp, rip_one, verbose=False):
    """Rip again, with the async functions of the others, every object of
    `files` (objects and archives, as the link names them; `names`: how to
    name ripcc's own) that calls one of them plainly; `rip_one(record,
    also_async, out)` rips one from its record into object `out`.  Returns
    a Result; raises Diagnostic for an explicit object that cannot be
    ripped again."""
    result = Result()
    tmp = os.path.abspath(tmp)          # rip_one works in each object's own folder
    objects = _objects(files, names)
    count = 0
    while True:
        where, plain = _async_functions(objects)
        todo = []
        for o in objects:
            if o.stuck:
                continue
            # a plain call left after ripping again is plain code's (a
            # handler a plain pointer calls), which the plain form serves;
            # where there is none, the object is ripped again knowing it
            # (its own plain forms that call it go), and then it is an error
            need = {n for n in o.undefined if n in where and
                    (n not in o.also or (n not in plain and o.also[n].plain))}
            left = sorted(n for n in o.undefined if n in where and n in o.also and
                          n not in plain and not o.also[n].plain)
            if left:
                n = left[0]
                raise Diagnostic("", 0, 0, "%s still calls '%s' as a plain function after "
                                 "ripping %s again with it async (it is ripped in %s)"
                                 % (o.shown, n, _source_of(o), where[n]),
                                 hint="declare '%s' at file scope, with a prototype, before "
                                 "its calls (ripper does not read a declaration inside a "
                                 "function, nor an implicit one), or call it only from "
                                 "code that runs in a task (its plain form could not stay: "
                                 "it calls an async function that has none)" % n)
            if need:
                todo.append((o, need))
        if not todo:
            return result
        result.rounds += 1
        for o, need in todo:
            also = dict(o.also)
            also.update((n, Elsewhere(where[n], n in plain)) for n in need)
            problem = _why_not(o)
            n = sorted(need)[0]
            if problem:
                message, what_to_do = _cannot(o, n, where[n], problem)
                if o.archive is None:
                    raise Diagnostic("", 0, 0, message, hint=what_to_do)
                o.stuck, o.needs = message + "\nripcc: note: " + what_to_do, need
                result.stuck.append(o)
                continue
            count += 1
            out = os.path.join(tmp, "again-%d-%s.o" % (count, _stem(o.member or o.shown)))
            if verbose:
                print("ripcc: %s calls %s as %s: ripping %s again with %s async"
                      % (o.shown, _quoted(need, where), "plain functions" if len(need) > 1
                         else "a plain function", o.records[0]["source"],
                         "them" if len(need) > 1 else "it"),
                      file=sys.stderr)
            before = {abi.constructed(s) for s in o.defined} - {None}
            rip_one(o.records[0], also, out)
            with open(out, "rb") as f:
                o.defined, o.undefined = objfile.elf_symbols(f.read())
            o.also, o.again = also, out
            result.ripped += 1
            now = sorted({abi.constructed(s) for s in o.defined} - {None} - before)
            if verbose and now:
                print("ripcc: %s: now async: %s" % (o.shown, ", ".join(now)), file=sys.stderr)
            if o.path is not None:
                result.replaced[o.path] = out
                result.names[out] = o.shown
        for a in {o.archive for o, _ in todo if o.archive and o.again}:
            copy = _archive_copy(a, [o for o in objects if o.archive == a], tmp)
            result.replaced[a] = copy
            result.names[copy] = names.get(a, a)


def _async_functions(objects):
    """({function: the object that defines it async}, {those of them that
    object also defines plainly}): the functions ripped async (their frame
    constructor defined globally, rip__new_f), as the linker would pick.
    Under --posix a ripped function keeps its plain definition beside
    when it can (for plain pointers and plain callers: main, a handler
    table's functions), as --all-async's all do.  An explicit object's
    plain definition wins over an archive member's async one (an
    override); an archive's plain one is taken only by plain calls,
    which ripping again makes async (libc.a's getline, when the program
    defines its own); two explicit objects defining it, one plainly, one
    async, is the program defining it twice, an error.

        io.o: rip__new_read_line, read_line  main.o: main, rip__new_main
          ->  ({"read_line": "io.o", "main": "main.o"}, {"read_line", "main"})"""
    where, explicit = {}, {}
    for o in objects:
        for symbol in sorted(o.defined):
            name = abi.constructed(symbol)
            if name:
                where.setdefault(name, o)
                if o.path is not None:
                    explicit.setdefault(name, o)
    for o in objects:
        if o.path is None:
            continue
        for name in sorted(o.defined & set(where)):
            if abi.constructor(name) in o.defined:
                continue            # its own plain form
            if name in explicit:
                raise Diagnostic("", 0, 0, "'%s' is defined twice: in %s, and async in %s"
                                 % (name, o.shown, explicit[name].shown),
                                 hint="a program defines a function once: remove one")
            del where[name]     # an archive's async one, overridden
    plain = {name for name, o in where.items() if name in o.defined}
    return {name: o.shown for name, o in where.items()}, plain


def _objects(files, names):
    out, seen = [], set()
    for f in files:
        if f in seen:
            continue
        seen.add(f)
        shown = names.get(f, f)
        if objfile.is_archive(f):
            try:
                members = objfile.members(f)
            except (objfile.NotReadable, OSError):
                continue            # a thin or damaged archive: the linker's to read
            out += [_Object("%s(%s)" % (shown, m), data, archive=f, member=m)
                    for m, data in members]
        else:
            try:
                with open(f, "rb") as fh:
                    out.append(_Object(shown, fh.read(), path=f))
            except OSError:
                continue            # the linker says it is missing
    return out


def _quoted(need, where):
    """'a' (async in x.o), 'b' (async in y.o)"""
    return ", ".join("'%s' (async in %s)" % (n, where[n]) for n in sorted(need))


def _source_of(o):
    return o.records[0].get("source") if o.records else "its source"


def _why_not(o):
    """Why object `o` cannot be ripped again from its record, or None."""
    if not o.records:
        return "it keeps no record of how it was ripped (it was not compiled by ripcc --posix)"
    if len(o.records) > 1:
        return "it joins several objects (ld -r), which ripcc does not rip again one by one"
    record = o.records[0]
    if record.get("v") != RECORD_VERSION:
        return "it was compiled by another version of ripcc"
    if record.get("source") is None:
        return "its source was read from standard input"
    source = record["source"]
    for path, digest in record["files"]:
        full = os.path.join(record["cwd"], path)
        now = file_hash(full)
        if now == digest:
            continue
        what = path if path == source else "%s (which %s includes)" % (path, source)
        if now is None and not os.path.exists(full):
            return "%s is gone" % what
        return "%s changed since it was compiled" % what
    return None


def _cannot(o, name, where, problem):
    """(the error, what to do) for object `o`, which calls async `name`
    plainly and cannot be ripped again because of `problem`."""
    message = ("%s calls '%s' as a plain function, but '%s' is async (ripped in %s): %s must "
               "be ripped again to call it as one, and cannot be: %s"
               % (o.shown, name, name, where, o.shown, problem))
    source = o.records[0].get("source") if len(o.records) == 1 else None
    if source and o.archive:
        what_to_do = "compile %s again (ripcc --posix -c), put the object in %s again, " \
            "then link again" % (source, o.archive)
    elif source:
        what_to_do = "compile %s again (ripcc --posix -c %s), then link again" % (
            o.shown, source)
    else:
        what_to_do = ("compile %s's source with ripcc --posix -c, or mark the declarations "
                      "of '%s' it sees RIP_ASYNC" % (o.shown, name))
    return message, what_to_do


def _archive_copy(archive, members, tmp):
    """A copy of `archive` in `tmp` with its members ripped again in place
    of the old ones, in the same order, under the same names."""
    folder = os.path.join(tmp, "archive-%d" % len(os.listdir(tmp)))
    os.mkdir(folder)
    parts = []
    old = objfile.members(archive)
    for i, ((name, data), o) in enumerate(zip(old, members)):
        sub = os.path.join(folder, str(i))
        os.mkdir(sub)
        path = os.path.join(sub, os.path.basename(name) or "member.o")
        if o.again:
            with open(o.again, "rb") as f:
                data = f.read()
        with open(path, "wb") as f:
            f.write(data)
        parts.append(path)
    copy = os.path.join(folder, os.path.basename(archive))
    r = children.run(["ar", "qcs", copy] + parts, capture_output=True)
    if r.returncode:
        raise Diagnostic("", 0, 0, "cannot write a copy of %s with its members ripped "
                         "again: %s" % (archive, r.stderr.decode("utf-8", "replace").strip()))
    return copy


def _stem(name):
    return os.path.splitext(os.path.basename(name))[0] or "object"

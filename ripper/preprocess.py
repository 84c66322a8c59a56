"""preprocess.py -- the compiler's own view of the source.

ripper rips a file as the user's compiler sees it: preprocessed by that
compiler ($RIPCC_CC, default cc) with the user's flags.  Predefined macros
(__GNUC__, __OPTIMIZE__, __SANITIZE_ADDRESS__...), -D/-U/-include and -std
mean what they mean to the compiler that builds the output, and every macro
is expanded before ripping, so a macro that holds an async call, a return
or a loop is plain code to every later pass:

    #define TRY(e) do { if ((e) < 0) return -1; } while (0)
    TRY(f(x));      ->   do { if ((f(x)) < 0) return -1; } while (0);

The frame ABI (runtime/src/rip/rip_frame.h, which includes nothing) is
included first.  Comments are kept (-C) when the user's flags ask for
gcc's -Wimplicit-fallthrough, which reads them, unless that would change
the meaning (gcc documents one case, a comment before a directive); else
the compiler runs once, without -C, and the text is a third as long.  The
text keeps the compiler's linemarkers; LineMap maps any offset back to the
user's file, line and column.

The compiler runs in a process group (children.py) ended whole on an
error or past the time limit, and an #include of a FIFO or a device
(/dev/urandom: the compiler would read it, or wait on it, without end) is
an error that names it, found while the compiler runs.
"""

import bisect
import itertools
import os
import re
import shlex
import subprocess
import threading
import time

from . import children
from .diag import Diagnostic
from .runtime import FRAME_HEADER, FRAME_HEADER_ALL_ASYNC, INCLUDE as RUNTIME_INCLUDE, which  # noqa: F401 (bench uses INCLUDE)
# `# 12 "file.c" 1 3`: a GNU linemarker (gcc -E writes no other form).
MARKER = re.compile(rb'^# (\d+) "((?:[^"\\]|\\.)*)"((?: \d)*)[ \t]*\r?$', re.M)
# What -C may change in preprocessed text, and the literals to keep whole
# while dropping it (a comment-like run inside a literal is the literal's):
# group 1 a string or character literal; else a comment, a linemarker or
# pragma line, or blanks.
_NOT_CODE = re.compile(rb'("(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\')|/\*.*?\*/|//[^\n]*|'
                       rb'^#[^\n]*|\s+', re.S | re.M)
# A C token, roughly (LineMap.place_of_name compares lines by them), and a comment.
_TOKEN = re.compile(rb'\w+|"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'|\S')
_COMMENT = re.compile(rb'("(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\')|/\*.*?(?:\*/|$)|//.*')
DIAGNOSTIC = re.compile(r"^(.*?):(\d+):(?:(\d+):)? (?:fatal )?error: (.*)$", re.M)


def compiler():
    """The compiler's command words: $RIPCC_CC, else cc."""
    asked = os.environ.get("RIPCC_CC")
    words = shlex.split(asked or "cc")
    if not words or not which(words[0]):
        if asked:
            raise Diagnostic("", 0, 0, "no C compiler: RIPCC_CC is '%s', and '%s' is not found"
                             % (asked, words[0] if words else ""),
                             hint="set RIPCC_CC to a compiler on PATH (or unset it for cc)")
        raise Diagnostic("", 0, 0, "no C compiler: ripper compiles with cc (or $RIPCC_CC), "
                         "and cc is not found",
                         hint="install gcc, or set RIPCC_CC to your compiler")
    return words


class Preprocessed:
    """The compiler's preprocessed text of one input."""
    __slots__ = ("path", "text", "lines")

    def __init__(self, path, text, lines):
        self.path = path            # the input as named on the command line
        self.text = text            # what the compiler's preprocessor wrote (bytes)
        self.lines = lines          # LineMap: offsets in text -> the user's file and line


def preprocess(path, source, flags=(), timeout=None, frame_abi=True):
    """Run the compiler's preprocessor over `source` (the bytes of `path`;
    '<stdin>' reads them from standard input) with the user's `flags`."""
    return start_preprocess(path, source, flags, timeout, frame_abi).result()


# The -fdiagnostics-format= values ripper shows its messages in (diag.Style).
SHOWN_FORMATS = tuple("-fdiagnostics-format=" + f for f in ("text", "json", "json-stderr"))


def start_preprocess(path, source, flags=(), timeout=None, frame_abi=True, depend=(),
                     preprocessed=False, comments=True, all_async=False):
    """preprocess(), started: the compiler runs while the caller goes on
    (cli.py loads the later passes meanwhile); .result() waits for it.
    `depend`: dependency-file flags (-MD -MF f -MT t...) for the compiler
    to write the user's dependencies as it goes (ripcc -MD); `comments`:
    False runs only the preprocessor without -C (preprocess_if).
    `preprocessed`: `source` is preprocessed already (a .i: cc would not
    preprocess it again, and its macros are gone), so only the frame ABI is
    preprocessed, and `source` follows it as it is, its linemarkers naming
    the files it came from.  `all_async`: the frame ABI as --all-async
    includes it (rip_frame_all_async.h: the call helpers out of line).

        start_preprocess("p.i", b'# 1 "p.c"\\nint x;\\n', preprocessed=True).result().text
        -> <rip_frame.h preprocessed> + b'# 1 "p.i"\\n# 1 "p.c"\\nint x;\\n'
    """
    if preprocessed and not frame_abi:
        return Preprocessed(path, source, LineMap(source, path))
    cc = compiler()
    header = FRAME_HEADER_ALL_ASYNC if all_async else FRAME_HEADER
    if preprocessed:
        # included (in a main file its `#pragma GCC system_header` is ignored)
        args = cc + ["-E", "-D__RIPPER__=1", "-include", header] + list(flags) + \
            ["-x", "c", "-"]
        return _Preprocessing(path, b"", timeout, [args], after=source)
    args = cc + ["-E", "-D__RIPPER__=1"]
    if frame_abi:
        args += ["-include", header]
    # the compiler's messages in text, which ripper reads and shows as asked
    # (diag.py); a format ripper does not know is the compiler's to refuse
    args += [f for f in flags if f not in SHOWN_FORMATS]
    args += ["-I", RUNTIME_INCLUDE]
    stdin = None
    if path in ("-", "<stdin>") or not os.path.isfile(path):
        args += ["-x", "c", "-"]
        stdin = source
    else:
        args += ["-x", "c", path]
    plain = args[:2] + list(depend) + args[2:]
    if not comments or not reads_fallthrough_comments(flags):
        return _Preprocessing(path, stdin, timeout, [plain])
    return _Preprocessing(path, stdin, timeout, [plain, args[:2] + ["-C"] + args[2:]])


def preprocess_if(path, source, flags, needle, timeout=None):
    """preprocess(), if the preprocessed text holds `needle` (bytes); else
    None, for the price of one preprocessor run: no text with comments,
    no LineMap (ripcc's -Wblocking check on ucontext, of a file that
    has no async function, as most files of a build have none).

        preprocess_if("zlib.c", text, ["-Wextra"], b'annotate("rip_async")') -> None
    """
    probe = start_preprocess(path, source, flags, timeout, comments=False)
    text = probe.runs.outputs(probe.stdin, timeout)[0]
    if needle not in text:
        return None
    if not reads_fallthrough_comments(flags):   # the text preprocess() would give
        return _choose(path, COMMENTS_NOT_WANTED + text, None)
    return preprocess(path, source, flags, timeout)


def reads_fallthrough_comments(flags):
    """Whether the compiler, with these flags, reads comments: gcc's
    -Wimplicit-fallthrough (in -Wextra) takes a `/* fall through */`
    comment for the attribute.  Only then are comments worth keeping, at
    the price of a second preprocessor run and a text three times as long
    (glibc's headers are mostly comments).  An explicit -W[no-]implicit-
    fallthrough wins over -Wextra, whatever the order, as in gcc."""
    extra, explicit = False, None
    for f in flags:
        if f in ("-Wextra", "-W"):
            extra = True
        elif f == "-Wno-extra":
            extra = False
        elif f in ("-Wimplicit-fallthrough", "-Werror=implicit-fallthrough"):
            explicit = True
        elif f == "-Wno-implicit-fallthrough":
            explicit = False
        elif f.startswith("-Wimplicit-fallthrough="):
            explicit = f != "-Wimplicit-fallthrough=0"
    return extra if explicit is None else explicit


class _Preprocessing:
    """The compiler writing the text without comments, and with them (-C)
    side by side when they are wanted.  Which of the two is ripped is
    settled on a thread while libclang already parses the likely one, the
    commented text (parse.py): the check holds the GIL, libclang's parse
    does not."""

    def __init__(self, path, stdin, timeout, commands, after=None):
        self.path, self.stdin, self.timeout = path, stdin, timeout
        self.after = after          # preprocessed text to follow the output as it is, or None
        self.started = time.monotonic()     # the time limit counts from here (parse.py)
        self.runs = _Runs(commands, path)
        self._choice = None         # the thread that settles which text is ripped (False: settled here)
        self._chosen = []           # its result, a Preprocessed (or the exception)

    def candidate(self):
        """The commented text, which result() gives unless -C changed the
        code (a rare case: then the text without comments); or the only
        text, when comments are not wanted."""
        if self._choice is None:
            texts = self.runs.outputs(self.stdin, self.timeout)
            if self.after is not None:  # the frame ABI, then the preprocessed input
                texts = [texts[0] + (marker_line(self.path, 1) + "\n").encode(
                    "utf-8", "surrogateescape") + self.after]
            elif len(texts) == 1:   # the only text, as it is ripped
                texts = [COMMENTS_NOT_WANTED + texts[0]]
            self._likely = texts[-1]
            self._choice = threading.Thread(target=self._settle, args=texts)
            try:
                self._choice.start()
            except RuntimeError:    # no thread to be had: settle it here
                self._settle(*texts)
                self._choice = False
        return self._likely

    def _settle(self, plain, commented=None):
        try:
            self._chosen.append(_choose(self.path, plain, commented))
        except BaseException as e:  # noqa: B902 (raised again by result())
            self._chosen.append(e)

    def result(self):
        self.candidate()
        if self._choice:
            self._choice.join()
        if isinstance(self._chosen[0], BaseException):
            raise self._chosen[0]
        return self._chosen[0]


def _choose(path, plain, commented):
    """Preprocessed text: the commented output if there is one and -C
    changed no code; else the plain one, saying why it has no comments.
    A single text is settled on the thread too: its LineMap is made while
    libclang parses."""
    if commented is None:
        text = plain                # the only text (COMMENTS_NOT_WANTED first)
    elif _code(commented) == _code(plain):
        return Preprocessed(path, commented, LineMap(commented, path))
    else:
        text = NO_FALLTHROUGH_COMMENTS + plain
    return Preprocessed(path, text, LineMap(text, path))


# What the text starts with when it has no comments: no fall-through
# comment can tell the compiler a case falls through on purpose, so the
# warning is off (a file ripped without -Wextra and compiled with it must
# not warn where the source does not), with the reason.
FALLTHROUGH_OFF = b'#pragma GCC diagnostic ignored "-Wimplicit-fallthrough"\n'
NO_FALLTHROUGH_COMMENTS = FALLTHROUGH_OFF + (
    b"/* ripper: this file's comments cannot be kept (see preprocess.py), "
    b"its fall-through comments with them */\n")
COMMENTS_NOT_WANTED = FALLTHROUGH_OFF + (
    b"/* ripper: comments dropped, as the flags it was given do not ask for "
    b"-Wimplicit-fallthrough, which reads them (pass -Wextra to keep it) */\n")


def _code(text):
    """`text` without comments, linemarkers and spaces: what -C must not
    change.  gcc documents that a comment before a directive makes it
    text; and a comment in a macro argument that is stringified becomes
    part of the string.  Then the comments are not worth the change."""
    return b"".join(filter(None, _NOT_CODE.split(text)))    # literals kept: group 1


# How often a running preprocessor is looked at for a FIFO or device it
# reads: most files are preprocessed before the first look.
WATCH_SECONDS = 0.2


class _Runs:
    """Commands started side by side, each writing into a memory file (not
    a pipe, which would stop the compiler until someone reads it)."""

    def __init__(self, commands, path):
        self.path, self.procs, self.files = path, [], []
        self.started = time.monotonic()
        try:
            for args in commands:
                out = os.memfd_create("ripper-cpp", os.MFD_CLOEXEC) \
                    if hasattr(os, "memfd_create") else subprocess.PIPE
                self.files.append(out)
                self.procs.append(children.spawn(
                    args, stdin=subprocess.PIPE, stdout=out, stderr=subprocess.PIPE))
        except OSError as e:
            self.close()
            raise Diagnostic(path, 0, 0, "cannot run %s: %s" % (commands[0][0], e.strerror))

    def outputs(self, stdin, timeout):
        """The standard outputs, or raise the first command's errors.
        `timeout`: seconds from the start for them all, None for no limit."""
        results = []
        try:
            for p, out in zip(self.procs, self.files):
                text, err = self._communicate(p, stdin or b"", timeout)
                if out != subprocess.PIPE:
                    text = _read_all(out)
                results.append((text, err, p.returncode))
        finally:
            self.close()
        for out, err, code in results:
            if code != 0:
                err = err.decode("utf-8", "replace")
                found = [Diagnostic(m.group(1), int(m.group(2)), int(m.group(3) or 0),
                                    m.group(4)) for m in DIAGNOSTIC.finditer(err)]
                if not found:
                    said = err.strip().splitlines() or ["exit %d" % code]
                    # the compiler's own error line says why (a note may follow it)
                    said = [x for x in said if "error:" in x][:1] or said[-1:]
                    found = [Diagnostic(self.path, 0, 0, "the preprocessor failed: %s" % said[0])]
                raise found[0].with_others(found[1:])
        return [out for out, _, _ in results]

    def _communicate(self, p, stdin, timeout):
        """p.communicate(stdin), looking every WATCH_SECONDS for a FIFO or
        device the compiler reads, and giving up at the time limit."""
        seen = None                 # what the last look found
        while True:
            wait = WATCH_SECONDS
            if timeout is not None:
                wait = min(wait, max(self.started + timeout - time.monotonic(), 0))
            try:
                return p.communicate(stdin, timeout=wait)
            except subprocess.TimeoutExpired:
                pass
            held = children.held_special_file(p.pid)
            if held is None or held != seen:    # a file opened in passing is not seen twice
                seen = held
            else:
                raise Diagnostic(self.path, 0, 0, "cannot include '%s': it is a %s, not a file"
                                 % held, hint="the preprocessor would read it, or wait on "
                                 "it, without end")
            if timeout is not None and time.monotonic() >= self.started + timeout:
                raise Diagnostic(self.path, 0, 0, "the preprocessor ran for more than %g s, "
                                 "the time limit" % timeout,
                                 hint="a file that only needs more time: --timeout=SECONDS "
                                      "or RIPPER_TIMEOUT (0: no limit)")

    def close(self):
        for p in self.procs:
            children.end(p)             # its group too, unless it has ended
        for out in self.files:
            if out != subprocess.PIPE:
                os.close(out)
        self.procs, self.files = [], []


def _read_all(fd):
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


class LineMap:
    """Where each byte of preprocessed text came from.

        lm = LineMap(b'# 1 "a.c"\\nint x;\\n# 7 "a.c"\\nint y;\\n', "a.c")
        lm.where(lm.text.index(b"y"))   -> ("a.c", 7, "")
    """

    def __init__(self, text, main):
        self.text = text
        self.main = main            # the input's own name, as the markers spell it
        # [0] and the offset after every newline (sums of line lengths + 1)
        self.line_starts = list(itertools.accumulate(
            map((1).__add__, map(len, text.split(b"\n"))), initial=0))[:-1]
        self.marks = []             # (physical line index of the line after, file, line, flags)
        for m in MARKER.finditer(text):
            index = bisect.bisect_right(self.line_starts, m.start())   # 1 + the marker's index
            self.marks.append((index, _unquote(m.group(2)), int(m.group(1)),
                               m.group(3).decode().strip()))
        self.mark_lines = [m[0] for m in self.marks]
        self._files = {}

    def where(self, offset):
        """(file, line, flags) that the compiler gives offset `offset`:
        flags holds '3' in a system header."""
        index = bisect.bisect_right(self.line_starts, offset) - 1
        i = bisect.bisect_right(self.mark_lines, index) - 1
        if i < 0:
            return self.main, index + 1, ""
        first, name, line, flags = self.marks[i]
        return name, line + index - first, " ".join(f for f in flags.split() if f in "34")

    def in_system_header(self, offset):
        return "3" in self.where(offset)[2].split()

    def column(self, offset):
        """1-based column of `offset` in the user's own line where it can
        tell (the preprocessor respaces lines), else in the text's line."""
        index = bisect.bisect_right(self.line_starts, offset) - 1
        start = self.line_starts[index]
        col = offset - start + 1
        name, line, _ = self.where(offset)
        original = self.original_line(name, line)
        if original is None:
            return col
        here, at = self.expanded_line(offset)
        m = re.match(rb"\w+|\S", here[at:])
        if not m:
            return col
        token = m.group()
        before = len(re.findall(re.escape(token), here[:at]))
        hits = [h.start() for h in re.finditer(re.escape(token), original)]
        if before < len(hits):
            return hits[before] + 1
        if re.match(rb"[A-Za-z_]", token):      # a macro made it: where the macro is used
            return self.place_of_name(offset, token.decode("utf-8", "replace"))[0]
        return col

    def place_of_name(self, offset, name):
        """(column, macro) of identifier `name` at `offset` in the user's
        line: where the user wrote it and None, or, when a macro's expansion
        made it, the column and name of that macro (the first token where
        the line as written and as expanded part).  Without the user's
        line, the column in the text's line and None.

            #define NAP() sleep(1)
            x = 1; NAP();           sleep at -> (8, "NAP")
        """
        index = bisect.bisect_right(self.line_starts, offset) - 1
        start = self.line_starts[index]
        col = offset - start + 1
        original = self.original_line(*self.where(offset)[:2])
        if original is None:
            return col, None
        here, at = self.expanded_line(offset)
        # comments blanked (the expanded text has none), columns kept
        original = _COMMENT.sub(lambda m: m.group(1) or b" " * len(m.group()), original)
        word = re.compile(rb"\b%s\b" % re.escape(name.encode()))
        before = len(word.findall(here[:at]))
        hits = [m.start() for m in word.finditer(original)]
        if before < len(hits):
            return hits[before] + 1, None
        return _macro_at(list(_TOKEN.finditer(original)), list(_TOKEN.finditer(here)),
                         at) or (col, None)

    def expanded_line(self, offset):
        """(the user's line that `offset` is on, as the preprocessor wrote
        it, whole; where `offset` is in it).  gcc breaks a line where a
        system header's macro expands in it, each piece after a linemarker
        of the same line (`if (` / `# 5 "a.c" 3 4` / `_setjmp (` ...): the
        pieces are joined, a space apart."""
        index = bisect.bisect_right(self.line_starts, offset) - 1
        place = self.where(offset)[:2]
        first = last = index
        while first >= 2 and self._is_marker(first - 1) and \
                self.where(self.line_starts[first - 2])[:2] == place:
            first -= 2
        while last + 2 < len(self.line_starts) and self._is_marker(last + 1) and \
                self.where(self.line_starts[last + 2])[:2] == place:
            last += 2
        pieces = [self._physical(i) for i in range(first, last + 1, 2)]
        at = sum(len(p) + 1 for p in pieces[:(index - first) // 2]) + \
            offset - self.line_starts[index]
        return b" ".join(pieces), at

    def _physical(self, index):
        start = self.line_starts[index]
        end = self.text.find(b"\n", start)
        return self.text[start:end if end >= 0 else len(self.text)]

    def _is_marker(self, index):
        return MARKER.match(self._physical(index)) is not None

    def original_line(self, name, line):
        """Line `line` of file `name` as written, or None."""
        if name not in self._files:
            try:
                with open(name, "rb") as f:
                    self._files[name] = f.read().split(b"\n")
            except OSError:
                self._files[name] = None
        lines = self._files[name]
        if lines is None or not 0 < line <= len(lines):
            return None
        return lines[line - 1]

    def marker(self, offset):
        """A linemarker line that makes the next line `offset`'s line."""
        name, line, flags = self.where(offset)
        return marker_line(name, line, flags)


def _macro_at(wrote, made, at):
    """(column, name) of the macro use among tokens `wrote` (a line as the
    user wrote it) whose expansion among `made` (that line expanded) holds
    the byte at `at` of the expanded line, or None.  The lines agree token
    by token up to a macro's name; its expansion ends where the token after
    its use comes back at bracket depth 0 (a guess, good for the usual
    `NAP(); NAP();`)."""
    i = j = 0
    while i < len(wrote) and j < len(made) and made[j].start() <= at:
        if wrote[i].group() == made[j].group():
            i, j = i + 1, j + 1
            continue
        macro = wrote[i]
        if not re.match(rb"[A-Za-z_]\w*$", macro.group()):
            return None
        i += 1
        if i < len(wrote) and wrote[i].group() == b"(":      # its arguments
            depth = 0
            while i < len(wrote):
                depth += _DEPTH.get(wrote[i].group(), 0)
                i += 1
                if depth == 0:
                    break
        follows = wrote[i].group() if i < len(wrote) else None
        end, depth = j, 0
        while end < len(made) and not (depth == 0 and end > j and
                                        made[end].group() == follows):
            depth += _DEPTH.get(made[end].group(), 0)
            end += 1
        if end == len(made) or made[end].start() > at:
            return macro.start() + 1, macro.group().decode("utf-8", "replace")
        j = end
    return None


_DEPTH = {b"(": 1, b"[": 1, b"{": 1, b")": -1, b"]": -1, b"}": -1}


def marker_line(name, line, flags=""):
    quoted = name.replace("\\", "\\\\").replace('"', '\\"')
    return '# %d "%s"%s' % (line, quoted, (" " + flags) if flags else "")


def _unquote(raw):
    """A linemarker's file name: backslash escapes undone, octal ones too
    (clang writes a UTF-8 name's bytes so, gcc as they are).

        _unquote(rb'inc-\\303\\251/a\\"b.h') -> 'inc-\u00e9/a"b.h'
    """
    return re.sub(rb"\\([0-7]{1,3}|.)", lambda m: bytes([int(m.group(1), 8) & 0xFF])
                  if m.group(1)[:1] in b"01234567" else m.group(1),
                  raw).decode("utf-8", "surrogateescape")

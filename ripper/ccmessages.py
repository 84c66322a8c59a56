"""ccmessages.py -- cc's messages about ripped code, in the user's terms.

ripcc compiles the ripped text, where the user's function task is
rip__resume_task, `rip_chan_send(c, x)` is `rip__chan_send_try(rip__F->c,
x, &rip__F->rip__w)` and `i` is `rip__F->i`: linemarkers keep cc's lines
the user's, but its columns are the ripped line's, and its names ripper's.
translate() passes cc's standard error through, line by line, and on the
lines about a ripped line (one that differs from the user's) moves the
column, the caret and the range marks to the user's token (found by
aligning the two lines' tokens); it names the user's function, call and
async function pointer type, and moves a note in the runtime's inline
code (rip_frame.h) to the API's declaration in rip.h.  Every other line,
and every line's bytes outside those edits (colours included), is passed
through as cc wrote it.  No message is dropped; of gcc's context lines,
one that repeats the last once ripper's names are the user's ("In
function 'task'" for rip__new_task, then again for rip__resume_task) is.

    translate(cc.stderr, ripped_bytes, sys.stderr.buffer)
    # w.c:12:19: warning: comparison ... in 'rip__resume_task'
    #   -> w.c:12:11: warning: comparison ... in 'task'
"""

import re

from . import abi

ENC = ("utf-8", "surrogateescape")
SGR = re.compile(r"\x1b\[[0-9;]*m(?:\x1b\[K)?")
MARKER = re.compile(r'^# (\d+) "((?:[^"\\]|\\.)*)"')
LOCATION = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+):")
QUOTE = re.compile(r"^ *\d+ \| ")
ANNOTATION = re.compile(r"^ +\| ")
TOKEN = re.compile(r"rip__F->[A-Za-z_]\w*|[A-Za-z_]\w*|\d[\w.]*|\"(?:[^\"\\]|\\.)*\"?|"
                   r"'(?:[^'\\]|\\.)*'?|->|\+\+|--|<<=?|>>=?|[<>=!&|^+\-*/%]=|&&|\|\||\S")

# ripper's names as the user wrote them: the API call an intrinsic's
# try/woken stands for, an async function's constructor, resume entry and
# variadic body
_API = {n: api for api, pair in abi.INTRINSICS.items() if pair for n in pair}
_START = r"(?:(?<=\x1b\[K)|(?<!\w))"  # a name's start, also right after a colour code
_OWN = re.compile(r"%s(?:%s|%s|%s)([A-Za-z_]\w*)" % (_START, abi.CONSTRUCTOR,
                                                     abi.RESUME_ENTRY, abi.VA_BODY))
_FRAME_MEMBER = re.compile(r"%s%s->" % (_START, abi.FRAME))
_API_NAME = re.compile(r"%s(?:%s)\b" % (_START, "|".join(sorted(_API, key=len, reverse=True))))


def user_names(text):
    """`text` with ripper's names for the user's functions and calls
    replaced by the user's.

        user_names("In function 'rip__resume_task'")  ->  "In function 'task'"
    """
    if "rip__" not in text:
        return text
    text = _OWN.sub(r"\1", text)
    text = _FRAME_MEMBER.sub("", text)
    return _API_NAME.sub(lambda m: _API[m.group()], text)


_CONSTRUCTOR_POINTER = re.compile(r"struct rip__frame \* \(\*\)\(((?:[^()]|\([^()]*\))*)\)")
_FN_TYPEDEF = re.compile(r"typedef (?:__typeof__\((.*?)\)|(void)) rip__fn_(\w+)\((.*?)\);")
_ASYNC_FN = re.compile(r"RIP_ASYNC_FN\(\s*([^,()]+?)\s*,\s*[^,]+?,\s*"
                       r"\(((?:[^()]|\([^()]*\))*)\)\s*\)")
_NOT_A_NAME = {"int", "char", "short", "long", "unsigned", "signed", "void", "float", "double",
               "_Bool", "const", "volatile", "restrict", "__restrict", "struct", "union", "enum"}


def _params_key(params):
    """Parameter types without their names or spaces, to compare a
    declaration's with cc's spelling of a type: "int *x, char c" -> "int*,char"."""
    out, depth, part = [], 0, ""
    for ch in params + ",":
        if ch == "," and depth == 0:
            out.append(part.strip())
            part = ""
            continue
        depth += (ch == "(") - (ch == ")")
        part += ch
    keys = []
    for p in out:
        p = re.sub(r"\(\s*\*\s*[A-Za-z_]\w*\s*\)", "(*)", p)   # void (*fn)(int) -> void (*)(int)
        words = re.findall(r"[A-Za-z_]\w*|\S", p)
        if len(words) >= 2 and re.match(r"[A-Za-z_]", words[-1]) and \
                words[-1] not in _NOT_A_NAME and words[-2] not in ("struct", "union", "enum"):
            words = words[:-1]      # its name
        keys.append("".join(words))
    return ",".join(keys)


def _async_results(ripped, included):
    """{parameter key: {result types of async functions (and RIP_ASYNC_FN
    types) with those parameters; None for one whose result is unknown}}."""
    results = {}
    text = ripped.decode(*ENC)
    known = set()
    for m in _FN_TYPEDEF.finditer(text):
        result = m.group(1) if m.group(1) is not None else m.group(2)
        results.setdefault(_params_key(m.group(4)), set()).add(result.strip())
        known.add(m.group(3))
    for m in re.finditer(r"rip__new_(\w+)\s*\(((?:[^()]|\([^()]*\))*)\)", text):
        if m.group(1) not in known:
            results.setdefault(_params_key(m.group(2)), set()).add(None)
    for path in included:           # RIP_ASYNC_FN types: rip.h's, the user's
        if path.startswith("<") or path.startswith("/usr/"):
            continue
        try:
            with open(path, "rb") as f:
                source = f.read().decode(*ENC)
        except OSError:
            continue
        for m in _ASYNC_FN.finditer(source):
            if m.group(1) != "ret":         # not the macro's own definition
                results.setdefault(_params_key(m.group(2)), set()).add(m.group(1).strip())
    return results


def ripped_lines(ripped):
    """({(file, line): [text of each ripped line cc gives that place]},
    {file: [(includer, line) ...] innermost first}), from the ripped
    text's linemarkers."""
    places, included = {}, {}
    name, line, stack = None, 1, []
    for raw in ripped.split(b"\n"):
        if raw.startswith(b"# "):
            m = MARKER.match(raw.decode(*ENC))
            if m:
                flags = raw.decode(*ENC)[m.end():].split()
                if "1" in flags and name is not None:       # entering an #include
                    stack.append((name, line))     # the #include's own line
                elif "2" in flags and stack:                # back in its includer
                    stack.pop()
                name, line = m.group(2), int(m.group(1))
                if name not in included:
                    included[name] = [s for s in reversed(stack) if not s[0].startswith("<")]
                continue
        if name is not None:
            places.setdefault((name, line), []).append(raw.decode("latin-1"))
        line += 1
    return places, included


def _tokens(text, ripped):
    """[(start, end, token as the user would write it)] of line `text`."""
    out = []
    for m in TOKEN.finditer(text):
        word = m.group()
        if ripped:
            word = user_names(word)
        out.append((m.start(), m.end(), word))
    return out


_WIDE = re.compile(r"[\t\x80-\xff]")     # a byte whose display width is not 1


class Columns:
    """How cc counts a column (its flags -ftabstop=, -fdiagnostics-column-
    unit=, -fdiagnostics-column-origin=).  gcc counts a ripped line's
    byte offset in the user's line (the one it quotes): its column N is
    the byte offset of display column N there.  Lines here are bytes read
    as latin-1 (one character a byte); display columns skip UTF-8's
    continuation bytes and take a tab to the next tab stop."""

    def __init__(self, tabstop=8, display=True, origin=1):
        self.tabstop, self.display, self.origin = tabstop, display, origin

    def _width(self, ch, at):
        if not self.display:
            return 1
        if ch == "\t":
            return self.tabstop - (at - 1) % self.tabstop
        return 0 if "\x80" <= ch <= "\xbf" else 1

    def index(self, text, col):
        """The byte offset in `text` that cc's column `col` counts to."""
        col += 1 - self.origin
        if not self.display or not _WIDE.search(text):
            return col - 1      # a column a byte
        display = 1
        for i, ch in enumerate(text):
            step = self._width(ch, display)
            if display + step > col and step:
                return i
            display += step
        return len(text) + (col - display)

    def col(self, text, index):
        """cc's column of byte offset `index` in `text`."""
        if not self.display or not _WIDE.search(text):
            return index + self.origin
        display = 1
        for ch in text[:index]:
            display += self._width(ch, display)
        return display + max(index - len(text), 0) + self.origin - 1


class LineMap:
    """Columns of a ripped line -> columns of the user's line, by tokens:
    the ripped token under a column is aligned with the user's same token
    (ripper's names read as the user's); a token ripper added goes to the
    user's next aligned one."""

    def __init__(self, ripped, user, columns):
        self.ripped, self.user, self.columns = ripped, user, columns
        self.rt, self.ut = _tokens(ripped, True), _tokens(user, False)
        import difflib          # here: a compile cc says nothing about never loads it
        self.pairs = {}         # ripped token index -> user token index
        matcher = difflib.SequenceMatcher(None, [t[2] for t in self.rt],
                                          [t[2] for t in self.ut], autojunk=False)
        for a, b, size in matcher.get_matching_blocks():
            for k in range(size):
                self.pairs[a + k] = b + k

    def _token_at(self, index):
        for k, (start, end, _) in enumerate(self.rt):
            if index < end:
                return k, max(index - start, 0) if index >= start else 0
        return len(self.rt), 0

    def index(self, rindex, end=False):
        """The user's index for ripped index `rindex` (None: no token to
        go by); `end`: for the last character of a range."""
        k, offset = self._token_at(rindex)
        if k in self.pairs:
            start, stop, word = self.ut[self.pairs[k]]
            rstart, rstop, _ = self.rt[k]
            if rstop - rstart == stop - start:
                return start + offset
            return stop - 1 if end else start
        later = [j for j in range(k + 1, len(self.rt)) if j in self.pairs]
        if later and not end:
            return self.ut[self.pairs[later[0]]][0]
        earlier = [j for j in range(k - 1, -1, -1) if j in self.pairs]
        if earlier and end:
            return self.ut[self.pairs[earlier[0]]][1] - 1
        if later:
            return self.ut[self.pairs[later[0]]][0]
        return None

    def col(self, col, end=False, columns=None):
        """The user's column for cc's column `col` (counted as `columns`
        says, else as cc counts a message's), or None."""
        columns = columns or self.columns
        i = self.index(columns.index(self.user, col), end)
        return None if i is None else columns.col(self.user, i)

    def run_end(self, col, columns):
        """The column where the ripped token at `col` ends (a range cc cut
        at the end of the user's shorter line)."""
        k, _ = self._token_at(columns.index(self.user, col))
        if k >= len(self.rt):
            return col
        return columns.col(self.user, self.rt[k][1] - 1)


def _user_line(path, line, cache):
    if path not in cache:
        try:
            with open(path, "rb") as f:
                cache[path] = f.read().decode("latin-1").split("\n")
        except OSError:
            cache[path] = None
    lines = cache[path]
    if lines is None or not 0 < line <= len(lines):
        return None
    return lines[line - 1].rstrip("\r")


class Translator:
    """The state of one cc run's standard error (see translate())."""

    def __init__(self, ripped, out, columns=None):
        self.ripped = ripped
        self._places = None     # ripped_lines(ripped), read at cc's first message
        self.maps = {}          # (file, line, in a ripped function) -> LineMap or None
        self.results = None     # _async_results(), read at the first pointer type of ripper's
        self.quote = None       # the line the held quote is replaced by (a runtime note)
        self.includes = []      # held "In file included from" lines
        self.last_chain = None  # the "In file included from" lines last passed on (no colour)
        self.relocated = False  # they were of a note moved from the runtime to rip.h
        self.in_ripped = False  # cc's last "In function" named a function of ripper's
        self.function = None    # that line, in the user's names (no colour)
        self.out = out
        self.columns = columns or Columns()
        self.files = {}
        self.map = None         # the LineMap of the message being passed on
        self.held = []          # its quote and annotation lines, until the next message

    def _read(self):
        if self._places is None:
            self._places = ripped_lines(self.ripped)
        return self._places

    @property
    def places(self):
        return self._read()[0]

    @property
    def included(self):
        return self._read()[1]

    @property
    def api_header(self):
        return next((f for f in self.included if f.endswith("/rip.h") or f == "rip.h"), None)

    def names(self, text):
        """user_names(text), and an async function's pointer type, which
        ripped code spells `struct rip__frame * (*)(int *)`, as the user's
        (`void (*)(int *)`) where one result type has those parameters."""
        text = user_names(text)
        if "rip__frame * (*)(" not in text:
            return text
        if self.results is None:
            self.results = _async_results(self.ripped, self.included)

        def user_type(m):
            results = self.results.get(_params_key(m.group(1)), set())
            if len(results) != 1 or None in results:
                return m.group()    # no such function, or two results: as cc said
            result = next(iter(results))
            return "%s (*)(%s)" % (result, m.group(1))
        return _CONSTRUCTOR_POINTER.sub(user_type, text)

    def _line_map(self, path, line, col):
        """The LineMap of the ripped line cc's message at path:line:col is
        about, or None (not a ripped line, or not one to tell)."""
        key = (path, line, self.in_ripped)
        if key not in self.maps:
            self.maps[key] = self._line_maps(path, line)
        maps = self.maps[key]
        for m in maps:          # the ripped line whose token at col the user's has
            k, _ = m._token_at(self.columns.index(m.user, col))
            if k in m.pairs:
                return m
        return maps[0] if len(maps) == 1 else None

    def _line_maps(self, path, line):
        texts = self.places.get((path, line))
        user = _user_line(path, line, self.files)
        if not texts or user is None:
            return []           # not a line of the ripped text
        # the plain copy of a function ripped (--all-async, --posix keep
        # one for plain callers), or the ripped one: which cc's "In
        # function" line says (a name of ripper's: the ripped)
        ripped = [t for t in texts if ("rip__" in t) == self.in_ripped] or texts
        if user in ripped:
            return []           # a line the ripping left as it was
        return [LineMap(t, user, self.columns) for t in ripped]

    def _runtime_place(self, path, line):
        """A place in the runtime's inline functions that stands for an API
        call (rip__chan_send_try's parameter: rip_chan_send's) -> (rip.h, its
        line number, LineMap), or None."""
        if not path.endswith("/rip/rip_frame.h") or self.api_header is None:
            return None
        text = _user_line(path, line, self.files)
        if text is None:
            return None
        calls = [api for name, api in _API.items() if re.search(r"\b%s\s*\(" % name, text)]
        if len(calls) != 1:
            return None
        _user_line(self.api_header, 1, self.files)         # read into self.files
        for number, decl in enumerate(self.files.get(self.api_header) or [], 1):
            if re.search(r"\b%s\s*\(" % calls[0], decl) and "RIP_ASYNC" in decl:
                return self.api_header, number, LineMap(text, decl.rstrip("\r"), self.columns)
        return None

    def _include_lines(self, path, colored):
        """gcc's "In file included from" lines for `path` in the user's compile."""
        chain = self.included.get(path) or []
        b, x = ("\x1b[01m\x1b[K", "\x1b[m\x1b[K") if colored else ("", "")
        out = []
        for i, (name, line) in enumerate(chain):
            lead = "In file included from " if i == 0 else " " * 17 + "from "
            out.append("%s%s%s:%d%s%s\n" % (lead, b, name, line, x,
                                              ":" if i == len(chain) - 1 else ","))
        return out

    def feed(self, raw):
        """Pass on one line of cc's standard error (bytes, with its newline)."""
        text = raw.decode(*ENC)
        plain = SGR.sub("", text)
        if self.map is not None and (QUOTE.match(plain) or ANNOTATION.match(plain)):
            self.held.append(text)
            return
        self.flush()
        if plain.startswith("In file included from") or \
                (self.includes and plain.startswith(" " * 17 + "from ")):
            self.includes.append(text)      # until the place they lead to
            return
        m = LOCATION.match(plain)
        relocated = m and self._runtime_place(m.group("file"), int(m.group("line")))
        if relocated:
            header, number, self.map = relocated
            new = self.map.col(int(m.group("col")))
            if new is not None:
                self.quote = (number, _user_line(header, number, self.files).encode(
                    "latin-1").decode(*ENC).expandtabs(self.columns.tabstop))
                # gcc names the includes of a file when it is not the last
                # message's: cc's would name rip.h's, once
                chain = self._include_lines(header, "\x1b[" in text)
                self.includes = chain if _plain(chain) != self.last_chain else []
                self.last_chain, self.relocated = _plain(chain), True
                text = text.replace("%s:%s:%s:" % m.group("file", "line", "col"),
                                    "%s:%d:%d:" % (header, number, new), 1)
                text = _declared_type(text, self.map.user,
                                      self.map.index(self.columns.index(self.map.user,
                                                                        int(m.group("col")))))
            else:
                self.map = None
            m = None
        elif m and self.includes:
            if self.relocated and _plain(self.includes) == self.last_chain:
                self.includes = []  # the chain a moved note above named: cc's would not again
            self.last_chain, self.relocated = _plain(self.includes) or self.last_chain, False
        self._write_includes()
        if ": In function " in plain:
            self.in_ripped = bool(_OWN.search(plain))
            named = SGR.sub("", self.names(plain))
            if named == self.function:
                return          # gcc's for rip__new_f after rip__resume_f: both f, as cc once
            self.function = named
        elif plain.startswith(("At top level", "In file included from")) or \
                (LOCATION.match(plain) is None and ": " in plain and not plain.startswith(" ")):
            self.function = None
        if m or plain.startswith(("In file included from", "In function", "At top level")) or \
                ": In function " in plain:
            if m:
                self.map = self._line_map(m.group("file"), int(m.group("line")),
                                          int(m.group("col")))
                if self.map is not None:
                    new = self.map.col(int(m.group("col")))
                    if new is not None:
                        text = text.replace("%s:%s:%s:" % m.group("file", "line", "col"),
                                            "%s:%s:%d:" % (m.group("file", "line") + (new,)), 1)
            text = self.names(text)
        self.out.write(text.encode(*ENC))

    def _write_includes(self):
        for line in self.includes:
            self.out.write(line.encode(*ENC))
        self.includes = []

    def flush(self):
        """Write the held quote and annotation lines, their marks moved."""
        if self.held:
            moved = self._moved(list(self.held))    # raises with the lines still held
            self.held = []
            for line in moved:
                self.out.write(line.encode(*ENC))
        self.map, self.quote = None, None

    def _moved(self, held):
        m = self.map
        quote = [i for i, h in enumerate(held) if QUOTE.match(SGR.sub("", h))]
        if len(quote) != 1 or quote[0] != 0:
            return held         # not as gcc quotes: as it is
        out = [held[0]]
        spans = []
        for h in held[1:]:
            moved = _move_annotation(h, m, self.names)
            if moved is None:
                return held     # marks that would collide: as cc put them
            out.append(moved[0])
            spans += moved[1]
        colored = any("\x1b[" in h for h in held)
        quote = SGR.sub("", held[0])
        if self.quote is not None:      # the runtime's line -> the API's declaration
            quote = "%5d | %s\n" % self.quote
        out[0] = _highlight(quote, spans) if colored else quote
        return out


_EXPECTED = re.compile("(expected [\u2018'](?:\x1b\\[01m\x1b\\[K)?)(.*?)"
                       "((?:\x1b\\[m\x1b\\[K)?[\u2019'])")


def _plain(lines):
    return [SGR.sub("", line) for line in lines]


def _declared_type(text, decl, index):
    """`text` (a note "expected 'struct rip_wg *' but ...") with the
    expected type as rip.h's declaration `decl` spells the parameter at
    `index` (rip_wg *), where the two name the same type."""
    if index is None or not 0 <= index < len(decl):
        return text
    left = max(decl.rfind("(", 0, index), decl.rfind(",", 0, index))
    right = min([i for i in (decl.find(",", index), decl.find(")", index)) if i >= 0] or [-1])
    if left < 0 or right < 0:
        return text
    param = decl[left + 1:right].strip()
    declared = re.sub(r"(?<=[\s*])[A-Za-z_]\w*$", "", param).strip()
    declared = re.sub(r"\s*\*", " *", declared).replace("* *", "**")
    m = _EXPECTED.search(text)
    if m is None or m.group(2) == declared or \
            m.group(2).replace("struct ", "") != declared.replace("struct ", ""):
        return text
    return text[:m.start(2)] + declared + text[m.end(2):]


def _runs(text):
    """[(display column, run of non-blank characters, colour it starts in)]
    of an annotation line's text after its '| '."""
    runs, color, i, col = [], "", 0, 1
    while i < len(text):
        m = SGR.match(text, i)
        if m:
            color = "" if m.group().startswith(("\x1b[m", "\x1b[0m")) else m.group()
            i = m.end()
            continue
        ch = text[i]
        last = runs[-1] if runs else None
        if ch in " \n":
            col += 1
        elif last and last[0] + len(last[1]) == col - 1 and last[2] == color and \
                not set(last[1]) <= set("^~|") and ch not in "^~|":
            runs[-1] = (last[0], last[1] + " " + ch, color)   # a label of words ("char *")
            col += 1
        elif last and last[0] + len(last[1]) == col and last[2] == color:
            runs[-1] = (last[0], last[1] + ch, color)
            col += 1
        else:
            runs.append((col, ch, color))
            col += 1
        i += 1
    return runs


def _move_annotation(line, m, names):
    """An annotation line (caret, range, label) with each run moved from
    the ripped line's columns to the user's, and the user's columns it
    marks; None if two runs would overlap."""
    plain = SGR.sub("", line)
    head = ANNOTATION.match(plain).group()
    if not line.startswith(head):
        return None             # a coloured gutter: not as gcc 12 writes it
    body = line[len(head):]
    newline = "\n" if line.endswith("\n") else ""
    runs = _runs(body.rstrip("\n"))
    placed, marked = [], []
    drawn = Columns(m.columns.tabstop)      # gcc draws in display columns from 1
    for col, run, color in runs:
        if set(run) <= set("^~"):
            end = col + len(run) - 1
            if end >= drawn.col(m.user, len(m.user)) - 1:
                end = max(end, m.run_end(col, drawn))  # cut by cc at the user's line's end
            start, stop = m.col(col, columns=drawn), m.col(end, end=True, columns=drawn)
            if start is None:
                return None
            stop = start if stop is None or stop < start else stop  # ripper's tokens only: one
            caret = run.find("^")
            if caret >= 0:
                at = m.col(col + caret, columns=drawn)
                at = min(max(at if at is not None else start, start), stop)
                text = "~" * (at - start) + "^" + "~" * (stop - at)
            else:
                text = "~" * (stop - start + 1)
            placed.append((start, text, color))
            marked.append((start, stop, color))
        else:
            start = m.col(col, columns=drawn)
            if start is None:
                return None
            placed.append((start, names(run), color))
    placed.sort()
    out, at = "", 1
    for start, text, color in placed:
        if start < at:
            return None
        out += " " * (start - at) + (color + text + "\x1b[m\x1b[K" if color else text)
        at = start + len(text)
    return head + out + newline, marked


def _highlight(quote, spans):
    """The quoted user line (without colour), coloured at the marked columns."""
    plain = quote
    head = QUOTE.match(plain).group()
    text = plain[len(head):].rstrip("\n")
    newline = "\n" if plain.endswith("\n") else ""
    # display columns of a line without tabs in gcc's quote: it expands them
    for start, stop, color in sorted(spans, reverse=True):
        a, b = start - 1, stop
        if 0 <= a < len(text):
            text = text[:a] + color + text[a:b] + "\x1b[m\x1b[K" + text[b:]
    return head + text + newline


def translate(stream, ripped, out, columns=None):
    """Copy cc's standard error `stream` (a binary file) to `out`, its
    messages about ripped lines of `ripped` (the ripped text, bytes) in
    the user's columns and names."""
    t = Translator(ripped, out, columns)
    raw = b""
    try:
        for raw in stream:
            t.feed(raw)
            raw = b""
            if t.map is None:
                out.flush()
        t.flush()
        t._write_includes()
    except Exception:           # a bug of ours: cc's own words, from where it struck
        for line in t.includes + t.held:
            out.write(line.encode(*ENC))
        out.write(raw)
        for raw in stream:
            out.write(raw)
    out.flush()

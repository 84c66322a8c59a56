"""emit.py -- byte-offset edits applied in one place, with #line mapping.

Passes never build output text themselves: they record edits on the
original bytes.  Untouched text stays byte-identical, edits may not
overlap (a larger edit absorbs the smaller ones inside it, whose result it
read through `text`), and the output keeps every original line on its
line number, so compiler messages and gdb name the user's file and line.

    rw = Rewriter(b"int x = f(1);\\n")
    rw.replace(8, 9, "f__rip")
    rw.text(0, 13)          -> "int x = f__rip(1);"
    rw.render("a.c")        -> '#line 1 "a.c"\\nint x = f__rip(1);\\n'
"""

import bisect

ENCODING = ("utf-8", "surrogateescape")   # any byte survives a round trip
BOM = b"\xef\xbb\xbf"


def line_directive(line, path):
    """`#line LINE "PATH"` with the path quoted as a C string."""
    return '#line %d "%s"' % (line, path.replace("\\", "\\\\").replace('"', '\\"'))


def preamble_lines(source):
    """How many lines at the top of `source` hold only blank lines,
    comments, #define/#undef and conditionals around them, ending where no
    conditional is open (so an include put after them is unconditional)."""
    lines = source.split(b"\n")
    n, depth, settled, in_comment = 0, 0, 0, False
    while n < len(lines):
        rest = lines[n].strip()
        continued = False
        while rest:
            if in_comment:
                end = rest.find(b"*/")
                if end < 0:
                    rest = b""
                    break
                rest, in_comment = rest[end + 2:].lstrip(), False
            elif rest.startswith(b"/*"):
                rest, in_comment = rest[2:], True
            elif rest.startswith(b"//"):
                continued = rest.endswith(b"\\")
                rest = b""
            elif rest.startswith(b"#"):
                word = rest[1:].lstrip().split(b" ")[0].split(b"\t")[0].split(b"/")[0]
                if word in (b"if", b"ifdef", b"ifndef"):
                    depth += 1
                elif word == b"endif":
                    depth -= 1
                elif word not in (b"define", b"undef", b"else", b"elif"):
                    return settled
                continued = rest.endswith(b"\\")
                rest = b""
            else:
                return settled
        n += 1
        while continued and n < len(lines):
            continued = lines[n].rstrip().endswith(b"\\")
            n += 1
        if depth == 0 and not in_comment:
            settled = n
    return settled


class Rewriter:
    def __init__(self, source):
        self.source = source        # bytes of the main file
        self.keys = []              # sort keys of the edits: (start, width > 0, -depth)
        self.edits = []             # (start, end, bytes) in the same order
        self.blocks = {}            # line -> generated lines to put before it

    def _insert_sorted(self, key, edit):
        i = bisect.bisect_right(self.keys, key)
        self.keys.insert(i, key)
        self.edits.insert(i, edit)

    def replace(self, start, end, text):
        """Replace source[start:end] (start < end) by `text`.  Edits strictly
        inside the range are dropped: the caller built `text` from `self.text`."""
        if end <= start:
            raise AssertionError("empty replacement at %d" % start)
        data = text.encode(*ENCODING)
        i = bisect.bisect_left(self.keys, (start,))
        if i > 0:
            s, e, _ = self.edits[i - 1]
            if s < e and e > start:
                raise AssertionError("overlapping edits at %d and %d" % (s, start))
        j, drop = i, []
        while j < len(self.edits) and self.edits[j][0] < end:
            s, e, d = self.edits[j]
            if (s, e, d) == (start, end, data):
                return              # the same edit twice (a name in a macro used twice)
            if e > end:
                raise AssertionError("overlapping edits at %d and %d" % (s, start))
            if not (s == e == start):       # an insertion at `start` stays in front
                drop.append(j)
            j += 1
        for k in reversed(drop):
            del self.keys[k]
            del self.edits[k]
        self._insert_sorted((start, 1, 0), (start, end, data))

    def insert(self, offset, text, depth=0):
        """Insert `text` at `offset`.  Several at one offset come out deepest
        first (the inner statement's closing brace before the outer's)."""
        i = bisect.bisect_left(self.keys, (offset,))
        if i > 0 and self.edits[i - 1][0] < offset < self.edits[i - 1][1]:
            raise AssertionError("insertion inside an edit at %d" % offset)
        self._insert_sorted((offset, 0, -depth), (offset, offset, text.encode(*ENCODING)))

    def text(self, start, end):
        """source[start:end] with the edits inside it applied."""
        out = []
        pos = start
        i = bisect.bisect_left(self.keys, (start,))
        if i > 0:
            s, e, _ = self.edits[i - 1]
            if s < start < e:
                raise AssertionError("edit crosses a range boundary at %d" % s)
        while i < len(self.edits) and self.edits[i][0] <= end:
            s, e, d = self.edits[i]
            i += 1
            if s == e and (s == start or s == end):
                continue            # insertions at the boundaries belong outside
            if s == end:
                continue
            if e > end:
                raise AssertionError("edit crosses a range boundary at %d" % s)
            out.append(self.source[pos:s])
            out.append(d)
            pos = e
        out.append(self.source[pos:end])
        return b"".join(out).decode(*ENCODING)

    def include_first(self, text):
        """Put `text` (one line) before everything but the leading comments
        and #define/#undef lines: feature-test macros (_GNU_SOURCE) must
        come before the first system header, ours included."""
        line = preamble_lines(self.source) + 1
        if line > self.source.count(b"\n") + 1:
            line = 1                # nothing but definitions: the top will do
        self.blocks.setdefault(line, []).insert(0, text)

    def insert_lines(self, line, lines):
        """Put generated lines (no newlines inside) before source line `line`."""
        self.blocks.setdefault(line, []).extend(lines)

    def render(self, path, prologue=""):
        """The rewritten file: prologue, then the source mapped by #line."""
        def mark(line):
            return (line_directive(line, path) + "\n").encode(*ENCODING)
        bom = BOM if self.source.startswith(BOM) else b""   # means UTF-8 at the very start only
        out = [bom + prologue.encode(*ENCODING), mark(1)]
        line_starts = [len(bom)] + [i + 1 for i, b in enumerate(self.source) if b == 10]
        pos = len(bom)
        pending = sorted(self.blocks.items())
        for s, e, d in self.edits + [(len(self.source), len(self.source), None)]:
            while pending and line_starts[pending[0][0] - 1] <= s:
                line, lines = pending.pop(0)
                at = line_starts[line - 1]
                out.append(self.source[pos:at])
                pos = at
                for text in lines:
                    out.append(mark(line) + text.encode(*ENCODING) + b"\n")
                out.append(mark(line))
            if d is None:
                break
            out.append(self.source[pos:s])
            lost = self.source.count(b"\n", s, e) - d.count(b"\n")
            if lost >= 0:
                out.append(d + b"\n" * lost)
            else:
                resync = mark(bisect.bisect_right(line_starts, e))    # e's line
                out.append(d if d.endswith(b"\n" + resync) else d + b"\n" + resync)
            pos = e
        out.append(self.source[pos:])
        return b"".join(out)

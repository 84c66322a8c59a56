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


def line_directive(line, path):
    """`#line LINE "PATH"` with the path quoted as a C string."""
    return '#line %d "%s"' % (line, path.replace("\\", "\\\\").replace('"', '\\"'))


class Rewriter:
    def __init__(self, source):
        self.source = source        # bytes of the main file
        self.starts = []            # sorted start offsets of the edits
        self.edits = []             # (start, end, bytes) in the same order
        self.blocks = {}            # line -> generated lines to put before it

    def replace(self, start, end, text):
        """Replace source[start:end] by `text`.  Edits strictly inside the
        range are dropped: the caller built `text` from `self.text`."""
        data = text.encode(*ENCODING)
        i = bisect.bisect_left(self.starts, start)
        if i > 0 and self.edits[i - 1][1] > start:
            raise AssertionError("overlapping edits at %d" % start)
        j = i
        while j < len(self.edits) and self.edits[j][0] < end or \
                (j < len(self.edits) and self.edits[j][0] == start == end):
            s, e, d = self.edits[j]
            if (s, e, d) == (start, end, data):
                return              # the same edit twice (a name in a macro used twice)
            if e > end or (s == e == start and end > start):
                raise AssertionError("overlapping edits at %d" % s)
            j += 1
        del self.starts[i:j]
        del self.edits[i:j]
        self.starts.insert(i, start)
        self.edits.insert(i, (start, end, data))

    def text(self, start, end):
        """source[start:end] with the edits inside it applied."""
        out = []
        pos = start
        i = bisect.bisect_left(self.starts, start)
        while i < len(self.edits) and self.edits[i][0] < end:
            s, e, d = self.edits[i]
            if e > end:
                raise AssertionError("edit crosses the end of a range at %d" % s)
            out.append(self.source[pos:s])
            out.append(d)
            pos = e
            i += 1
        out.append(self.source[pos:end])
        return b"".join(out).decode(*ENCODING)

    def insert_lines(self, line, lines):
        """Put generated lines (no newlines inside) before source line `line`."""
        self.blocks.setdefault(line, []).extend(lines)

    def render(self, path, prologue=""):
        """The rewritten file: prologue, then the source mapped by #line."""
        def mark(line):
            return (line_directive(line, path) + "\n").encode(*ENCODING)
        out = [prologue.encode(*ENCODING), mark(1)]
        line_starts = [0] + [i + 1 for i, b in enumerate(self.source) if b == 10]
        pos = 0
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
                resync = mark(self.source.count(b"\n", 0, e) + 1)
                out.append(d if d.endswith(b"\n" + resync) else d + b"\n" + resync)
            pos = e
        out.append(self.source[pos:])
        return b"".join(out)

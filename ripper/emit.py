"""emit.py -- edits on the preprocessed text, applied in one place.

Passes never build the output file themselves: they record edits, each a
range of the preprocessed text and the pieces that replace it.  A piece is
generated text, or text copied from the source with the offset it came
from.  Untouched text stays byte-identical; edits may not overlap.  When
the output is rendered, linemarkers keep every piece copied from the
source on its own file and line (the compiler's messages and gdb name the
user's file and line), resyncing only where generated code moved it.

    rw = Rewriter(pre)              # pre: preprocess.Preprocessed
    rw.replace(8, 9, [("rip__new_f", None)])
    rw.render()                     -> bytes
"""

import bisect
import io

from .preprocess import marker_line

ENCODING = ("utf-8", "surrogateescape")   # any byte survives a round trip
MAX_PAD = 8                               # newlines before a linemarker is shorter


class Overlap(AssertionError):
    """Two edits of the same text: a bug in ripper."""


class Rewriter:
    def __init__(self, pre):
        self.text = pre.text        # the preprocessed bytes
        self.lines = pre.lines      # its LineMap
        self.starts = []            # sorted edit starts (for bisect)
        self.edits = []             # (start, end, order, pieces), sorted

    def replace(self, start, end, pieces):
        """Replace text[start:end] by `pieces` [(str, origin offset or None)]."""
        if end < start:
            raise Overlap("an edit ends before it starts at %d" % start)
        i = bisect.bisect_right(self.starts, start)
        if i > 0:
            s, e, _, _ = self.edits[i - 1]
            if e > start or (s == start and end > start and e > s):
                raise Overlap("overlapping edits at %d and %d" % (s, start))
        if i < len(self.edits) and self.edits[i][0] < end:
            raise Overlap("overlapping edits at %d and %d" % (start, self.edits[i][0]))
        self.starts.insert(i, start)
        self.edits.insert(i, (start, end, len(self.edits), _compact(pieces)))

    def insert(self, offset, pieces):
        """Insert `pieces` at `offset` (after any earlier insertion there)."""
        self.replace(offset, offset, pieces)

    def render(self, prologue="", epilogue=""):
        """The rewritten file, linemarkers resynced where edits moved lines."""
        out = _Output(self.lines)
        if prologue:
            # gcc names a preprocessed file's unit (DWARF's DW_AT_name, the
            # file of a link error) after the marker on its first line:
            # the user's file, not ripcc's temporary .i
            name = out.where[0]
            out.buf.write(marker_line(name, 1).encode(*ENCODING) + b"\n")
            out.where = (name, 1, "")
        out.generated(prologue)
        pos = 0
        for start, end, _, pieces in self.edits:
            out.copy(self.text, pos, start)
            for piece in pieces:
                if isinstance(piece, str):
                    out.generated(piece)
                else:
                    origin, size = piece >> 32, piece & 0xFFFFFFFF
                    out.copy(self.text, origin, origin + size)
            pos = end
        out.copy(self.text, pos, len(self.text))
        out.generated(epilogue)
        data = out.buf.getvalue()   # its own buffer, not a copy: one copy of the output at the peak
        out.buf = None
        return data


def _compact(pieces):
    """`pieces` as render reads them, in a third of the memory (10^6 pieces
    wait for render in SQLite): generated text as its str, a copy of the
    source as one int, its offset << 32 | its length in bytes (all render
    copies: the text itself is the source's).

        _compact([("f(", None), ("x", 40)])  ->  ["f(", 40 << 32 | 1]"""
    out = []
    for text, origin in pieces:
        if origin is None:
            out.append(text)
        else:
            size = len(text.encode(*ENCODING))
            if size >> 32:
                raise ValueError("a copied piece of %d bytes: more than 4 GB" % size)
            out.append(origin << 32 | size)
    return out


class _Output:
    """The output being written, and the file and line the compiler will
    give its next byte."""

    def __init__(self, lines):
        self.lines = lines
        self.buf = io.BytesIO()     # the output so far
        self.where = lines.where(0)     # (file, line, flags) of the current output line
        self.at_line_start = True

    def generated(self, text):
        if not text:
            return
        data = text.encode(*ENCODING)
        self.buf.write(data)
        self.where = (self.where[0], self.where[1] + data.count(b"\n"), self.where[2])
        self.at_line_start = data.endswith(b"\n")

    def copy(self, text, start, end):
        """Copy text[start:end], first moving to its file and line."""
        if end <= start:
            return
        self.sync(start)
        self.buf.write(memoryview(text)[start:end])
        self.where = self.lines.where(end)
        self.at_line_start = text[min(end, len(text)) - 1] == 10    # '\n'

    def sync(self, offset):
        target = self.lines.where(offset)
        if target == self.where:
            return
        name, line, flags = target
        gap = line - self.where[1]
        if name == self.where[0] and flags == self.where[2] and 0 < gap <= MAX_PAD:
            self.buf.write(b"\n" * gap)
        else:
            lead = b"" if self.at_line_start else b"\n"
            self.buf.write(lead + marker_line(name, line, flags).encode(*ENCODING) + b"\n")
            # a marker sets the line of the next line; a copy that starts
            # mid-line keeps its column only approximately (spaces follow)
            col = offset - self.lines.line_starts[
                bisect.bisect_right(self.lines.line_starts, offset) - 1]
            if col:
                self.buf.write(b" " * min(col, 200))
        self.where = target
        self.at_line_start = False

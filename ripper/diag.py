"""diag.py -- the one error type of ripper: a message at a place.

    raise Diagnostic("a.c", 3, 5, "variable-length array in an async function",
                     hint="give the array a constant size")

prints as gcc prints its own, the source line and a caret under the column
included (in colour on a terminal, as gcc's -fdiagnostics-color=auto):

    a.c:3:5: error: variable-length array in an async function
        3 |     int buf[n];
          |     ^
    a.c:3:5: note: give the array a constant size

A warning is one with severity="warning" and the option that controls it,
named after the message as gcc names it ([-Wblocking]; [-Werror=blocking]
for one that option made an error).
"""

import os

# SGR codes as gcc's defaults: bold place, red error, magenta warning,
# cyan note, green caret.
_BOLD, _RED, _CYAN, _GREEN, _RESET = "\033[1m", "\033[1;31m", "\033[1;36m", "\033[1;32m", \
    "\033[m"
_MAGENTA = "\033[1;35m"


class Diagnostic(Exception):
    def __init__(self, path, line, col, message, hint=None, severity="error", option=None):
        super().__init__(message)
        self.severity = severity    # "error" or "warning"
        self.option = option        # the -W option that controls it ("blocking"), or None
        self.path = path
        self.line = line
        self.col = col
        self.message = message
        self.hint = hint
        self.others = []            # further diagnostics reported at once
        self.function = None        # the function being ripped when it was raised
        self.why = None             # a further note: why that function is async
        self.libclang_rejects = False   # libclang's own error: the compiler may reject it too

    def with_others(self, others):
        self.others = list(others)
        return self

    def format(self, color=False):
        """Every diagnostic of this one and its others, each with its source
        line and a caret when the file can be read."""
        b, r, m, c, g, x = (_BOLD, _RED, _MAGENTA, _CYAN, _GREEN, _RESET) if color else \
            ("",) * 6
        lines = []
        for d in [self] + self.others:
            # no file (no compiler, say): the tool's name, as gcc says "gcc: error:"
            where = "%s:%d:%d" % (d.path, d.line, d.col) if d.line else d.path or "ripper"
            tag = "" if d.option is None else " [-W%s%s]" % (
                "error=" if d.severity == "error" else "", d.option)
            lines.append("%s%s:%s %s%s:%s %s%s" % (b, where, x, r if d.severity == "error" else m,
                                                   d.severity, x, d.message, tag))
            lines += _quote(d.path, d.line, d.col, g, x)
            for note in (d.hint, d.why):
                if note:
                    lines.append("%s%s:%s %snote:%s %s" % (b, where, x, c, x, note))
        return "\n".join(lines)

    def fields(self):
        """This one (not its others) as a tuple, to send between processes."""
        return (self.path, self.line, self.col, self.message, self.hint, self.why,
                self.severity, self.option, self.libclang_rejects)

    @classmethod
    def of_fields(cls, fields):
        """The Diagnostic `fields()` gave."""
        path, line, col, message, hint, why, severity, option, libclang_rejects = fields
        d = cls(path, line, col, message, hint, severity, option)
        d.why, d.libclang_rejects = why, libclang_rejects
        return d

    def __str__(self):
        return self.format()


def _quote(path, line, col, green="", reset=""):
    """gcc's two lines under a diagnostic: ` 12 | text` and the caret."""
    if not line or not path or not os.path.isfile(path):
        return []
    try:
        with open(path, "rb") as f:
            for number, text in enumerate(f, 1):
                if number == line:
                    break
            else:
                return []
    except OSError:
        return []
    text = text.rstrip(b"\r\n").decode("utf-8", "replace")
    gutter = "%5d" % line
    pad = "".join(ch if ch == "\t" else " " for ch in text[:max(col - 1, 0)])
    return ["%s | %s" % (gutter, text), "%s | %s%s^%s" % (" " * len(gutter), pad, green, reset)]


def wants_color(flags, stream):
    """Colour, as gcc decides it: -fdiagnostics-color[=always|never|auto]
    or -fno-diagnostics-color (the last wins), else auto: `stream` is a
    terminal (and neither NO_COLOR nor TERM=dumb says otherwise)."""
    how = "auto"
    for f in flags:
        if f in ("-fdiagnostics-color", "-fdiagnostics-color=always"):
            how = "always"
        elif f in ("-fno-diagnostics-color", "-fdiagnostics-color=never"):
            how = "never"
        elif f == "-fdiagnostics-color=auto":
            how = "auto"
    if how != "auto":
        return how == "always"
    return stream.isatty() and "NO_COLOR" not in os.environ and \
        os.environ.get("TERM") != "dumb"


class CompilerRejects(Exception):
    """The user's compiler rejected the input too (ripper asks it when
    libclang does: cli.compiler_judges); its errors are on stderr already,
    as it printed them.  The command says nothing more and exits with
    `status` (the compiler's: 1 for gcc's errors), as the compiler would."""

    def __init__(self, status):
        super().__init__("the compiler rejects the input (exit status %d)" % status)
        self.status = status

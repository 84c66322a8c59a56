"""diag.py -- the one error type of ripper: a message at a place.

    raise Diagnostic("a.c", 3, 5, "variable-length array in an async function",
                     hint="give the array a constant size")

prints as gcc prints its own, the source line and a caret under the column
included, ^~~ under the token or expression (in colour on a terminal, as
gcc's -fdiagnostics-color=auto):

    a.c:3:5: error: variable-length array in an async function
        3 |     int buf[n];
          |     ^~~
    a.c:3:5: note: give the array a constant size

report() prints them under the command's flags as gcc would: colour
(GCC_COLORS too), -fno-diagnostics-show-caret, -fmax-errors=N,
-Wfatal-errors, -fdiagnostics-format=json (gcc's JSON objects).

A warning is one with severity="warning" and the option that controls it,
named after the message as gcc names it ([-Wblocking]; [-Werror=blocking]
for one that option made an error).
"""

import os
import re
import sys
# json and unicodedata are imported where they are used: every ripcc start
# imports this module, and most print nothing.

# gcc 12's colours (GCC_COLORS's defaults for what ripper shows).
DEFAULT_COLORS = {"error": "01;31", "warning": "01;35", "note": "01;36", "locus": "01",
                  "quote": "01"}
# A name quoted in a message ('read'; not the apostrophe of "ripper's").
_QUOTED = r"(?<!\w)'([^'\n]+?)'(?!\w)"     # (compiled when first used: re's cache)
_RESET = "\033[m\033[K"         # as gcc writes it: SGR, then "erase to end of line"


class Diagnostic(Exception):
    def __init__(self, path, line, col, message, hint=None, severity="error", option=None,
                 span=None):
        super().__init__(message)
        self.severity = severity    # "error" or "warning"
        self.option = option        # the -W option that controls it ("blocking"), or None
        self.path = path
        self.line = line
        self.col = col              # 1-based byte column in the line (0: none)
        self.message = message
        self.hint = hint
        self.span = span            # the text from col on that it is about (an expression),
                                    # or None: the token there (gcc underlines either)
        self.others = []            # further diagnostics reported at once
        self.function = None        # the function it is in (gcc's "In function 'f':"), or None
        self.why = None             # a further note: why that function is async
        self.libclang_rejects = False   # libclang's own error: the compiler may reject it too

    def with_others(self, others):
        self.others = list(others)
        return self

    def format(self, color=False, style=None):
        """Every diagnostic of this one and its others, as gcc's text shows
        them (`style`: a Style made from the command's flags), each with
        its source line and ^~~ under its token or expression when the
        file can be read."""
        if style is None:
            style = Style(color=color)
        return "\n".join(style.text_lines([self] + self.others))

    def fields(self):
        """This one (not its others) as a tuple, to send between processes."""
        return (self.path, self.line, self.col, self.message, self.hint, self.why,
                self.severity, self.option, self.span, self.function, self.libclang_rejects)

    @classmethod
    def of_fields(cls, fields):
        """The Diagnostic `fields()` gave."""
        (path, line, col, message, hint, why, severity, option, span, function,
         libclang_rejects) = fields
        d = cls(path, line, col, message, hint, severity, option, span)
        d.why, d.function, d.libclang_rejects = why, function, libclang_rejects
        return d

    def __str__(self):
        return self.format()


class Style:
    """How diagnostics are shown, read from compiler flags as gcc reads
    them (the last of each kind wins): colour (-fdiagnostics-color,
    GCC_COLORS), -f[no-]diagnostics-show-caret, -f[no-]diagnostics-show-
    line-numbers, -fdiagnostics-column-unit=byte|display,
    -fdiagnostics-column-origin=N, -ftabstop=N, -fmax-errors=N,
    -W[no-]fatal-errors and -fdiagnostics-format=json|text.

        Style(["-fmax-errors=1", "-fno-diagnostics-show-caret"]).max_errors -> 1
    """

    def __init__(self, flags=(), stream=None, color=None):
        self.caret = True           # the source line and ^~~ under it
        self.line_numbers = True    # " 12 | " before them
        self.byte_columns = False   # -fdiagnostics-column-unit=byte (gcc's default: display)
        self.origin = 1             # the number of a line's first column
        self.tabstop = 8
        self.max_errors = 0         # 0: no limit
        self.fatal = False          # -Wfatal-errors
        self.json = False           # -fdiagnostics-format=json
        for f in flags:
            if f in ("-fdiagnostics-show-caret", "-fno-diagnostics-show-caret"):
                self.caret = f == "-fdiagnostics-show-caret"
            elif f in ("-fdiagnostics-show-line-numbers", "-fno-diagnostics-show-line-numbers"):
                self.line_numbers = f == "-fdiagnostics-show-line-numbers"
            elif f.startswith("-fdiagnostics-column-unit="):
                self.byte_columns = f.endswith("=byte")
            elif f.startswith("-fdiagnostics-column-origin="):
                self.origin = _number(f, self.origin)
            elif f.startswith("-ftabstop="):
                self.tabstop = _number(f, self.tabstop) or 8
            elif f.startswith("-fmax-errors="):
                self.max_errors = _number(f, self.max_errors)
            elif f in ("-Wfatal-errors", "-Wno-fatal-errors"):
                self.fatal = f == "-Wfatal-errors"
            elif f.startswith("-fdiagnostics-format="):
                self.json = f.split("=", 1)[1] in ("json", "json-stderr")
        if color is None:
            color = stream is not None and wants_color(flags, stream)
        self.colors = gcc_colors() if color else None   # None: no colour

    def _paint(self, name, text):
        code = self.colors.get(name) if self.colors else None
        return "\033[%sm\033[K%s%s" % (code, text, _RESET) if code else text

    def _quotes(self, message):
        """`message` with the names it quotes in gcc's quote colour."""
        if not self.colors or not self.colors.get("quote"):
            return message
        return re.sub(_QUOTED, lambda m: "'%s'" % self._paint("quote", m.group(1)), message)

    def _column(self, d, text):
        """The column gcc prints for `d` on source line `text` (None: not
        readable): a display column unless bytes are asked for."""
        col = d.col
        if text is not None and not self.byte_columns:
            col = _display_width(_before(text, d.col), self.tabstop) + 1
        return col - 1 + self.origin

    def _place(self, d, text):
        if d.line:
            return "%s:%d:%d" % (d.path, d.line, self._column(d, text)) if d.col else \
                "%s:%d" % (d.path, d.line)
        return d.path or "ripper"   # no file (no compiler, say): as gcc says "gcc: error:"

    def text_lines(self, diagnostics):
        """gcc's lines for `diagnostics`, ending where -fmax-errors or
        -Wfatal-errors ends gcc (with its "compilation terminated" line)."""
        lines, context = [], (None, None)
        for d, notes, stop in self._shown(diagnostics):
            if d is not None:
                if d.line and (d.path, d.function) != context and (d.function or context[1]):
                    lines.append("%s %s" % (self._paint("locus", d.path + ":"), "In function "
                                            "'%s':" % self._paint("quote", d.function)
                                            if d.function else "At top level:"))
                context = (d.path, d.function) if d.line else context
                text = _source_line(d.path, d.line)
                where = self._paint("locus", self._place(d, text) + ":")
                tag = "" if d.option is None else " [%s]" % self._paint(d.severity, _option(d))
                lines.append("%s %s%s%s" % (where, self._paint(d.severity, d.severity + ": "),
                                            self._quotes(d.message), tag))
                if self.caret and text is not None and d.col:
                    lines += self._quote(d, text)
                for note in notes:
                    lines.append("%s %s%s" % (where, self._paint("note", "note: "),
                                          self._quotes(note)))
            if stop:
                lines.append(stop)
        return lines

    def _shown(self, diagnostics):
        """(diagnostic or None, its notes, the line that ends the run or
        None) for what gcc shows of `diagnostics`: before each one gcc
        stops if -fmax-errors errors are out; -Wfatal-errors stops right
        after the first error, before its notes."""
        errors = 0
        for d in diagnostics:
            if self.max_errors and errors >= self.max_errors:
                yield None, (), "compilation terminated due to -fmax-errors=%d." \
                    % self.max_errors
                return
            notes = [n for n in (d.hint, d.why) if n]
            if d.severity == "error":
                errors += 1
                if self.fatal:
                    yield d, (), "compilation terminated due to -Wfatal-errors."
                    return
            yield d, notes, None

    def _quote(self, d, text):
        """gcc's two lines under a diagnostic, ` 12 | text` (tabs expanded)
        and `^~~` under the token or expression at its column."""
        pad = _display_width(_before(text, d.col), self.tabstop)
        covered = _display_width(_before(text, d.col) + _covered(text, d.col, d.span),
                                 self.tabstop) - pad
        covered = max(covered, 1)
        shown = _expand_tabs(text, self.tabstop)
        head, body, tail = shown[:pad], shown[pad:pad + covered], shown[pad + covered:]
        gutter, blank = ("%5d |" % d.line, "      |") if self.line_numbers else ("", "")
        return ["%s %s%s%s" % (gutter, head, self._paint(d.severity, body), tail),
                "%s %s%s" % (blank, " " * pad, self._paint(d.severity,
                                                           "^" + "~" * (covered - 1)))]

    def json_objects(self, diagnostics):
        """(gcc's -fdiagnostics-format=json objects for what gcc shows of
        `diagnostics`, hint and why as children notes; the line that ends
        the run, or None)."""
        out, ended = [], None
        for d, notes, stop in self._shown(diagnostics):
            if d is not None:
                locations = self._json_locations(d, _source_line(d.path, d.line))
                obj = {"kind": d.severity, "column-origin": self.origin,
                       "children": [{"kind": "note", "escape-source": False,
                                     "locations": locations, "message": n} for n in notes],
                       "escape-source": False, "locations": locations}
                if d.option is not None:
                    obj["option"] = _option(d)
                obj["message"] = d.message
                out.append(obj)
            ended = stop
        return out, ended

    def _json_locations(self, d, text):
        """gcc's "locations" of `d`: its caret, and the finish of what it
        covers when that is more than one column; a place without a line
        (a whole file) has none, as in gcc."""
        if not d.line or not d.col:
            return []

        def point(byte_col):
            display = byte_col if text is None else \
                _display_width(_before(text, byte_col), self.tabstop) + 1
            return {"byte-column": byte_col, "display-column": display, "line": d.line,
                    "file": d.path,
                    "column": (byte_col if self.byte_columns else display) - 1 + self.origin}
        covered = "" if text is None else _covered(text, d.col, d.span)
        if len(covered) < 2:
            return [{"caret": point(d.col)}]
        last = d.col + len(covered[:-1].encode("utf-8"))    # the last character's first byte
        return [{"finish": point(last), "caret": point(d.col)}]


def _option(d):
    return "-W%s%s" % ("error=" if d.severity == "error" else "", d.option)


def _number(flag, default):
    try:
        return max(int(flag.split("=", 1)[1]), 0)
    except ValueError:
        return default              # the compiler refuses it, and says so


def report(diagnostics, flags=(), stream=None, empty_too=False):
    """Print `diagnostics` (a Diagnostic with its others, or a list) on
    `stream` (default standard error) as gcc would under compiler flags
    `flags`: text or, under -fdiagnostics-format=json, one JSON array
    ("[]" for none only if `empty_too`: each compilation of gcc prints
    one); colour, carets, -fmax-errors and -Wfatal-errors (Style).

        report(d, ["-fmax-errors=1"])   # the first error and its notes, then
        # "compilation terminated due to -fmax-errors=1." if more follow
    """
    stream = sys.stderr if stream is None else stream
    if isinstance(diagnostics, Diagnostic):
        diagnostics = [diagnostics] + diagnostics.others
    style = Style(flags, stream)
    if style.json:
        import json
        objects, ended = style.json_objects(diagnostics)
        if ended:                   # gcc's order under -Wfatal-errors: this line, then the array
            print(ended, file=stream)
        if objects or empty_too:
            print(json.dumps(objects), file=stream)
    elif diagnostics:
        print("\n".join(style.text_lines(diagnostics)), file=stream)
    stream.flush()


# A C token at a column: a string or character literal, a number, an
# identifier, a punctuator (the longest first), else one character.
_TOKEN = (r"""(?:L|u8|u|U)?"(?:\\.|[^"\\])*"|(?:L|u|U)?'(?:\\.|[^'\\])*'|"""
          r"""\.?[0-9](?:[eEpP][+-]|[\w.])*|\w+|"""
          r"""\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&^|]=|##|.""")


def _before(text, col):
    """What of line `text` comes before 1-based byte column `col`."""
    return text.encode("utf-8", "surrogateescape")[:max(col - 1, 0)].decode("utf-8", "replace")


def _covered(text, col, span=None):
    """The text a diagnostic at byte column `col` of line `text` is about:
    `span` if the line has it there (an expression; where a macro wrote
    it, the line does not, and the token there is taken), else the token
    there, as gcc underlines them.

        _covered("    int x = foo + 1;", 13) -> "foo"
    """
    rest = text[len(_before(text, col)):]
    if span and rest.startswith(span):
        return span
    m = re.match(_TOKEN, rest)
    return m.group() if m else rest[:1]


def _source_line(path, line):
    """Line `line` of file `path` (text, its end left off), or None."""
    if not line or not path or not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as f:
            for number, text in enumerate(f, 1):
                if number == line:
                    return text.rstrip(b"\r\n").decode("utf-8", "replace")
    except OSError:
        pass
    return None


def _char_width(ch):
    if ch < "\x7f":
        return 1
    import unicodedata
    if unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _display_width(text, tabstop=8):
    """The columns `text` takes, as gcc counts them: a tab to the next
    multiple of -ftabstop, a wide character two, a combining one none.

        _display_width("\\tx") -> 9"""
    width = 0
    for ch in text:
        width = (width // tabstop + 1) * tabstop if ch == "\t" else width + _char_width(ch)
    return width


def _expand_tabs(text, tabstop=8):
    """`text` with its tabs turned into spaces, as gcc quotes a line."""
    out, width = [], 0
    for ch in text:
        if ch == "\t":
            out.append(" " * (tabstop - width % tabstop))
            width += tabstop - width % tabstop
        else:
            out.append(ch)
            width += _char_width(ch)
    return "".join(out)


def gcc_colors():
    """The colours GCC_COLORS asks for (gcc's defaults for the rest), or
    None when it is set and empty: then gcc shows none at all.

        GCC_COLORS='error=01;34' -> {"error": "01;34", "warning": "01;35", ...}"""
    asked = os.environ.get("GCC_COLORS")
    if asked is None:
        return dict(DEFAULT_COLORS)
    if not asked:
        return None
    colors = dict(DEFAULT_COLORS)
    for item in asked.split(":"):
        name, _, value = item.partition("=")
        if name in colors and re.fullmatch(r"[0-9;]*", value):
            colors[name] = value
    return colors


def wants_color(flags, stream):
    """Colour, as gcc decides it: -fdiagnostics-color[=always|never|auto]
    or -fno-diagnostics-color (the last wins), else auto: `stream` is a
    terminal (and neither NO_COLOR nor TERM=dumb says otherwise).  An
    empty GCC_COLORS turns colour off even so (gcc_colors())."""
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

"""diag.py -- the one error type of ripper: a message at a place.

    raise Diagnostic("a.c", 3, 5, "variable-length array in an async function",
                     hint="give the array a constant size")

prints as

    a.c:3:5: error: variable-length array in an async function
    a.c:3:5: note: give the array a constant size
"""


class Diagnostic(Exception):
    def __init__(self, path, line, col, message, hint=None):
        super().__init__(message)
        self.path = path
        self.line = line
        self.col = col
        self.message = message
        self.hint = hint
        self.others = []            # further diagnostics reported at once
        self.function = None        # the function being ripped when it was raised

    def with_others(self, others):
        self.others = list(others)
        return self

    def format(self):
        lines = []
        for d in [self] + self.others:
            where = "%s:%d:%d" % (d.path, d.line, d.col) if d.line else d.path
            lines.append("%s: error: %s" % (where, d.message))
            if d.hint:
                lines.append("%s: note: %s" % (where, d.hint))
        return "\n".join(lines)

    def __str__(self):
        return self.format()

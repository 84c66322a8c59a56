"""scan.py -- small scans of preprocessed C text, where the tree gives an
offset and the code needs the token beside it.

    matching_paren(b"f(a, (b))", 1)  -> 8
"""


def skip_blank(text, i):
    """Offset of the first token at or after i: past spaces, comments and
    linemarker lines."""
    n = len(text)
    while i < n:
        ch = text[i:i + 1]
        if ch in b" \t\r\n\f\v":
            i += 1
        elif text.startswith(b"/*", i):
            j = text.find(b"*/", i + 2)
            i = n if j < 0 else j + 2
        elif text.startswith(b"//", i):
            j = text.find(b"\n", i)
            i = n if j < 0 else j
        elif ch == b"#" and (i == 0 or text[i - 1:i] == b"\n"):
            j = text.find(b"\n", i)
            i = n if j < 0 else j
        else:
            break
    return i


QUALIFIERS = (b"const", b"volatile", b"restrict", b"__restrict", b"__restrict__", b"_Atomic")


def declarator_start(text, f):
    """Where the declarator of `f` (a function or variable: name_at, start)
    begins: its name, or the '*'s and '('s before it (`int *f(void)`,
    `int (*f(void))[3]`, `char *const p`).  A qualifier before them all is
    the specifiers' (`int const x`)."""
    i = start = f.name_at
    while i > f.start:
        j = i
        while j > f.start and text[j - 1:j] in b" \t\r\n":
            j -= 1
        if text[j - 1:j] in (b"*", b"("):
            i = start = j - 1
            continue
        word = next((q for q in QUALIFIERS if text[j - len(q):j] == q), None)
        if word is not None and text[j - len(word) - 1:j - len(word)] in b" \t\r\n*(":
            i = j - len(word)
            continue
        break
    return start


def params_open(text, f):
    """Offset of the '(' that opens f's parameter list: after its name, and
    after the ')' of a parenthesized name (`(f)(int x)`)."""
    i = skip_blank(text, f.name_at + len(f.name.encode()))
    while text[i:i + 1] == b")":
        i = skip_blank(text, i + 1)
    return i


def semicolon_after(text, end):
    """`end`, or past the ';' that follows it (spaces, comments and
    linemarkers between)."""
    i = skip_blank(text, end)
    return i + 1 if text[i:i + 1] == b";" else end


def matching_paren(text, i):
    """Offset of the ')' matching the '(' at i, or -1."""
    if text[i:i + 1] != b"(":
        return -1
    depth = 0
    n = len(text)
    while i < n:
        ch = text[i:i + 1]
        if ch == b"(":
            depth += 1
        elif ch == b")":
            depth -= 1
            if depth == 0:
                return i
        elif ch in (b'"', b"'"):
            j = i + 1
            while j < n and text[j:j + 1] != ch:
                j += 2 if text[j:j + 1] == b"\\" else 1
            i = j
        elif text.startswith(b"/*", i):
            j = text.find(b"*/", i + 2)
            i = n if j < 0 else j + 1
        elif text.startswith(b"//", i):
            j = text.find(b"\n", i)
            i = n if j < 0 else j
        i += 1
    return -1

#!/usr/bin/env python3
"""tools/md2man.py -- a manual page written in Markdown, as man(7) roff.

    python3 tools/md2man.py docs/ripper.1.md > man/ripper.1     (make man)

Only the Markdown the pages in docs/ use, each form one roff form; a line
it does not know is an error with its line number, never a guess:

    # ripper(1) -- what it does           .TH RIPPER 1 ... and .SH NAME
    <!-- man: DATE, SOURCE, MANUAL -->    the rest of .TH (next after the title)
    <!-- a comment -->                    .\\" a comment
    ## SECTION                            .SH SECTION
    ### Subsection                        .SS Subsection
    a paragraph                           .PP and its lines
    a line ending in a backslash\\         the line, then .br
    - a tag:                              .TP, the tag (its colon dropped)
      its meaning, indented two spaces    the meaning; after a blank line, .IP
    ```                                   .RS, .nf ... .fi, .RE
    `code`, **bold**                      \\fB...\\fR
    *word*                                \\fI...\\fR
    [text](target)                        text (the target is the web page's)

    convert("# x(1) -- do it\n<!-- man: 2026-01-02, x 1.0, User Commands -->\n"
            "## OPTIONS\n- `-o` *file*:\n  Where.\n")
    -> '.\\" x.1 -- made from x.1.md ...\n.TH X 1 2026-01-02 "x 1.0" "User Commands"\n'
       '.nh\n.ad l\n.SH NAME\nx \\- do it\n.SH OPTIONS\n.TP\n\\fB\\-o\\fR \\fIfile\\fR\nWhere.\n'
"""
import os
import re
import sys

INLINE = re.compile(r"`([^`]+)`"                       # code
                    r"|\*\*([^*]+)\*\*"                # bold
                    r"|\*([^*\s](?:[^*]*[^*\s])?)\*"   # italic
                    r"|\[([^\]]+)\]\([^)\s]+\)")       # link
FENCE = "```"


class Error(Exception):
    """A line the converter does not know: its number and why."""


def escape(text):
    """Plain text as roff prints it: a backslash and a minus (not a
    hyphen) written out, and every character past ASCII by its code."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "".join(c if ord(c) < 128 else "\\[u%04X]" % ord(c) for c in text)


def inline(text):
    """Markdown's code, bold, italic and links in `text` as font changes."""
    out, pos = [], 0
    for m in INLINE.finditer(text):
        code, bold, italic, label = m.groups()
        out.append(escape(text[pos:m.start()]))
        if label is not None:
            out.append(inline(label))
        else:
            out.append("\\f%s%s\\fR" % ("I" if italic else "B", escape(code or bold or italic)))
        pos = m.end()
    out.append(escape(text[pos:]))
    return "".join(out)


def text_lines(lines):
    """Lines of one paragraph as roff text lines: inline markup (which may
    cross a line's end), a hard break as .br, a line that roff would take
    for a request guarded with \\&."""
    joined = "\n".join(line.strip() for line in lines)
    joined = re.sub(r"\\\n", "\0\n", joined)
    if joined.endswith("\\"):
        joined = joined[:-1] + "\0"
    out = []
    for line in inline(joined).split("\n"):
        brk = line.endswith("\0")
        line = line.rstrip("\0")
        out.append("\\&" + line if line.startswith((".", "'")) else line)
        if brk:
            out.append(".br")
    return out


def code_block(lines):
    """A fenced block, as written: no filling, indented."""
    body = []
    for line in lines:
        line = escape(line)
        body.append("\\&" + line if line.startswith((".", "'")) else line)
    return [".RS", ".nf"] + body + [".fi", ".RE"]


def header(lines, n):
    """The title line and the man: comment after it: .TH and NAME."""
    title = re.fullmatch(r"# ([\w.-]+)\((\d)\) -- (.+)", lines[n])
    if not title:
        raise Error("line %d: the page must start '# name(section) -- what it does'" % (n + 1))
    n += 1
    while n < len(lines) and not lines[n].strip():
        n += 1
    meta = re.fullmatch(r"<!-- man: ([^,]+), ([^,]+), ([^,]+) -->", lines[n]) if n < len(lines) \
        else None
    if not meta:
        raise Error("line %d: the title must be followed by '<!-- man: DATE, SOURCE, MANUAL -->'"
                    % (n + 1))
    name, section, what = title.groups()
    date, source, manual = meta.groups()
    return n + 1, [
        '.\\" %s.%s -- made from %s.%s.md by tools/md2man.py (make man): edit that file, '
        'not this one.' % (name, section, name, section),
        '.TH %s %s %s "%s" "%s"' % (name.upper(), section, date, source, manual),
        ".nh", ".ad l", ".SH NAME", "%s \\- %s" % (escape(name), inline(what))]


def convert(markdown):
    """The roff text of a page's Markdown."""
    lines = markdown.splitlines()
    n = 0
    while n < len(lines) and not lines[n].strip():
        n += 1
    if n == len(lines):
        raise Error("line 1: an empty page")
    n, out = header(lines, n)
    heading = True                      # nothing since .SH/.SS: no .PP needed
    while n < len(lines):
        line = lines[n]
        if not line.strip():
            n += 1
            continue
        if line.startswith("<!--"):
            end = n
            while "-->" not in lines[end]:
                end += 1
                if end == len(lines):
                    raise Error("line %d: a comment that does not end" % (n + 1))
            text = "\n".join(lines[n:end + 1])
            text = text[len("<!--"):text.index("-->")].strip()
            out += ['.\\" ' + c.strip() for c in text.splitlines()]
            n = end + 1
            continue
        m = re.fullmatch(r"(##|###) ([^#].*)", line)
        if m:
            out.append((".SH " if m.group(1) == "##" else ".SS ") + escape(m.group(2).strip()))
            heading = True
            n += 1
            continue
        if line.startswith("#"):
            raise Error("line %d: only ## and ### headings after the title" % (n + 1))
        if line.startswith(FENCE):
            end = n + 1
            while end < len(lines) and lines[end].strip() != FENCE:
                end += 1
            if end == len(lines):
                raise Error("line %d: a code block that does not end" % (n + 1))
            out += ([] if heading else [".PP"]) + code_block(lines[n + 1:end])
            heading = False
            n = end + 1
            continue
        if line.startswith(("- ", "* ")):
            if not line.rstrip().endswith(":"):
                raise Error("line %d: a list item is a tag ending in ':', its meaning on the "
                            "lines below, indented two spaces" % (n + 1))
            out += [".TP"] + text_lines([line[2:].rstrip()[:-1]])
            n += 1
            paragraph = []
            while n < len(lines) and (lines[n].startswith("  ") or not lines[n].strip()):
                if lines[n].strip():
                    paragraph.append(lines[n])
                elif paragraph and n + 1 < len(lines) and lines[n + 1].startswith("  "):
                    out += text_lines(paragraph) + [".IP"]
                    paragraph = []
                else:
                    break
                n += 1
            if not paragraph:
                raise Error("line %d: a tag with no meaning below it" % n)
            out += text_lines(paragraph)
            heading = False
            continue
        if line.startswith(("  ", "|", ">", "+ ")) or re.match(r"\d+\. ", line):
            raise Error("line %d: not in the Markdown this converter reads: %s" % (n + 1, line))
        end = n
        while end < len(lines) and lines[end].strip() and \
                not lines[end].startswith(("#", FENCE, "- ", "* ", "<!--")):
            end += 1
        out += ([] if heading else [".PP"]) + text_lines(lines[n:end])
        heading = False
        n = end
    return "\n".join(out) + "\n"


def main(argv):
    if len(argv) != 2 or argv[1].startswith("-"):
        sys.stderr.write("usage: md2man.py PAGE.md > PAGE\n")
        return 2
    try:
        with open(argv[1], encoding="utf-8") as f:
            sys.stdout.write(convert(f.read()))
    except (OSError, Error) as e:
        sys.stderr.write("md2man.py: %s: %s\n" % (os.path.basename(argv[1]), e))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

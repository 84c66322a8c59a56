"""The documentation holds together: every relative link in README.md and
docs/*.md names a file that exists, every #anchor a heading of its file
(GitHub's rule), every docs file is linked from the README, and the text
the tests and the one-liner of tests/mutations.txt read is where they look.

    anchor("## Plain blocking calls (-Wblocking)") -> "plain-blocking-calls--wblocking"
"""
import glob
import os
import re

import pytest

from conftest import ROOT

DOCS = sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
PAGES = [os.path.join(ROOT, "README.md")] + DOCS
LINK = re.compile(r"(?<!!)\[(?:[^\]`]|`[^`]*`)*\]\(([^)\s]+)\)")


def prose(text):
    """`text` without its fenced code blocks and inline code (a `[x](y)`
    there is code, not a link)."""
    text = re.sub(r"^```.*?^```", lambda m: "\n" * m.group().count("\n"), text, flags=re.S | re.M)
    return re.sub(r"`[^`\n]*`", "``", text)


def anchor(heading):
    """GitHub's id for a heading line: lower case, punctuation but '-' and
    '_' dropped, each space a '-'."""
    text = re.sub(r"^#+\s*", "", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path):
    """The ids of the headings of a Markdown file (a repeated one gets -1, -2...)."""
    seen, ids = {}, set()
    text = re.sub(r"^```.*?^```", "", open(path, encoding="utf-8").read(), flags=re.S | re.M)
    for line in text.splitlines():
        if re.match(r"#{1,6} ", line):
            base = anchor(line)
            n = seen.get(base, 0)
            seen[base] = n + 1
            ids.add(base if n == 0 else "%s-%d" % (base, n))
    return ids


def links(path):
    """(line, target) of every link of a Markdown file, code left out."""
    text = prose(open(path, encoding="utf-8").read())
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in LINK.finditer(text)]


def broken(path):
    """The links of `path` that lead nowhere: 'file:line: target (why)'."""
    bad = []
    for line, target in links(path):
        if re.match(r"[a-z][a-z+.-]*:", target):       # http:, mailto:: not ours to check
            continue
        name, _, fragment = target.partition("#")
        dest = os.path.normpath(os.path.join(os.path.dirname(path), name)) if name else path
        where = "%s:%d: %s" % (os.path.relpath(path, ROOT), line, target)
        if not os.path.exists(dest):
            bad.append(where + " (no such file)")
        elif fragment and dest.endswith(".md") and fragment not in anchors(dest):
            bad.append(where + " (no such heading)")
    return bad


def test_anchor_follows_githubs_rule():
    assert anchor("## Plain blocking calls (-Wblocking)") == "plain-blocking-calls--wblocking"
    assert anchor("#### gdb: `rip tasks`, `rip bt N`, `rip print EXPR`") == \
        "gdb-rip-tasks-rip-bt-n-rip-print-expr"
    assert anchor("## What every task is doing: `rip_dump_tasks`") == \
        "what-every-task-is-doing-rip_dump_tasks"
    assert anchor("## Set up, run, test") == "set-up-run-test"


@pytest.mark.parametrize("path", PAGES, ids=[os.path.relpath(p, ROOT) for p in PAGES])
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(path):
    assert not broken(path), "\n".join(broken(path))


def test_the_check_finds_a_broken_link_and_a_missing_heading(tmp_path):
    (tmp_path / "there.md").write_text("# Here it is\n")
    page = tmp_path / "page.md"
    page.write_text("[a](there.md#here-it-is) [b](gone.md) [c](there.md#elsewhere)\n"
                    "`[code](gone.md)` [d](https://example.com/x)\n```\n[e](gone.md)\n```\n")
    assert [b.split(": ", 1)[1] for b in broken(str(page))] == [
        "gone.md (no such file)", "there.md#elsewhere (no such heading)"]


def test_readme_links_every_docs_file():
    targets = {os.path.normpath(os.path.join(ROOT, t.partition("#")[0]))
               for _, t in links(os.path.join(ROOT, "README.md"))}
    assert not [d for d in DOCS if d not in targets], "docs files the README does not link"


def test_readme_stays_short_enough_to_read():
    """The README is the way in (what ripper is, install, set up, the tour,
    the commands); the rest belongs in docs/."""
    assert os.path.getsize(os.path.join(ROOT, "README.md")) < 40 * 1024


def test_the_count_of_promises_is_where_the_one_liner_writes_it():
    """tests/mutations.txt's comment says how to keep docs/reliability.md's
    count of breaks in step; the file it names has the line, and the count."""
    text = open(os.path.join(ROOT, "tests", "mutations.txt")).read()
    target = re.search(r'breaks today/  \$n breaks today/" (\S+)', text).group(1)
    count = len(re.findall(r"^promise:", text, re.M))
    page = open(os.path.join(ROOT, target)).read()
    assert re.search(r"  %d breaks today" % count, page), (target, count)

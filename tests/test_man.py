"""The manual pages man/ripper.1 and man/ripcc.1, and --help: every option
the commands accept is listed in both, each on a line of its own (the
option lists are taken from the parsers, so a new option without its
documentation fails here), and the pages render without a warning.  The
pages are made from docs/ripper.1.md and docs/ripcc.1.md by
tools/md2man.py (`make man`), and are what it makes from them now.

    ripper_options() -> {"-o", "--stage", "-Wblocking", ...}
"""
import ast
import inspect
import os
import re
import shutil
import textwrap

import pytest

from conftest import RIPCC, RIPPER, ROOT, run
from ripper import __version__, blocking, cli, ripcc

MAN = os.path.join(ROOT, "man")
PAGES = {"ripper": os.path.join(MAN, "ripper.1"), "ripcc": os.path.join(MAN, "ripcc.1")}
SOURCES = {name: os.path.join(ROOT, "docs", name + ".1.md") for name in PAGES}
SECTIONS = ("NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "ENVIRONMENT", "EXIT STATUS",
            "EXAMPLES", "SEE ALSO")


def ripper_options():
    """Every option ripper's parser knows, and the flags blocking.mode
    reads (split_compiler_flags hands them to it, not to the parser)."""
    return {s for a in cli.ripper_parser()._actions for s in a.option_strings} | \
        set(blocking.FLAGS)


def ripcc_options():
    """Every option ripcc reads itself: the literals Command's parser and
    main compare the arguments with (ripcc's own and the cc options it
    acts on), the tuples Command tests membership of (but VALUE_FLAGS,
    cc's flags whose value follows, passed on as they are), and
    RIPCC_OPTIONS."""
    found = set(ripcc.RIPCC_OPTIONS)
    for function in (ripcc.Command.__init__, ripcc.main):
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                    re.fullmatch(r"--?[\w#][\w#=-]*", node.value):
                found.add(node.value.rstrip("="))
            elif isinstance(node, ast.Compare):
                for tup in node.comparators:
                    name = ast.unparse(tup)
                    if isinstance(tup, (ast.Name, ast.Attribute)) and name != "VALUE_FLAGS":
                        value = eval(name, vars(ripcc))
                        if isinstance(value, tuple):    # (not BACKENDS' names)
                            found.update(v for v in value if v.startswith("-"))
    return found


def named(option, text):
    """Does `text` name `option` as a word of its own (-o, not the -o in --posix-tls-only)?"""
    return re.search(r"(?<![\w-])%s(?![\w-])" % re.escape(option), text) is not None


def help_list(text):
    """The option columns of a --help text: the part of each indented
    line that starts with an option, up to two spaces (the meaning)."""
    return [re.split(r"\s{2,}", line.strip())[0] for line in text.splitlines()
            if re.match(r"\s+[-@]", line)]


def roff_text(text):
    """roff source as the words it prints: escapes and macro names out."""
    text = re.sub(r"\\f[BIRP]|\\f\(\w\w|\\c|\\&|\\%", "", text)
    text = text.replace("\\-", "-").replace("\\e", "\\")
    return re.sub(r"^\.[A-Z]{1,2}\b ?", "", text, flags=re.M).replace('"', "")


def section(page, name):
    """The roff source of section `name` of `page`."""
    text = open(page).read()
    m = re.search(r'^\.SH "?%s"?\n(.*?)(?=^\.SH |\Z)' % name, text, re.S | re.M)
    assert m, "%s has no %s section" % (page, name)
    return m.group(1)


def tagged(page):
    """The tags of the OPTIONS section's .TP entries of `page`, as printed."""
    lines = section(page, "OPTIONS").splitlines()
    return [roff_text(lines[i + 1]) for i, line in enumerate(lines[:-1]) if line == ".TP"]


def md2man():
    """tools/md2man.py, imported."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("md2man", os.path.join(ROOT, "tools", "md2man.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["ripper", "ripcc"])
def test_man_page_is_what_its_markdown_makes(name):
    """The committed page cannot drift from docs/NAME.1.md: after an edit
    of either, `make man` and commit both."""
    with open(SOURCES[name], encoding="utf-8") as f:
        made = md2man().convert(f.read())
    with open(PAGES[name], encoding="utf-8") as f:
        assert f.read() == made, "man/%s.1 is not what docs/%s.1.md makes: run make man" % (
            name, name)


def test_md2man_turns_each_form_into_its_roff_and_refuses_the_rest():
    tool = md2man()
    convert, Error = tool.convert, tool.Error
    page = convert("# x(1) -- do a thing\n<!-- man: 2026-01-02, x 1.0, User Commands -->\n"
                   "## SYNOPSIS\n**x** [`-o` *file*]\\\n**x** `--help`\n"
                   "## OPTIONS\nSome text\non two lines.\n\n- `-o` *file*, `--out`:\n"
                   "  Where it goes.\n\n  .Second paragraph.\n\nAfter.\n\n```\nx -o a\\b\n```\n")
    assert page.splitlines()[1:] == [
        '.TH X 1 2026-01-02 "x 1.0" "User Commands"', ".nh", ".ad l", ".SH NAME",
        "x \\- do a thing", ".SH SYNOPSIS", "\\fBx\\fR [\\fB\\-o\\fR \\fIfile\\fR]", ".br",
        "\\fBx\\fR \\fB\\-\\-help\\fR", ".SH OPTIONS", "Some text", "on two lines.", ".TP",
        "\\fB\\-o\\fR \\fIfile\\fR, \\fB\\-\\-out\\fR", "Where it goes.", ".IP",
        "\\&.Second paragraph.", ".PP", "After.", ".PP", ".RS", ".nf", "x \\-o a\\eb", ".fi", ".RE"]
    for bad in ("## A\n- no colon\n  text\n", "## A\n| a | table |\n", "## A\n```\nopen\n",
                "## A\n#### deep\n", "## A\n- tag:\n\nno meaning\n"):
        with pytest.raises(Error):
            convert("# x(1) -- y\n<!-- man: d, s, m -->\n" + bad)
    with pytest.raises(Error):
        convert("# x -- no section\n")


def test_option_lists_are_taken_from_the_parsers():
    assert {"--stage", "-p", "-I", "-D", "--all-async", "--posix", "--timeout",
            "-Werror=blocking", "-Wno-blocking", "-Wblocking"} <= ripper_options()
    assert {"--backend", "--equiv", "--all-async", "--posix", "--print-include-dir", "-c", "-x",
            "-MF", "-save-temps", "-v", "-Werror=blocking", "-h", "--version"} <= ripcc_options()
    # each with its meaning in --help
    assert all(a.help for a in cli.ripper_parser()._actions)
    # what split_compiler_flags keeps for the parser is what the parser knows
    assert set(cli.RIPPER_OPTIONS + cli.RIPPER_VALUE_OPTIONS) == \
        ripper_options() - set(blocking.FLAGS) - {"-w"}


@pytest.mark.parametrize("command,options", [(RIPPER, ripper_options), (RIPCC, ripcc_options)],
                         ids=["ripper", "ripcc"])
def test_help_lists_every_option(command, options):
    r = run([command, "--help"])
    assert r.returncode == 0, r.stderr.decode()
    listed = help_list(r.stdout.decode())
    missing = sorted(o for o in options() if not any(named(o, entry) for entry in listed))
    assert not missing, "--help of %s lists no %s" % (os.path.basename(command), missing)


@pytest.mark.parametrize("name,options", [("ripper", ripper_options), ("ripcc", ripcc_options)])
def test_man_page_has_an_entry_for_every_option(name, options):
    tags = tagged(PAGES[name])
    missing = sorted(o for o in options() if not any(named(o, tag) for tag in tags))
    assert not missing, "%s(1) has no OPTIONS entry for %s" % (name, missing)


@pytest.mark.parametrize("name", ["ripper", "ripcc"])
def test_man_page_has_the_usual_sections_and_this_version(name):
    text = open(PAGES[name]).read()
    # (ripcc's FILES: its native front and the Python driver, ripcc-py)
    sections = [s for s in re.findall(r'^\.SH "?([A-Z ]+?)"?$', text, re.M)
                if not (s == "FILES" and name == "ripcc")]
    assert sections == list(SECTIONS)
    th = re.search(r"^\.TH (\S+) 1 \S+ \"ripper (\S+)\"", text, re.M)
    assert th and th.groups() == (name.upper(), __version__)
    environment = roff_text(section(PAGES[name], "ENVIRONMENT"))
    for variable in ("RIPCC_CC", "RIPPER_TIMEOUT", "RIP_MAX_TASKS", "RIP_STACK_SIZE",
                     "RIP_OFFLOAD_THREADS"):
        assert variable in environment


def test_every_variable_the_runtime_reads_is_in_both_pages():
    read = set()
    for folder, _, files in os.walk(os.path.join(ROOT, "runtime", "src")):
        for f in files:
            text = open(os.path.join(folder, f), errors="replace").read()
            read.update(re.findall(r'getenv\("(\w+)"\)', text))
    assert "RIP_STACK_SIZE" in read
    for name, page in PAGES.items():
        environment = roff_text(section(page, "ENVIRONMENT"))
        assert not [v for v in read if v not in environment], name


# Macros of man(7) (and the two roff requests the pages use).
MACROS = {"TH", "SH", "SS", "TP", "PP", "LP", "P", "IP", "RS", "RE", "B", "I", "BR", "BI", "IB",
          "IR", "RB", "RI", "SM", "SB", "nf", "fi", "br", "nh", "ad", "sp"}


@pytest.mark.parametrize("name", ["ripper", "ripcc"])
def test_man_page_is_plain_man_macros(name):
    """Checked without any formatter: each request a man(7) macro, each
    font change closed, no bare '-' (roff prints a hyphen, not a minus
    that can be searched and pasted) in an option."""
    for n, line in enumerate(open(PAGES[name]).read().splitlines(), 1):
        where = "%s.1:%d: %s" % (name, n, line)
        if line.startswith(".\\\"") or line.startswith("'\\\""):
            continue
        if line.startswith((".", "'")):
            assert re.match(r"[.'](\w+)", line) and \
                re.match(r"[.'](\w+)", line).group(1) in MACROS, where
        assert not re.search(r"(?<![\\\w])-{1,2}[A-Za-z]", line), where
        assert not re.search(r"\\f[^BIRP(]", line), where


@pytest.mark.parametrize("name", ["ripper", "ripcc"])
def test_man_page_renders_without_warnings(name):
    if shutil.which("mandoc"):
        r = run(["mandoc", "-T", "lint", "-W", "warning", PAGES[name]])
        assert r.returncode == 0 and not r.stdout + r.stderr, (r.stdout + r.stderr).decode()
    if not shutil.which("groff"):
        pytest.skip("neither groff nor mandoc is installed: only the check above ran")
    r = run(["groff", "-man", "-Tutf8", "-ww", "-z", PAGES[name]])
    assert r.returncode == 0 and r.stderr == b"", r.stderr.decode()
    if shutil.which("man"):
        r = run(["man", "-l", PAGES[name]], env=dict(os.environ, MANWIDTH="80", MAN_KEEP_STDERR="1",
                                                     MANPAGER="cat", PAGER="cat"))
        # (man's own notes, a locale it cannot set, are not the page's)
        assert r.returncode == 0 and b"warning" not in r.stderr.lower(), r.stderr.decode()
        out = r.stdout.decode()
        assert "%s - " % name in out and "OPTIONS" in out


def test_the_renderer_check_catches_a_bad_page(tmp_path):
    """The warning check above means something: a stray macro and a bad
    font are reported."""
    if not shutil.which("groff"):
        pytest.skip("groff is not installed")
    bad = tmp_path / "bad.1"
    bad.write_text(open(PAGES["ripper"]).read().replace(".SH OPTIONS", ".SH OPTIONS\n.XY\n\\fQx"))
    r = run(["groff", "-man", "-Tutf8", "-ww", "-z", str(bad)])
    assert r.stderr != b""
